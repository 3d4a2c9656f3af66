import Foundation
import LumaFormat

/// Wall-clock timing on `ContinuousClock` (monotonic; includes time the process is not scheduled,
/// which is why every measurement is repeated and reported as a median).
enum Stopwatch {
    /// Seconds elapsed since `start`.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// Seconds `body` takes.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return seconds(since: start)
    }
}

/// The median of `samples` (mean of the two middle ones for an even count).
func median(_ samples: [Double]) -> Double {
    precondition(!samples.isEmpty, "median of no samples")
    let sorted = samples.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Why a Lumatrace measurement is not trustworthy: the recording did not give back the frames.
struct MeasureError: Error, CustomStringConvertible {
    var description: String
}

/// The single-threaded Lumatrace measurements, and the memcpy baseline they are compared with.
enum LumatraceMeasure {
    /// Recordings use the 90 kHz timescale and frame `i` is stamped `i × 3000` ticks (30 fps),
    /// whatever the clip's own rate: timing does not change how frames are coded.
    static let timescale: Int64 = 90_000
    static let ticksPerFrame: Int64 = 3_000

    /// Copies every frame, one `update(from:)` per frame, into `destination`, a buffer of the
    /// same total size allocated and written once beforehand (so no page faults are timed).
    /// Returns the seconds the copies take.
    static func memcpy(_ input: BenchInput, into destination: inout [UInt8]) -> Double {
        precondition(destination.count == input.summary.rawBytes, "memcpy destination must hold every frame")
        let size = input.frameSize
        let seconds = input.frames.withUnsafeBufferPointer { source in
            destination.withUnsafeMutableBufferPointer { target in
                Stopwatch.seconds {
                    for start in stride(from: 0, to: source.count, by: size) {
                        (target.baseAddress! + start).update(from: source.baseAddress! + start, count: size)
                    }
                }
            }
        }
        precondition(destination[destination.count - 1] == input.frames[input.summary.rawBytes - 1], "memcpy copied wrong bytes")
        return seconds
    }

    /// Records every frame to a new file at `path` (replacing any earlier run's file), `close()`
    /// included. Returns the seconds and what the writer reports about the file.
    static func record(_ input: BenchInput, to path: String, options: RecordingWriterOptions) throws -> (seconds: Double, summary: RecordingSummary) {
        try? FileManager.default.removeItem(atPath: path)
        let header = RecordingHeader(width: input.summary.width, height: input.summary.height, timescale: timescale, rateNumerator: 30,
                                     metadata: ["source": input.summary.source])
        let size = input.frameSize
        var summary: RecordingSummary?
        let seconds = try input.frames.withUnsafeBufferPointer { frames in
            try Stopwatch.seconds {
                let writer = try RecordingWriter(path: path, header: header, options: options)
                for i in 0..<input.summary.frameCount {
                    try writer.append(pixels: UnsafeBufferPointer(rebasing: frames[(i * size)..<((i + 1) * size)]),
                                      ticks: Int64(i) * ticksPerFrame)
                }
                summary = try writer.close()
            }
        }
        return (seconds, summary!)
    }

    /// Opens the recording and decodes every chunk with one `ChunkDecoder`, reading one byte of
    /// every frame so the work cannot be skipped. Returns the seconds and the sum of those bytes,
    /// which must equal `probeSum(input)`.
    static func decode(_ path: String) throws -> (seconds: Double, probe: Int) {
        var probe = 0
        let seconds = try Stopwatch.seconds {
            let reader = try RecordingReader(path: path)
            let decoder = reader.makeDecoder()
            for entry in reader.chunks {
                let chunk = try decoder.decode(entry)
                for k in 0..<chunk.count {
                    let frame = entry.firstFrame + k
                    probe &+= chunk.withFrame(k) { Int($0[probeOffset(frame: frame, frameSize: $0.count)]) }
                }
                decoder.recycle(chunk)  // as a replay does: the next chunk decodes into this memory
            }
        }
        return (seconds, probe)
    }

    /// The byte of frame `frame` that `decode` reads: a different place in every frame.
    static func probeOffset(frame: Int, frameSize: Int) -> Int { (frame &* 2_654_435_761) % frameSize }

    /// What `decode` must return as `probe` for a recording of `input`.
    static func probeSum(_ input: BenchInput) -> Int {
        (0..<input.summary.frameCount).reduce(0) { $0 &+ Int(input.frames[$1 * input.frameSize + probeOffset(frame: $1, frameSize: input.frameSize)]) }
    }

    /// Decodes the whole recording once (untimed) and checks that it holds exactly the input's
    /// frames, byte for byte, with the timestamps `record` gave them.
    static func verifyLossless(_ path: String, input: BenchInput) throws {
        let reader = try RecordingReader(path: path)
        guard reader.frameCount == input.summary.frameCount, reader.readableFrameCount == input.summary.frameCount else {
            throw MeasureError(description: "\(path): holds \(reader.readableFrameCount) readable frames of \(reader.frameCount), recorded \(input.summary.frameCount)")
        }
        let decoder = reader.makeDecoder()
        let size = input.frameSize
        try input.frames.withUnsafeBufferPointer { original in
            for entry in reader.chunks {
                let chunk = try decoder.decode(entry)
                for k in 0..<chunk.count {
                    let i = entry.firstFrame + k
                    guard chunk.timestamps[k] == Int64(i) * ticksPerFrame else {
                        throw MeasureError(description: "\(path): frame \(i) has timestamp \(chunk.timestamps[k]), recorded \(Int64(i) * ticksPerFrame)")
                    }
                    let same = chunk.withFrame(k) { decoded in
                        decoded.count == size && memcmp(decoded.baseAddress!, original.baseAddress! + i * size, size) == 0
                    }
                    guard same else { throw MeasureError(description: "\(path): frame \(i) decodes to different pixels than were recorded (not lossless)") }
                }
            }
        }
    }
}
