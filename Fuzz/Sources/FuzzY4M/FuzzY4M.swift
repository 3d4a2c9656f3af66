// libFuzzer target for the Y4M reader (and the ByteStream under it): parse the stream header, then
// read frames into a buffer of the declared size until the end or an error, as `lumatrace record`
// does. Any error thrown is fine; a trap, a sanitizer report or a hang is a finding.
// Build and run with `Fuzz/run FuzzY4M` (see Fuzz/README.md).
import Glibc
import LumaFormat

/// One fixed input path per fuzzer process, in memory (/dev/shm).
private let inputPath = "/dev/shm/lumatrace-fuzz-\(getpid()).y4m"

/// Writes the fuzzer's bytes to `path`, replacing what was there.
private func write(_ start: UnsafeRawPointer, _ count: Int, to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fatalError("cannot create \(path): \(String(cString: strerror(errno)))") }
    var done = 0
    while done < count {
        let n = Glibc.write(fd, start + done, count - done)
        guard n > 0 else { fatalError("cannot write \(path): \(String(cString: strerror(errno)))") }
        done += n
    }
    close(fd)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    write(start, count, to: inputPath)
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
