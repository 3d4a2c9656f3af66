import LumaAnalysis
import LumaImaging

/// A compact moving thing found in one frame: a candidate point of a trajectory.
struct Detection: Sendable, Equatable {
    /// Centre in frame pixels (top-left origin, continuous).
    var x: Double
    var y: Double
    /// Radius in frame pixels.
    var radius: Double
    /// Mean absolute difference from the background over the object, grey levels.
    var contrast: Double
    /// Extent of the object's pixels in frame pixels (continuous edges).
    var left: Double
    var top: Double
    var right: Double
    var bottom: Double
    /// Edges of the processed region the blob touches: part of the object may be cut off there,
    /// and then its centroid and radius are not its own.
    var clipped: Clipping

    var touchesEdge: Bool { !clipped.isEmpty }

    struct Clipping: OptionSet, Sendable, Equatable {
        let rawValue: UInt8
        static let left = Clipping(rawValue: 1)
        static let right = Clipping(rawValue: 2)
        static let top = Clipping(rawValue: 4)
        static let bottom = Clipping(rawValue: 8)
    }

    /// The centre of an object of `radius` that the region's edges cut: measured from the side of
    /// its extent that is not cut. `nil` when it is cut on opposite sides.
    func centre(assumingRadius radius: Double) -> (x: Double, y: Double)? {
        guard touchesEdge else { return (x, y) }
        var cx = x, cy = y
        switch (clipped.contains(.left), clipped.contains(.right)) {
        case (true, true): return nil
        case (true, false): cx = right - radius
        case (false, true): cx = left + radius
        case (false, false): break
        }
        switch (clipped.contains(.top), clipped.contains(.bottom)) {
        case (true, true): return nil
        case (true, false): cy = bottom - radius
        case (false, true): cy = top + radius
        case (false, false): break
        }
        return (cx, cy)
    }
}

/// Finds small moving objects in each frame by comparing it with a background model.
///
/// Per frame, on the shrunk region of interest:
/// 1. **Shrink** by block averaging (`Downsample`), which also divides the noise.
/// 2. **Measure the noise** from this frame and the previous one (`NoiseLevel`), smoothed over
///    time, and set the threshold from it unless the user fixed one.
/// 3. **Difference** against an `AdaptiveBackground`. Differencing against a background rather than
///    the previous frame shows the object where it *is*, as a whole disc, without the ghost of
///    where it was.
/// 4. **Threshold the 3×3 sums** of the difference (`BoxThreshold`): faint objects survive, single
///    noisy pixels do not.
/// 5. **Label** the mask (`ConnectedComponents`) and keep compact blobs of a plausible size. Each is
///    measured from the raw difference: its pixels above the threshold give its centre and radius.
/// 6. **Look again inside crowded blobs.** A ball thrown in front of something that moves too (a
///    juggler's body, a player) merges with it into one large blob that is no ball. Inside such
///    blobs the detector thresholds the *three-frame difference* (the smaller of this frame's
///    differences from the two before), which keeps what moves fast and drops what drifts: the
///    ball at its place in this frame, not the slowly swaying body around it.
/// 7. **Look at each blob at full resolution** (``AppearanceCheck``): a blob that holds a smaller,
///    round, sharp-edged disc on moving pixels (a ball merged with its shadow, the hand that threw
///    it or the body behind it) is measured as that disc, to a fraction of a pixel.
/// 8. **Update the background** everywhere except under the blobs.
///
/// All buffers are allocated once; a frame costs a few passes over the shrunk plane, and a disc
/// search inside each blob.
struct MotionDetector {
    let geometry: ProcessingGeometry
    /// Fixed threshold (grey levels, mean over 3×3), or 0 for automatic.
    let fixedThreshold: Int
    /// Radii kept, in frame pixels, with some slack: trajectories are filtered on their mean radius.
    let minimumRadiusPixels: Double
    let maximumRadiusPixels: Double
    /// Frames a pixel must hold still to become background (about half a second).
    let settleFrames: Int

    /// Shrinking, the background, its difference and mask, and the last three frames.
    private var segmentation: MotionSegmentation
    /// Three-frame difference inside crowded blobs (0 elsewhere), and its mask.
    private var motion: [UInt8]
    private var motionMask: [UInt8]
    /// Bounding boxes (processing pixels) of this frame's blobs too large or ragged to be a ball.
    private var crowded: [Component] = []
    /// Smoothed noise σ in processing pixels, grey levels; nil before two frames were seen.
    private(set) var noise: Double?
    private(set) var detections: [Detection] = []
    private let appearance = AppearanceCheck()

    /// Noise σ in the shrunk frames (2 grey levels until measured).
    var noiseLevel: Double { noise ?? 2 }

    /// The threshold in use (grey levels, mean over 3×3).
    var threshold: Double {
        if fixedThreshold > 0 { return Double(fixedThreshold) }
        return max(6, 2.2 * (noise ?? 2))
    }

    init(geometry: ProcessingGeometry, fixedThreshold: Int, minimumRadiusPixels: Double, maximumRadiusPixels: Double, settleFrames: Int) {
        self.geometry = geometry
        self.fixedThreshold = fixedThreshold
        self.minimumRadiusPixels = minimumRadiusPixels
        self.maximumRadiusPixels = maximumRadiusPixels
        self.settleFrames = max(1, min(255, settleFrames))
        segmentation = MotionSegmentation(region: geometry.region, factor: geometry.factor, settleFrames: settleFrames)
        motion = [UInt8](repeating: 0, count: geometry.width * geometry.height)
        motionMask = motion
    }

    /// Detects the moving objects of `frame`; the first frame only starts the background.
    mutating func detect(_ frame: Frame) -> [Detection] {
        detections.removeAll(keepingCapacity: true)
        let g = geometry
        guard segmentation.begin(GrayImage(frame)), g.width * g.height > 0 else { return [] }

        // Noise from this frame against the previous one: every 4th row is plenty.
        let sigma = segmentation.current.withUnsafeBufferPointer { c in
            segmentation.previous.withUnsafeBufferPointer { p in
                NoiseLevel.temporalSigma(c, p, width: g.width, height: g.height, rowStep: 4)
            }
        }
        noise = noise.map { $0 + (sigma - $0) / 8 } ?? sigma
        let t = threshold

        let setPixels = segmentation.segment(threshold: Int((9 * t).rounded()))
        crowded.removeAll(keepingCapacity: true)
        if setPixels > 0 {
            let (difference, mask) = (segmentation.difference, segmentation.mask)
            for c in segmentation.components(of: mask) where !measure(c, threshold: t, difference: difference, mask: mask) { crowded.append(c) }
        }
        if !crowded.isEmpty { lookInsideCrowds(threshold: t) }
        let allowed = max(1.5, 0.7 * minimumRadiusPixels)...max(2, maximumRadiusPixels * 1.3)
        for i in detections.indices { detections[i] = appearance.refine(detections[i], in: frame, radius: allowed, support: support) }

        segmentation.end(stillness: UInt8(clamping: Int((max(3, 4.5 * (noise ?? 2))).rounded())))
        return detections
    }

    /// The fraction of the processing pixels under the disc (within 0.8 of its radius) that
    /// differ from the background in the frame being analyzed.
    func support(_ disc: Disc) -> Double {
        let g = geometry, k = Double(g.factor)
        let (cx, cy, r) = ((disc.x - Double(g.region.x0)) / k, (disc.y - Double(g.region.y0)) / k, 0.8 * disc.radius / k)
        let x0 = max(0, Int(cx - r)), x1 = min(g.width - 1, Int(cx + r)), y0 = max(0, Int(cy - r)), y1 = min(g.height - 1, Int(cy + r))
        guard x0 <= x1, y0 <= y1 else { return 0 }
        var inside = 0, moving = 0
        let mask = segmentation.mask
        for y in y0...y1 {
            for x in x0...x1 {
                let (dx, dy) = (Double(x) + 0.5 - cx, Double(y) + 0.5 - cy)
                guard dx * dx + dy * dy <= r * r else { continue }
                inside += 1
                if mask[y * g.width + x] != 0 { moving += 1 }
            }
        }
        return inside == 0 ? 1 : Double(moving) / Double(inside)
    }

    // MARK: - Finding a known ball without differencing

    /// The appearance of the ball at `point` (frame pixels) in the frame just analyzed.
    func template(at point: TrackPoint, contrast: Double) -> BallTemplate? {
        let g = geometry, k = Double(g.factor)
        // After `detect`, the frame just analyzed is kept as `previous`.
        return segmentation.previous.withUnsafeBufferPointer {
            BallTemplate(plane: $0, width: g.width, height: g.height, x: (point.x - Double(g.region.x0)) / k,
                         y: (point.y - Double(g.region.y0)) / k, radius: point.radius / k, contrast: contrast)
        }
    }

    /// Looks for the ball of `template` within `gate` frame pixels of (`x`, `y`) in the frame just
    /// analyzed. The match must be about as close as the noise allows: its mean absolute
    /// difference at most 1.6 noise σ plus 2 grey levels plus a tenth of the ball's contrast (the
    /// ball's shading and the light on it change a little from frame to frame), and its overall
    /// brightness may not have changed by more than the ball's contrast.
    func locate(_ template: BallTemplate, nearX x: Double, y: Double, gate: Double) -> (x: Double, y: Double)? {
        let g = geometry, k = Double(g.factor)
        let search = max(1, min(24, Int((gate / k).rounded(.up))))
        let found = segmentation.previous.withUnsafeBufferPointer {
            template.locate(in: $0, width: g.width, height: g.height, x: (x - Double(g.region.x0)) / k,
                            y: (y - Double(g.region.y0)) / k, search: search)
        }
        guard let f = found, f.difference <= 1.6 * (noise ?? 2) + 2 + 0.1 * template.contrast,
              abs(f.offset) <= template.contrast + 2 * (noise ?? 2) else { return nil }
        // And something must be there: the place differs from the background about as much as
        // the ball did. Without this, a faint ball's shading also matches plain background.
        let foreground = segmentation.difference.withUnsafeBufferPointer { template.mean(of: $0, width: g.width, height: g.height, x: f.x, y: f.y) }
        guard let seen = foreground, seen >= max(threshold, 0.5 * template.contrast) else { return nil }
        return (g.frameX(f.x), g.frameY(f.y))
    }

    /// Measures one blob of `mask` from the raw `difference` and keeps it if it could be a ball.
    /// Returns false when the blob is too large or ragged to be one (it may hide one).
    @discardableResult
    private mutating func measure(_ c: Component, threshold: Double, difference: [UInt8], mask: [UInt8]) -> Bool {
        let g = geometry
        let k = Double(g.factor)
        // Cheap rejections on the mask blob (grown by about a pixel by the 3×3 sums).
        guard c.area >= 2 else { return true }
        let boxWidth = c.maxX - c.minX + 1, boxHeight = c.maxY - c.minY + 1
        let grownRadius = (maximumRadiusPixels / k) + 2
        guard Double(max(boxWidth, boxHeight)) <= 2 * grownRadius + 1 else { return false }
        if boxWidth > 3 || boxHeight > 3 {
            let fill = Double(c.area) / Double(boxWidth * boxHeight)
            let aspect = Double(max(boxWidth, boxHeight)) / Double(min(boxWidth, boxHeight))
            guard fill >= 0.35, aspect <= 3 else { return false }
        }

        // The blob's pixels whose own difference is above the threshold: the object without the
        // growth of the 3×3 sums. Their plain (unweighted) centroid is unbiased even though balls
        // are shaded (lit on one side): weighting by difference, or keeping only the pixels above
        // half the peak, would pull the centre towards the bright side.
        let w = g.width
        let cut = UInt8(clamping: Int(threshold.rounded(.up)))
        typealias Measure = (sumX: Int, sumY: Int, count: Int, mean: Double, minX: Int, minY: Int, maxX: Int, maxY: Int)
        let result: Measure? = difference.withUnsafeBufferPointer { d in
            mask.withUnsafeBufferPointer { m in
                var sx = 0, sy = 0, count = 0, total = 0
                var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
                for y in c.minY...c.maxY {
                    let row = y * w
                    for x in c.minX...c.maxX where m[row + x] != 0 && d[row + x] >= cut {
                        sx += x
                        sy += y
                        count += 1
                        total += Int(d[row + x])
                        minX = min(minX, x); maxX = max(maxX, x)
                        minY = min(minY, y); maxY = max(maxY, y)
                    }
                }
                guard count > 0 else { return nil }
                return (sx, sy, count, Double(total) / Double(count), minX, minY, maxX, maxY)
            }
        }
        guard let r = result else { return true }
        let cx = Double(r.sumX) / Double(r.count) + 0.5
        let cy = Double(r.sumY) / Double(r.count) + 0.5
        let radius = k * (Double(r.count) / PortableMath.pi).squareRoot()
        var clipped: Detection.Clipping = []
        if c.minX == 0 { clipped.insert(.left) }
        if c.maxX == g.width - 1 { clipped.insert(.right) }
        if c.minY == 0 { clipped.insert(.top) }
        if c.maxY == g.height - 1 { clipped.insert(.bottom) }
        // A cut-off object looks smaller than it is; only whole ones are held to the minimum.
        guard radius <= maximumRadiusPixels * 1.3 + k, !clipped.isEmpty || radius >= minimumRadiusPixels * 0.7 - k else { return true }
        detections.append(Detection(
            x: g.frameX(cx), y: g.frameY(cy), radius: radius, contrast: r.mean,
            left: g.frameX(Double(r.minX)), top: g.frameY(Double(r.minY)), right: g.frameX(Double(r.maxX + 1)),
            bottom: g.frameY(Double(r.maxY + 1)), clipped: clipped))
        return true
    }

    /// Finds fast-moving compact objects inside this frame's crowded blobs from the three-frame
    /// difference `min(|current − previous|, |current − older|)`: what moved since both earlier
    /// frames is where a moving object is now. The thing the object is merged with moves too, but
    /// slowly, so only its sharpest edges change from frame to frame; the threshold is set above
    /// them, at 3.5 times the background threshold (measured on the real clips: 2.5 let parts of
    /// players through on the court and found 21 juggling throws instead of 28; 5 found the same
    /// as 3.5). Blobs that fall on a detection already made are that detection.
    private mutating func lookInsideCrowds(threshold t: Double) {
        let g = geometry
        let w = g.width, h = g.height
        segmentation.current.withUnsafeBufferPointer { c in
            segmentation.previous.withUnsafeBufferPointer { p in
                segmentation.older.withUnsafeBufferPointer { o in
                    motion.withUnsafeMutableBufferPointer { m in
                        m.update(repeating: 0)
                        for box in crowded {
                            for y in max(0, box.minY - 1)...min(h - 1, box.maxY + 1) {
                                let row = y * w
                                for i in (row + max(0, box.minX - 1))...(row + min(w - 1, box.maxX + 1)) {
                                    let now = Int(c[i])
                                    m[i] = UInt8(min(abs(now - Int(p[i])), abs(now - Int(o[i]))))
                                }
                            }
                        }
                    }
                }
            }
        }
        let tc = 3.5 * t
        guard segmentation.threshold(motion, at: Int((9 * tc).rounded()), into: &motionMask) > 0 else { return }
        let found = detections.count
        for c in segmentation.components(of: motionMask) { measure(c, threshold: tc, difference: motion, mask: motionMask) }
        // Drop the ones on a detection made against the background.
        var kept = Array(detections[..<found])
        for d in detections[found...] where !kept[..<found].contains(where: { Self.overlaps($0, d) }) { kept.append(d) }
        detections = kept
    }

    private static func overlaps(_ a: Detection, _ b: Detection) -> Bool {
        let dx = a.x - b.x, dy = a.y - b.y
        let reach = max(a.radius, b.radius)
        return dx * dx + dy * dy < reach * reach
    }
}

