import Foundation
import LumaFormat
import LumaRecording
import LumaSynth

/// The inputs the benchmark measures, in the order they run: the synthetic scene, then every clip
/// of the shared data folder (videos, the GIF and the two image sequences), each at its own size.
enum InputKind: String, CaseIterable, Sendable {
    /// A 1920x1080 synthetic scene from LumaSynth (`.mixed`, 120 frames, seed 1), rendered in memory.
    case synthetic
    /// `opencv-vtest-pedestrians/vtest.avi`: 768x576 pedestrians, fixed camera, MPEG-4 Part 2.
    case vtest
    /// `cdnet-highway-bgslibrary/video03.avi`: 320x240 highway, fixed camera.
    case cdnet
    /// `ball-vertical-toss/ball.mp4`: 1280x720, a ball thrown up in front of a wall.
    case toss
    /// `ball-hand-moved-negative/ball4.mp4`: 1280x720, a ball moved by hand (no flight).
    case negative
    /// `basketball-court-shots/three_score_two_miss.mp4`: 960x540, an outdoor court.
    case court
    /// `freethrow-basketball-side/FreeThrow.mp4`: 852x480, free throws seen from the side.
    case freethrow
    /// `juggling-3ball-cascade/ss3_id_01.mp4`: 478x850, a phone video (noisy, hand-held).
    case juggling
    /// `mizuno-golf-swing-gif/golf.gif`: 480x360, a GIF (palette colour).
    case golf
    /// `otb-crossing/img`: 360x240 JPEG image sequence (OTB).
    case crossing
    /// `vot2015-ball1/imgs`: JPEG image sequence (VOT 2015).
    case ball1

    /// Where a real clip lives inside the data folder (a video file or a folder of images); `nil`
    /// for the synthetic scene.
    var relativePath: String? {
        switch self {
        case .synthetic: return nil
        case .vtest: return "opencv-vtest-pedestrians/vtest.avi"
        case .cdnet: return "cdnet-highway-bgslibrary/video03.avi"
        case .toss: return "ball-vertical-toss/ball.mp4"
        case .negative: return "ball-hand-moved-negative/ball4.mp4"
        case .court: return "basketball-court-shots/three_score_two_miss.mp4"
        case .freethrow: return "freethrow-basketball-side/FreeThrow.mp4"
        case .juggling: return "juggling-3ball-cascade/ss3_id_01.mp4"
        case .golf: return "mizuno-golf-swing-gif/golf.gif"
        case .crossing: return "otb-crossing/img"
        case .ball1: return "vot2015-ball1/imgs"
        }
    }
}

/// One input, held entirely in memory: every frame as 8-bit luma, back to back, plus the same
/// frames in a `.y4m` file for the ffmpeg peers.
///
/// All methods measure exactly these frames: Lumatrace and memcpy read `frames`, the peers read
/// `y4mPath`, whose frames are checked to be the same number and size.
struct BenchInput {
    /// What it is and its size: all the report needs once the frames are released.
    let summary: InputSummary
    /// `summary.frameCount` frames of `width × height` bytes, row-major, no padding.
    let frames: [UInt8]
    /// The same frames as a gray (`Cmono`) YUV4MPEG2 file in the scratch folder.
    let y4mPath: String

    var frameSize: Int { summary.width * summary.height }
}

/// Why an input could not be prepared.
struct InputError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum Inputs {
    /// Renders the synthetic scene once into memory and writes its `.y4m` (30 fps).
    static func synthetic(scratch: String) throws -> BenchInput {
        let settings = SceneSettings(width: 1920, height: 1080, framesPerSecond: 30, frameCount: 120, seed: 1)
        let kind = SceneKind.mixed
        let scene = try SyntheticScene(kind: kind, settings: settings)
        let size = settings.width * settings.height
        let count = settings.frameCount
        let frames = [UInt8](unsafeUninitializedCapacity: size * count) { buffer, initialized in
            for i in 0..<count {
                scene.render(frame: i, into: UnsafeMutableBufferPointer(rebasing: buffer[(i * size)..<((i + 1) * size)]))
            }
            initialized = size * count
        }
        let y4m = scratch + "/synthetic.y4m"
        try writeY4M(frames, width: settings.width, height: settings.height, rate: "\(settings.framesPerSecond):1", to: y4m)
        let summary = InputSummary(
            kind: .synthetic, scene: kind.rawValue,
            source: "LumaSynth .\(kind.rawValue) \(settings.width)x\(settings.height) \(settings.framesPerSecond) fps, \(count) frames, seed \(settings.seed)",
            width: settings.width, height: settings.height, frameCount: count)
        return BenchInput(summary: summary, frames: frames, y4mPath: y4m)
    }

    /// Reads a real clip once into memory through `lumatrace record`'s own frame sources
    /// (`FrameSources.open`: ffmpeg for a video or a GIF, the image decoders for a folder), so the
    /// frames are exactly the luma a recording of the clip holds: a video's Y plane as coded, an
    /// RGB picture's luma as the recorder computes it. Writes the same frames as a gray `.y4m` for
    /// the peers. Returns `nil`, after saying why on standard error, when the clip is not in
    /// `dataDirectory`.
    static func clip(_ kind: InputKind, dataDirectory: String, scratch: String) throws -> BenchInput? {
        guard let relative = kind.relativePath else { preconditionFailure("\(kind) is not a clip") }
        let path = (dataDirectory as NSString).appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: path) else {
            log("skipping \(kind.rawValue): \(path) not found (pass --data DIR to point at the shared data folder)")
            return nil
        }
        var (source, _) = try FrameSources.open(path, output: scratch + "/\(kind.rawValue).luma", rate: nil, live: false, stop: StopFlag())
        let (width, height) = (source.header.width, source.header.height)
        let size = width * height
        var frames: [UInt8] = []
        if let expected = source.expectedFrameCount { frames.reserveCapacity(expected * size) }
        var frame = [UInt8](repeating: 0, count: size)
        while try frame.withUnsafeMutableBufferPointer({ try source.nextFrame(into: $0) }) != nil {
            frames.append(contentsOf: frame)
        }
        try source.finish()
        guard !frames.isEmpty else { throw InputError("\(path): no frames") }

        let y4m = scratch + "/\(kind.rawValue).y4m"
        try writeY4M(frames, width: width, height: height, rate: "\(source.header.rateNumerator):\(source.header.rateDenominator)", to: y4m)
        let summary = InputSummary(kind: kind, scene: nil, source: relative, width: width, height: height, frameCount: frames.count / size)
        return BenchInput(summary: summary, frames: frames, y4mPath: y4m)
    }

    /// Writes gray frames as YUV4MPEG2 (`Cmono`), the format `ffmpeg -f yuv4mpegpipe -pix_fmt gray` writes.
    static func writeY4M(_ frames: [UInt8], width: Int, height: Int, rate: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let file = FileHandle(forWritingAtPath: path) else {
            throw InputError("\(path): cannot create the .y4m file")
        }
        defer { try? file.close() }
        try file.write(contentsOf: Data("YUV4MPEG2 W\(width) H\(height) F\(rate) Ip A1:1 Cmono\n".utf8))
        let size = width * height
        let marker = Data("FRAME\n".utf8)
        try frames.withUnsafeBytes { all in
            for start in stride(from: 0, to: all.count, by: size) {
                try file.write(contentsOf: marker)
                try file.write(contentsOf: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: all.baseAddress! + start),
                                                count: size, deallocator: .none))
            }
        }
    }
}

/// Progress and notices, on standard error so `--json` keeps standard output machine-readable.
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
