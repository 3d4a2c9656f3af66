import LumaFormat
import Testing
import LumaTestSupport

@Suite("ColorPNG: RGB pictures to PNG bytes and back through libpng")
struct ColorPNGTests {
    /// A 5×3 picture whose every byte differs from its neighbours'.
    static let rgb: [UInt8] = (0..<45).map { (index: Int) -> UInt8 in UInt8((index * 37 + 11) % 256) }

    @Test("A picture encoded and decoded is the same picture, at every compression level", arguments: [0, 6, 9])
    func roundTrip(level: Int) throws {
        let png = try ColorPNG.encode(rgb: Self.rgb, width: 5, height: 3, level: level)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try ColorPNG.decode(png)
        #expect(decoded.width == 5 && decoded.height == 3)
        #expect(decoded.rgb == Self.rgb)
    }

    @Test("A PNG read as colour is also the image decoder's PNG: its luma is the picture's grey")
    func sameOwnerBothWays() throws {
        let grey: [UInt8] = [0, 40, 80, 120, 160, 200]
        let png = try ColorPNG.encode(rgb: grey.flatMap { [$0, $0, $0] }, width: 3, height: 2, level: 6)
        let image = try ImageFileDecoder.decodeLuma(png, source: "grey.png")
        #expect(image.pixels == grey)
    }

    @Test("Bytes that are not a PNG are refused in libpng's words")
    func notAPNG() throws {
        let png = try ColorPNG.encode(rgb: Self.rgb, width: 5, height: 3, level: 6)
        let error = try #require(throws: ColorPNG.Failure.self) { try ColorPNG.decode(Array(png.prefix(20))) }
        #expect(!error.description.isEmpty)
        #expect(throws: ColorPNG.Failure.self) { try ColorPNG.decode([1, 2, 3]) }
    }
}
