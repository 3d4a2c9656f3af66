import Foundation
import LumaBase
import LumaFormat
import Testing
import LumaTestSupport

@Suite("Y4M input: every 8-bit layout ffmpeg writes, the Y plane kept")
struct Y4MTests {
    static func stream(_ header: String, frames: [[UInt8]], trailing: Int) -> [UInt8] {
        var bytes = Array((header + "\n").utf8)
        for f in frames {
            bytes += Array("FRAME\n".utf8) + f + [UInt8](repeating: 128, count: trailing)
        }
        return bytes
    }

    static func read(_ bytes: [UInt8]) throws -> (Y4MStreamInfo, [[UInt8]]) {
        let path = Scratch.path("in.y4m")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try Y4MReader(stream: ByteStream.open(path))
        var frames: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: reader.info.width * reader.info.height)
        while try buffer.withUnsafeMutableBufferPointer({ try reader.readFrame(into: $0) }) { frames.append(buffer) }
        return (reader.info, frames)
    }

    @Test("colour layouts: chroma planes of the right size are skipped", arguments: [
        ("mono", 0), ("420jpeg", 2 * 3 * 2), ("420paldv", 12), ("420mpeg2", 12), ("420", 12), ("411", 2 * 2 * 3),
        ("422", 2 * 3 * 3), ("444", 2 * 5 * 3), ("444alpha", 3 * 5 * 3),
    ])
    func layouts(tag: String, trailing: Int) throws {
        let f1 = (0..<15).map { UInt8($0) }, f2 = (0..<15).map { UInt8(200 - $0) }
        let (info, frames) = try Self.read(Self.stream("YUV4MPEG2 W5 H3 F30000:1001 It A1:1 C\(tag) XYSCSS=420JPEG", frames: [f1, f2], trailing: trailing))
        #expect(info.trailingPlaneBytes == trailing)
        #expect(info.rateNumerator == 30000 && info.rateDenominator == 1001)
        #expect(info.interlacing == "t")
        #expect(info.extensions == ["YSCSS=420JPEG"])
        #expect(frames == [f1, f2])
    }

    @Test("no C tag means 420jpeg")
    func defaultLayout() throws {
        let (info, frames) = try Self.read(Self.stream("YUV4MPEG2 W4 H2 F25:1", frames: [[UInt8](repeating: 9, count: 8)], trailing: 4))
        #expect(info.colorspace == "420jpeg")
        #expect(frames.count == 1)
    }

    @Test("high bit depths are refused with the conversion to use")
    func highBitDepth() throws {
        for tag in ["420p10", "mono16", "444p12"] {
            let e = formatError { _ = try Self.read(Self.stream("YUV4MPEG2 W4 H2 F25:1 C\(tag)", frames: [], trailing: 0)) }
            #expect(e?.description.contains("high-bit-depth") == true && e?.description.contains("extractplanes=y -pix_fmt gray") == true)
        }
    }

    @Test("a frame shorter than declared is an error naming the frame")
    func shortFrame() throws {
        var bytes = Self.stream("YUV4MPEG2 W4 H2 F25:1 Cmono", frames: [[UInt8](repeating: 1, count: 8)], trailing: 0)
        bytes += Array("FRAME\n".utf8) + [1, 2, 3]
        let e = formatError { _ = try Self.read(bytes) }
        #expect(e?.description.contains("frame 1: frame is shorter than declared: the stream ends after 3 of 8 bytes") == true, "\(String(describing: e))")
    }

    @Test("garbage, missing sizes and bad rates are refused")
    func badHeaders() throws {
        for header in ["MPEG W4 H2", "YUV4MPEG2 H2 F25:1", "YUV4MPEG2 W4 H2 F25:0", "YUV4MPEG2 W99999 H2", "YUV4MPEG2 W4 H2 Q7"] {
            #expect(throws: LumaFormatError.self, "\(header)") { _ = try Self.read(Array((header + "\n").utf8)) }
        }
        #expect(throws: LumaFormatError.self) { _ = try Self.read([UInt8](repeating: 65, count: 10_000)) }
    }
}

@Suite("Timestamps print exactly")
struct TimestampTests {
    @Test func fixedDecimals() {
        #expect(Timestamp(ticks: 1, timescale: 30).fixedDecimalSeconds() == "0.033333")
        #expect(Timestamp(ticks: 2, timescale: 30).fixedDecimalSeconds() == "0.066667")
        #expect(Timestamp(ticks: 1001, timescale: 30000).fixedDecimalSeconds() == "0.033367")
        #expect(Timestamp(ticks: -1, timescale: 3).fixedDecimalSeconds() == "-0.333333")
        #expect(Timestamp(ticks: 0, timescale: 7).fixedDecimalSeconds() == "0.000000")
        #expect(Timestamp(ticks: Int64.max, timescale: 1_000_000_000).fixedDecimalSeconds() == "9223372036.854776")
        #expect(Timestamp(ticks: 1, timescale: 3) < Timestamp(ticks: 1, timescale: 2))
    }
}
