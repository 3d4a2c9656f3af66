import LumaAnalysis
import LumaImaging

/// Follows one object from frame to frame with a ``CorrelationFilter`` on oriented-gradient
/// features, and follows its size with a search over a few scales.
///
/// The target's box is kept in frame pixels (top-left origin, continuous). Each frame it looks at
/// a window 2.5 times the box around the last position, resampled to a fixed patch so the filter
/// always sees the target at the same resolution, at each of the level's scales; the best
/// response gives the new position and size. The model learns from the new position only while
/// the response is confident, so an occluder is not learnt as the target.
struct ObjectTracker {
    /// Settings of a tracking level.
    struct Settings: Sendable {
        /// Pixels per feature cell in the patch.
        var cellSize: Int
        /// The patch's area in pixels: the window is resampled to about this many.
        var patchArea: Double
        /// Scale steps tried around the current size (1 included).
        var scales: [Double]
        /// Response handicap per scale step away from 1: size changes need a clearly better fit.
        var scalePenalty: Double
        /// Share of each new frame blended into the model.
        var learningRate: Float

        /// Features: 18 signed orientation bins as well as the 9 unsigned ones (27 instead of 9).
        var signedOrientations: Bool
        /// The label's Gaussian standard deviation, as a share of the target's size in cells.
        var labelSigma: Double
        /// Bandwidth of the filter's Gaussian kernel.
        var kernelSigma: Float
        /// Confidence below which a frame's best scale is not taken (the position still is): a
        /// partly hidden or blurred object must not shrink or grow the box.
        var scaleConfidence: Double

        static let fast = Settings(cellSize: 4, patchArea: 64 * 64, scales: [1 / 1.05, 1, 1.05], scalePenalty: 0.95,
                                   learningRate: 0.02, signedOrientations: false, labelSigma: 0.1, kernelSigma: 0.5,
                                   scaleConfidence: 0.8)
        static let accurate = Settings(cellSize: 4, patchArea: 96 * 96, scales: [1 / 1.05, 1, 1.05],
                                       scalePenalty: 0.95, learningRate: 0.02, signedOrientations: true, labelSigma: 0.08,
                                       kernelSigma: 0.6, scaleConfidence: 0.8)
    }

    /// What one frame's search found.
    struct Measurement: Sendable {
        /// The filter's peak response (about 1 on the frame it learnt from).
        var peak: Double
        /// Peak-to-sidelobe ratio.
        var sidelobe: Double
        /// 0...1: how sure the tracker is that the box holds the target.
        var confidence: Double
    }

    static let padding = 2.5

    let settings: Settings
    /// Box centre and size, frame pixels.
    private(set) var centreX: Double
    private(set) var centreY: Double
    private(set) var width: Double
    private(set) var height: Double
    /// Frame pixels per patch pixel at the initial size.
    private let baseZoom: Double
    private let patchWidth: Int
    private let patchHeight: Int
    private var filter: CorrelationFilter
    private var gradients: OrientedGradients
    private var patch: [Float]
    private var features: [Float]

    /// Starts on the box (frame pixels, top-left origin) in `frame`.
    init(frame: Frame, centreX: Double, centreY: Double, width: Double, height: Double, settings: Settings) {
        self.settings = settings
        self.centreX = centreX
        self.centreY = centreY
        self.width = width
        self.height = height
        let windowWidth = width * Self.padding, windowHeight = height * Self.padding
        let zoom = (settings.patchArea / (windowWidth * windowHeight)).squareRoot()
        let k = settings.cellSize
        let cellsX = FourierTransform2D.goodSize(atLeast: max(8, Int((windowWidth * zoom / Double(k)).rounded())))
        let cellsY = FourierTransform2D.goodSize(atLeast: max(8, Int((windowHeight * zoom / Double(k)).rounded())))
        patchWidth = cellsX * k
        patchHeight = cellsY * k
        // The window actually sampled keeps the patch's aspect: frame pixels per patch pixel on each axis.
        baseZoom = 1 / zoom
        let sigma = (width * height).squareRoot() * zoom / Double(k) * settings.labelSigma
        gradients = OrientedGradients(cellsX: cellsX, cellsY: cellsY, cellSize: k, softBins: true, signed: settings.signedOrientations)
        filter = CorrelationFilter(cellsX: cellsX, cellsY: cellsY, channels: gradients.channelCount, labelSigma: max(sigma, 0.5),
                                   kernelSigma: settings.kernelSigma)
        patch = [Float](repeating: 0, count: patchWidth * patchHeight)
        features = [Float](repeating: 0, count: cellsX * cellsY * gradients.channelCount)
        extract(frame, centreX: centreX, centreY: centreY, scale: 1)
        features.withUnsafeBufferPointer { filter.train($0, rate: 1) }
    }

    /// The box, frame pixels, top-left origin: x, y, width, height.
    var box: [Double] { [centreX - width / 2, centreY - height / 2, width, height] }

    /// Frame pixels per patch pixel now (the size has changed by `width / initialWidth`).
    private var zoom: Double { baseZoom * sizeRatio }
    private var sizeRatio = 1.0
    /// Running mean of the peak response on confident frames, from the first search on.
    private var typicalPeak: Double?
    /// The last confident frame-to-frame motion, frame pixels.
    private var velocityX = 0.0
    private var velocityY = 0.0

    /// Looks for the target in `frame` near where it was and moves the box there; learns from it
    /// when confident at least `learnAbove`.
    mutating func track(_ frame: Frame, learnAbove: Double) -> Measurement {
        // Search where the object would be if it kept its last motion, at every scale, and where
        // it was, at its size: a ball that bounces does not keep its motion.
        let (fromX, fromY) = (centreX, centreY)
        var best: (score: Double, x: Double, y: Double, scale: Double, dx: Double, dy: Double, peak: Double, psr: Double)?
        func consider(_ x: Double, _ y: Double, _ s: Double) {
            extract(frame, centreX: x, centreY: y, scale: s)
            let r = features.withUnsafeBufferPointer { filter.detect($0) }
            let score = r.peak * (s == 1 ? 1 : settings.scalePenalty)
            if best == nil || score > best!.score { best = (score, x, y, s, r.dx, r.dy, r.peak, r.sidelobe) }
        }
        for s in settings.scales { consider(fromX + velocityX, fromY + velocityY, s) }
        let moving = (velocityX * velocityX + velocityY * velocityY).squareRoot() > Double(settings.cellSize) * zoom
        if moving { consider(fromX, fromY, 1) }
        let found = best!
        let step = zoom * found.scale * Double(settings.cellSize)
        centreX = found.x + found.dx * step
        centreY = found.y + found.dy * step
        // The first search after the seed sets what a good match looks like for this object.
        if typicalPeak == nil { typicalPeak = found.peak }
        let confidence = confidence(peak: found.peak, sidelobe: found.psr)
        if confidence >= settings.scaleConfidence {
            sizeRatio *= found.scale
            width *= found.scale
            height *= found.scale
        }
        if confidence >= learnAbove {
            typicalPeak! += 0.1 * (found.peak - typicalPeak!)
            velocityX = centreX - fromX
            velocityY = centreY - fromY
        } else {
            velocityX *= 0.5
            velocityY *= 0.5
        }
        if confidence >= learnAbove {
            extract(frame, centreX: centreX, centreY: centreY, scale: 1)
            features.withUnsafeBufferPointer { filter.train($0, rate: settings.learningRate) }
        }
        return Measurement(peak: found.peak, sidelobe: found.psr, confidence: confidence)
    }

    /// Looks for a lost target in a wider area: windows centred on the last position and on eight
    /// positions around it, half a window away. Moves there and returns the measurement when the
    /// best of them is confident at least `threshold`; otherwise leaves the box where it was.
    mutating func reacquire(_ frame: Frame, threshold: Double) -> Measurement? {
        let stepX = Double(patchWidth) * zoom / 2, stepY = Double(patchHeight) * zoom / 2
        var best: (confidence: Double, x: Double, y: Double, peak: Double, psr: Double)?
        for oy in -1...1 {
            for ox in -1...1 {
                let cx = centreX + Double(ox) * stepX, cy = centreY + Double(oy) * stepY
                extract(frame, centreX: cx, centreY: cy, scale: 1)
                let r = features.withUnsafeBufferPointer { filter.detect($0) }
                let c = confidence(peak: r.peak, sidelobe: r.sidelobe)
                let step = zoom * Double(settings.cellSize)
                if best == nil || c > best!.confidence { best = (c, cx + r.dx * step, cy + r.dy * step, r.peak, r.sidelobe) }
            }
        }
        guard let found = best, found.confidence >= threshold else { return nil }
        centreX = found.x
        centreY = found.y
        return Measurement(peak: found.peak, sidelobe: found.psr, confidence: found.confidence)
    }

    /// Confidence from the response: its peak against this track's typical peak (how much the
    /// object still looks like what the model learnt; a hidden object's peak falls to a fraction of
    /// it), and how clearly the peak stands out of the rest of the response (a flat or many-peaked
    /// response means the object is gone or hidden). The lower of the two.
    func confidence(peak: Double, sidelobe: Double) -> Double {
        let height = min(1, max(0, (peak / max(typicalPeak ?? peak, 1e-6) - 0.2) / 0.6))
        let clarity = min(1, max(0, (sidelobe - 3) / 7))
        return min(height, clarity)
    }

    /// Samples the window around (`centreX`, `centreY`) at `scale` times the current size into
    /// `patch`, and its features into `features`.
    private mutating func extract(_ frame: Frame, centreX: Double, centreY: Double, scale: Double) {
        let z = zoom * scale
        let (pw, ph) = (patchWidth, patchHeight)
        patch.withUnsafeMutableBufferPointer { out in
            PatchSampler.sample(GrayImage(frame), centreX: centreX, centreY: centreY,
                                sourceWidth: Double(pw) * z, sourceHeight: Double(ph) * z,
                                into: out, outputWidth: pw, outputHeight: ph)
        }
        patch.withUnsafeBufferPointer { p in features.withUnsafeMutableBufferPointer { gradients.compute(p, into: $0) } }
    }
}
