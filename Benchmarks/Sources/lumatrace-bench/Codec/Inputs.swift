import Foundation
import LumaSynth

/// The clips the benchmark measures, in the order they run.
enum InputKind: String, CaseIterable, Sendable {
    /// A 1920x1080 synthetic scene from LumaSynth (`.mixed`, 120 frames, seed 1), rendered in memory.
    case synthetic
    /// `opencv-vtest-pedestrians/vtest.avi` from the shared data folder (768x576 pedestrians).
    case vtest
    /// `cdnet-highway-bgslibrary/video03.avi` from the shared data folder (320x240 highway).
    case cdnet

    /// Where a real clip lives inside the data folder; `nil` for the synthetic scene.
    var relativePath: String? {
        switch self {
        case .synthetic: return nil
        case .vtest: return "opencv-vtest-pedestrians/vtest.avi"
        case .cdnet: return "cdnet-highway-bgslibrary/video03.avi"
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

    /// Decodes a real clip once to gray frames in memory (ffmpeg, every frame passed through) and
    /// once to a gray `.y4m`. Returns `nil`, after saying why on standard error, when the clip is
    /// not in `dataDirectory`.
    ///
    /// The frames are the clip's Y plane as coded (`-vf extractplanes=y`), what `lumatrace record`
    /// stores (LumatraceCLI's `VideoSource`), not ffmpeg's conversion to full-range gray: the
    /// benchmark measures the frames a recording really holds.
    static func clip(_ kind: InputKind, dataDirectory: String, scratch: String, tools: FFmpegTools) throws -> BenchInput? {
        guard let relative = kind.relativePath else { preconditionFailure("\(kind) is not a clip") }
        let path = (dataDirectory as NSString).appendingPathComponent(relative)
        guard FileManager.default.isReadableFile(atPath: path) else {
            log("skipping \(kind.rawValue): \(path) not found (pass --data DIR to point at the shared data folder)")
            return nil
        }

        let probe = try tools.run(tools.ffprobe, ["-v", "error", "-select_streams", "v:0",
                                                  "-show_entries", "stream=width,height", "-of", "csv=p=0:s=x", path])
        let fields = String(decoding: probe, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "x")
        guard fields.count == 2, let width = Int(fields[0]), let height = Int(fields[1]), width > 0, height > 0 else {
            throw InputError("\(path): ffprobe did not report a video size (got '\(String(decoding: probe, as: UTF8.self))')")
        }

        let decodeArguments = ["-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                               "-vf", "extractplanes=y", "-pix_fmt", "gray"]
        let raw = try tools.run(tools.ffmpeg, decodeArguments + ["-f", "rawvideo", "-"])
        let size = width * height
        guard !raw.isEmpty, raw.count % size == 0 else {
            throw InputError("\(path): ffmpeg produced \(raw.count) bytes, not a whole number of \(width)x\(height) frames")
        }
        let frames = [UInt8](raw)

        let y4m = scratch + "/\(kind.rawValue).y4m"
        _ = try tools.run(tools.ffmpeg, ["-y"] + decodeArguments + ["-f", "yuv4mpegpipe", y4m])
        let y4mFrames = try countY4MFrames(y4m, frameSize: size)
        guard y4mFrames == frames.count / size else {
            throw InputError("\(path): the .y4m for the peers holds \(y4mFrames) frames, the raw decode \(frames.count / size)")
        }
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

    /// Frames in a gray `.y4m` whose frame headers carry no parameters (as ffmpeg writes them).
    static func countY4MFrames(_ path: String, frameSize: Int) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let fileSize = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard let file = FileHandle(forReadingAtPath: path) else { throw InputError("\(path): cannot open the .y4m file") }
        defer { try? file.close() }
        let head = try file.read(upToCount: 4096) ?? Data()
        guard head.starts(with: Data("YUV4MPEG2 ".utf8)), let end = head.firstIndex(of: 0x0A),
              String(decoding: head[..<end], as: UTF8.self).contains(" Cmono") else {
            throw InputError("\(path): not a gray (Cmono) YUV4MPEG2 file")
        }
        let body = fileSize - (end - head.startIndex + 1)
        let perFrame = "FRAME\n".utf8.count + frameSize
        guard body % perFrame == 0 else { throw InputError("\(path): \(body) bytes of frames is not a whole number of \(perFrame)-byte frames") }
        return body / perFrame
    }
}

/// Progress and notices, on standard error so `--json` keeps standard output machine-readable.
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
