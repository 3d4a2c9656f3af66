// libFuzzer target for the `.luma` recording reader: open (header, reference frame, index or
// recovery scan), decode every chunk, frame lookups by index and time, the frames digest, verify,
// and recovery into a second file, which must then open with an index and decode what it kept.
// Any error thrown is fine; a trap, a sanitizer report, a hang or a huge allocation is a finding.
// Build and run with `Fuzz/run FuzzRecording` (see Fuzz/README.md).
import FuzzSupport
import Glibc
import LumaFormat

private let inputPath = fuzzInputPath("luma")
private let recoveredPath = "/dev/shm/lumatrace-fuzz-\(getpid())-recovered.luma"


@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    writeFuzzInput(start, count, to: inputPath)
    guard let reader = try? RecordingReader(path: inputPath) else { return 0 }

    // Every chunk, then single frames and time lookups (which read one chunk's frame table).
    let decoder = reader.makeDecoder()
    for entry in reader.chunks {
        if let chunk = try? decoder.decode(entry) {
            precondition(chunk.count == entry.frameCount, "decoded \(chunk.count) frames, the entry says \(entry.frameCount)")
            for k in 0..<chunk.count { chunk.withFrame(k) { precondition($0.count == reader.header.frameSize) } }
            decoder.recycle(chunk)
        }
        _ = try? reader.frameIndex(atOrAfter: entry.firstTicks)
        _ = try? reader.frameIndex(atOrAfter: entry.lastTicks &+ 1)
    }
    for index in [0, reader.frameCount / 2, reader.frameCount - 1, reader.frameCount, -1] {
        _ = try? decoder.frame(at: index)
    }
    _ = try? reader.frameIndex(atOrAfter: .min)
    _ = try? reader.frameIndex(atOrAfter: .max)
    _ = try? reader.framesDigest()
    _ = reader.verify()

    // Recovery into a copy: what it keeps must open directly (with an index) and decode.
    if let report = try? RecordingRecovery.recover(inputPath, output: recoveredPath, overwrite: true) {
        do {
            let recovered = try RecordingReader(path: recoveredPath)
            precondition(recovered.hasIndex, "a recovered file has no usable index")
            precondition(recovered.readableFrameCount == report.framesKept,
                         "recovery kept \(report.framesKept) frames, the recovered file has \(recovered.readableFrameCount)")
            let again = recovered.makeDecoder()
            for entry in recovered.chunks { again.recycle(try again.decode(entry)) }
        } catch {
            fatalError("the recovered file does not read back: \(error)")
        }
    }
    return 0
}
