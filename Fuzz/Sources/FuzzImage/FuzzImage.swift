// libFuzzer target for the image-file decoder: PGM (P5 and P2), PNG (libpng) and JPEG (libjpeg),
// chosen by magic bytes, from memory and through the file reader. Any error thrown is fine; a trap,
// a sanitizer report, a hang or a huge allocation is a finding.
// Build and run with `Fuzz/run FuzzImage` (see Fuzz/README.md).
import FuzzSupport
import Glibc
import LumaFormat

private let inputPath = fuzzInputPath("img")


@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let fromMemory = Result { () throws(ImageDecodingError) in try ImageFileDecoder.decodeLuma(bytes, source: "fuzz") }
    if case .success(let image) = fromMemory {
        precondition(image.width >= 1 && image.height >= 1 && image.pixels.count == image.width * image.height,
                     "\(image.width)x\(image.height) image with \(image.pixels.count) pixels")
    }
    // The same bytes through the file reader must give the same answer.
    writeFuzzInput(start, count, to: inputPath)
    let fromFile = Result { () throws(ImageDecodingError) in try ImageFileDecoder.decodeLuma(contentsOf: inputPath) }
    switch (fromMemory, fromFile) {
    case (.success(let a), .success(let b)): precondition(a == b, "the file reader decodes differently")
    case (.failure(let a), .failure(let b)): precondition(a.problem == b.problem, "different errors: \(a.reason) / \(b.reason)")
    default: preconditionFailure("decoding from memory and from the file disagree")
    }
    return 0
}
