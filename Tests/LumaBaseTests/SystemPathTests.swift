import Testing
import LumaBase

@Suite("SystemPath: any file name's bytes survive a trip through a String")
struct SystemPathTests {
    func roundTrip(_ bytes: [UInt8]) -> [UInt8] {
        SystemPath.bytes(SystemPath.string(fromBytes: bytes)).dropLast().map { UInt8(bitPattern: $0) }
    }

    @Test func validUTF8IsUntouched() {
        for name in ["clip.luma", "café.luma", "日本語/ビデオ.luma", "🎥.luma", ""] {
            #expect(SystemPath.string(fromBytes: Array(name.utf8)) == name)
            #expect(roundTrip(Array(name.utf8)) == Array(name.utf8))
        }
    }

    @Test func invalidBytesRoundTripAndDisplayAsHex() {
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".luma".utf8)
        let name = SystemPath.string(fromBytes: latin1)
        #expect(roundTrip(latin1) == latin1)
        #expect(SystemPath.display(name) == "caf\\xE9.luma")
        #expect(SystemPath.hasEscapedBytes(name))
    }

    @Test("every byte sequence round-trips, including overlongs, surrogates and the escapes' own UTF-8")
    func everySequenceRoundTrips() {
        let tricky: [[UInt8]] = [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xEF, 0x9F, 0xA9], [0xFF, 0xFE],
                                 [0xE2, 0x82], [0x80], [0xF0, 0x9F, 0x8E]]
        for t in tricky { #expect(roundTrip(t) == t, "\(t)") }
        var state: UInt64 = 0x1234_5678
        for _ in 0..<2000 {
            let bytes = (0..<Int(state % 12 + 1)).map { _ -> UInt8 in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 33) | 1  // no NUL: file names cannot hold one
            }
            #expect(roundTrip(bytes) == bytes, "\(bytes)")
        }
    }
}
