import Foundation

/// Small JPEGs that ffmpeg cannot write, made once with libjpeg-turbo 2.1 (cjpeg-style settings,
/// quality 90, 32x24, the same RGB gradient-and-checkerboard picture in each), kept as files in
/// `JPEGs/` beside this one.
enum JPEGFixtures {
    /// Baseline, YCbCr 4:2:0.
    static let baseline = load("baseline.jpg")

    /// The same picture as `baseline`, progressive (jpeg_simple_progression): same coefficients.
    static let progressive = load("progressive.jpg")

    /// The same picture as `baseline` with a restart marker after every MCU.
    static let restart = load("restart.jpg")

    /// Three components stored as RGB (Adobe transform 0), not YCbCr.
    static let rgb = load("rgb.jpg")

    /// Baseline but arithmetic-coded (SOF9).
    static let arithmetic = load("arithmetic.jpg")

    /// Four components, CMYK.
    static let cmyk = load("cmyk.jpg")

    /// 16x16 progressive RGB-in-YCbCr with one scan per AC coefficient per component: 190 scans,
    /// all legal, and more than the decoder accepts.
    static let manyScans = load("many-scans.jpg")

    private static func load(_ name: String) -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("JPEGs/" + name)
        guard let data = try? Data(contentsOf: url) else { fatalError("the JPEG fixture \(url.path) is missing") }
        return [UInt8](data)
    }
}
