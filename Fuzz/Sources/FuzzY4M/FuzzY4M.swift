// libFuzzer target for the Y4M reader (and the ByteStream under it): parse the stream header, then
// read frames into a buffer of the declared size until the end or an error, as `lumatrace record`
// does. Any error thrown is fine; a trap, a sanitizer report or a hang is a finding.
// Build and run with `Fuzz/run FuzzY4M` (see Fuzz/README.md).
import FuzzSupport
import Glibc
import LumaFormat

/// One fixed input path per fuzzer process, in memory (/dev/shm).
private let inputPath = fuzzInputPath("y4m")


@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    writeFuzzInput(start, count, to: inputPath)
    guard let stream = try? ByteStream.open(inputPath), let reader = try? Y4MReader(stream: stream) else { return 0 }
    let info = reader.info
    precondition((1...RecordingHeader.maximumDimension).contains(info.width) && (1...RecordingHeader.maximumDimension).contains(info.height))
    precondition(info.trailingPlaneBytes >= 0)
    // Not zero-filled: the reader writes every byte of a frame it returns (ASan would not notice
    // an uninitialized read, but the buffer is never read here).
    var pixels = [UInt8](unsafeUninitializedCapacity: info.width * info.height) { _, n in n = info.width * info.height }
    var frames = 0
    while (try? pixels.withUnsafeMutableBufferPointer({ try reader.readFrame(into: $0) })) == true {
        frames += 1
        precondition(reader.framesRead == frames)
    }
    return 0
}
