// libFuzzer target for truth files (`GroundTruth.read`: JSON decoding and the consistency checks),
// then the check against a recording. Any error thrown is fine; a trap, a sanitizer report or a
// hang is a finding. Build and run with `Fuzz/run FuzzTruth` (see Fuzz/README.md).
import FuzzSupport
import Glibc
import LumaTruth

private let inputPath = fuzzInputPath("truth.json")


@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    writeFuzzInput(start, count, to: inputPath)
    guard let truth = try? GroundTruth.read(inputPath) else { return 0 }
    _ = truth.canonicalJSON()
    _ = try? truth.check(againstFrames: truth.frames, width: truth.width, height: truth.height, path: inputPath)
    _ = try? truth.check(againstFrames: 10, width: 640, height: 480, path: inputPath)
    return 0
}
