// libFuzzer target for truth files (`GroundTruth.read`: JSON decoding and the consistency checks),
// then the check against a recording. Any error thrown is fine; a trap, a sanitizer report or a
// hang is a finding. Build and run with `Fuzz/run FuzzTruth` (see Fuzz/README.md).
import Glibc
import LumaTruth

/// One fixed input path per fuzzer process, in memory (/dev/shm).
private let inputPath = "/dev/shm/lumatrace-fuzz-\(getpid()).truth.json"

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
    guard let truth = try? GroundTruth.read(inputPath) else { return 0 }
    _ = truth.canonicalJSON()
    _ = try? truth.check(againstFrames: truth.frames, width: truth.width, height: truth.height, path: inputPath)
    _ = try? truth.check(againstFrames: 10, width: 640, height: 480, path: inputPath)
    return 0
}
