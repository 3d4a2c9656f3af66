import LumaAnalysis
import LumaTruth

/// A deterministic synthetic recording from a fixed camera, with exact ground truth: the test
/// fixture for every analyzer.
///
/// ```swift
/// let scene = try SyntheticScene(kind: .balls, settings: SceneSettings(seed: 7))
/// var pixels = [UInt8](repeating: 0, count: scene.settings.width * scene.settings.height)
/// pixels.withUnsafeMutableBufferPointer { scene.render(frame: 42, into: $0) }
/// print(scene.truth.ballSegments.map(\.id))   // ["ball1.1", "ball1.2", "ball2.1", ...]
/// ```
///
/// Everything is decided at init from `kind` and `settings` (mostly `seed`): the set, the balls'
/// throws, the objects' paths, the distractors, and the truth for every frame. Rendering is then a
/// pure function of the frame index: the same index gives the same bytes, in any order, on any
/// thread, on any platform (the generator uses its own portable math and random numbers).
///
/// A frame is composed back to front: static background (including the post) → distractors (lamp
/// flicker, slow mover) → tracked objects by depth → the post again, in front of them → the balls'
/// shadows and the hands that throw them (kind `crowded`) → balls → global brightness drift →
/// sensor noise.
public final class SyntheticScene: Sendable {
    public let kind: SceneKind
    public let settings: SceneSettings
    /// Complete truth for every frame, computed analytically at init.
    public let truth: GroundTruth
    /// What is in the scene, in pixels (for tests that inspect pixels).
    public let contents: SceneContents

    let layout: SetLayout
    let background: Background
    let sensorNoise: SensorNoise
    let balls: [Ball]
    /// Back to front.
    let objects: [TrackedObject]
    let distractors: Distractors?
    /// Shadows and hands (scene kind `crowded`).
    let companions: BallCompanions?

    /// Builds the scene. Throws an `OptionError` naming the setting when `settings` is invalid.
    ///
    /// Cost: painting the background is about one full-frame pass of value noise (tens of
    /// milliseconds at 1080p in release builds); truth is proportional to the frame count.
    public init(kind: SceneKind, settings: SceneSettings = SceneSettings()) throws(OptionError) {
        try settings.validate()
        self.kind = kind
        self.settings = settings
        let layout = SetLayout(settings: settings, withPost: kind.hasObjects)
        self.layout = layout
        background = Background(layout: layout)
        sensorNoise = SensorNoise(sigma: settings.noise, seed: settings.seed)

        let throwsInfo = kind.hasBalls
            ? BallThrows(settings: settings, layout: layout, count: kind == .balls ? 3...6 : kind == .crowded ? 3...5 : 3...4) : nil
        companions = kind.hasCompanions ? BallCompanions(settings: settings) : nil
        let cast = kind.hasObjects ? ObjectCast(settings: settings, layout: layout, count: kind == .tracking ? 3...4 : 3...3) : nil
        let distractors = kind.hasDistractors ? Distractors(settings: settings, layout: layout) : nil
        let balls = throwsInfo?.balls ?? []
        let objects = (cast?.objects ?? []).sorted { $0.depth < $1.depth }
        self.balls = balls
        self.objects = objects
        self.distractors = distractors

        let fps = Double(settings.framesPerSecond)
        var segments: [BallSegment] = []
        for ball in balls {
            segments += ball.segments(
                frameCount: settings.frameCount, framesPerSecond: fps, width: settings.width, height: settings.height)
        }
        let tracks = Self.objectTracks(objects: objects, balls: balls, post: layout.post, settings: settings)
        truth = GroundTruth(
            width: settings.width, height: settings.height, frames: settings.frameCount,
            notes: Notes.describe(
                kind: kind, settings: settings, layout: layout, throwsInfo: throwsInfo, cast: cast,
                distractors: distractors, companions: companions),
            ballSegments: segments, objectTracks: tracks)

        contents = SceneContents(
            floorLine: layout.floorY, gravity: throwsInfo?.gravity, post: layout.post,
            balls: balls.map {
                .init(id: $0.id, radius: $0.radius, contrast: $0.contrast, restitution: $0.restitution, launchTime: $0.launchTime)
            },
            objects: (cast?.objects ?? []).map {
                .init(
                    id: $0.id, pattern: $0.texture.pattern.rawValue, width: $0.baseWidth, height: $0.baseHeight,
                    maximumScale: 1 + ($0.pulse?.peak ?? 0), depth: $0.depth, role: $0.role)
            },
            lamp: distractors?.lamp, moverRadius: distractors?.moverRadiusX)
    }

    /// Boxes for every frame and the frames where more than 30% of each object is hidden.
    private static func objectTracks(
        objects: [TrackedObject], balls: [Ball], post: SceneRect?, settings: SceneSettings
    ) -> [ObjectTrack] {
        guard !objects.isEmpty else { return [] }
        let fps = Double(settings.framesPerSecond)
        let truthPoints = TruthPoints(frameWidth: settings.width, frameHeight: settings.height)
        var points = [[[Double]]](repeating: [], count: objects.count)
        var occluded = [[Int]](repeating: [], count: objects.count)
        for i in objects.indices { points[i].reserveCapacity(settings.frameCount) }
        for frame in 0..<settings.frameCount {
            let t = Double(frame) / fps
            let boxes = objects.map { $0.box(at: t) }
            var discs: [Occlusion.Disc] = []
            for ball in balls {
                switch ball.state(at: t) {
                case .flying(_, let x, let y), .resting(let x, let y):
                    discs.append(.init(x: x, y: y, radius: ball.radius))
                case .notThrownYet, .gone: break
                }
            }
            for (i, object) in objects.enumerated() {
                let box = boxes[i]
                points[i].append(
                    truthPoints.box(frame: frame, left: box.left, top: box.top, right: box.right, bottom: box.bottom))
                var front: [SceneRect] = post.map { [$0] } ?? []
                for (j, other) in objects.enumerated() where other.depth > object.depth { front.append(boxes[j]) }
                if Occlusion.hiddenFraction(of: box, rects: front, discs: discs) > 0.3 { occluded[i].append(frame) }
            }
        }
        return objects.indices
            .map { ObjectTrack(id: objects[$0].id, points: points[$0], occluded: occluded[$0].isEmpty ? nil : occluded[$0]) }
            .sorted { $0.id.count != $1.id.count ? $0.id.count < $1.id.count : $0.id < $1.id }
    }

    // MARK: - Rendering

    /// Renders frame `index` (0-based, `0..<settings.frameCount`) into `pixels`: `width × height`
    /// grey levels, row-major, top row first, no padding (extra capacity is left untouched).
    ///
    /// Pure: the same index always gives the same bytes, whatever was rendered before and on
    /// whichever thread. Frame `i` shows the scene at `i / framesPerSecond` seconds.
    public func render(frame index: Int, into pixels: UnsafeMutableBufferPointer<UInt8>) {
        render(frame: index, into: pixels, layers: .all)
    }

    /// Renders frame `index` with only some layers, e.g. `[]` for the clean static background or
    /// `[.noise]` for background plus exactly the noise the full frame gets. The background
    /// (including the post) is always drawn; noise is the same whichever other layers are on, so
    /// two renders of one frame differ only where the omitted layers draw.
    public func render(frame index: Int, into pixels: UnsafeMutableBufferPointer<UInt8>, layers: SceneLayers) {
        let w = settings.width, h = settings.height
        precondition(index >= 0 && index < settings.frameCount, "frame \(index) is outside 0..<\(settings.frameCount)")
        precondition(pixels.count >= w * h, "buffer holds \(pixels.count) bytes, a frame needs \(w * h)")
        guard let base = pixels.baseAddress else { return }
        let plane = Plane(base: base, width: w, height: h)
        let t = Double(index) / Double(settings.framesPerSecond)

        background.pixels.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress else { return }
            base.update(from: from, count: w * h)
        }
        let distractors = layers.contains(.distractors) ? self.distractors : nil
        if let distractors {
            distractors.drawLamp(frame: index, t: t, into: plane)
            distractors.drawMover(t: t, into: plane)
        }
        if layers.contains(.objects), !objects.isEmpty {
            for object in objects { object.texture.draw(in: object.box(at: t), into: plane) }
            if let post = layout.post { restoreBackground(in: post, plane: plane) }
        }
        if layers.contains(.companions), let companions {
            // Shadows on the wall first, then the hands, then the balls in front of both.
            for ball in balls {
                if case .flying(_, let x, let y) = ball.state(at: t) { companions.drawShadow(ballX: x, y: y, radius: ball.radius, into: plane) }
            }
            for ball in balls {
                guard let hand = companions.handCentre(of: ball, at: t, width: Double(w), height: Double(h)) else { continue }
                companions.drawHand(x: hand.x, y: hand.y, radius: ball.radius, base: background.localMean(x: hand.x, y: hand.y), into: plane)
            }
        }
        if layers.contains(.balls) {
            for ball in balls {
                switch ball.state(at: t) {
                case .flying(_, let x, let y), .resting(let x, let y):
                    ball.draw(cx: x, cy: y, base: background.localMean(x: x, y: y), into: plane)
                case .notThrownYet, .gone: break
                }
            }
        }
        let noisy = layers.contains(.noise) && settings.noise > 0
        if let distractors {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { curve in
                distractors.fillToneCurve(curve, at: t)
                guard let tone = curve.baseAddress else { return }
                if noisy {
                    sensorNoise.apply(frame: index, to: plane, tone: UnsafePointer(tone))
                } else {
                    SensorNoise.applyTone(UnsafePointer(tone), to: plane)
                }
            }
        } else if noisy {
            sensorNoise.apply(frame: index, to: plane, tone: nil)
        }
    }

    /// Frame `index` as a new array of `width × height` bytes (see `render(frame:into:layers:)`).
    public func frame(_ index: Int, layers: SceneLayers = .all) -> [UInt8] {
        let count = settings.width * settings.height
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            render(frame: index, into: buffer, layers: layers)
            initialized = count
        }
    }

    /// Copies the static background back over `rect` (used for the post, which stands in front of
    /// the tracked objects).
    private func restoreBackground(in rect: SceneRect, plane: Plane) {
        let span = rect.pixelSpan(width: plane.width, height: plane.height)
        guard !span.columns.isEmpty else { return }
        background.pixels.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress else { return }
            for row in span.rows {
                (plane.row(row) + span.columns.lowerBound)
                    .update(from: from + row * plane.width + span.columns.lowerBound, count: span.columns.count)
            }
        }
    }
}

/// Which parts of a scene `SyntheticScene.render(frame:into:layers:)` draws. The static
/// background (with the post) is always drawn.
public struct SceneLayers: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Thrown balls (flying or at rest).
    public static let balls = SceneLayers(rawValue: 1 << 0)
    /// Tracked rectangles.
    public static let objects = SceneLayers(rawValue: 1 << 1)
    /// Slow mover, flickering lamp and global brightness drift.
    public static let distractors = SceneLayers(rawValue: 1 << 2)
    /// Sensor noise.
    public static let noise = SceneLayers(rawValue: 1 << 3)
    /// The balls' shadows and the hands that throw them (scene kind `crowded`).
    public static let companions = SceneLayers(rawValue: 1 << 4)
    /// Everything: what `render(frame:into:)` draws.
    public static let all: SceneLayers = [.balls, .objects, .distractors, .noise, .companions]
}
