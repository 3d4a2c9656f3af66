import Foundation
import Testing
import LumaTestSupport
@testable import ExternalAnalyzer

/// How the external analyzer splits a program's stdout into lines: linear time, bounded memory.
@Suite("The external analyzer's line reader")
struct ExternalLineBufferTests {
    /// Feeds `text` in chunks of `size` bytes, collecting every line as soon as it is complete.
    static func lines(of text: [UInt8], chunk size: Int, maximum: Int = 1 << 20) throws -> [String] {
        var buffer = LineBuffer(maximumLineBytes: maximum)
        var out: [String] = []
        var offset = 0
        while offset < text.count {
            let end = min(offset + size, text.count)
            text[offset..<end].withUnsafeBytes { buffer.append($0) }
            offset = end
            while let line = try buffer.nextLine() { out.append(String(decoding: line, as: UTF8.self)) }
        }
        return out
    }

    @Test("lines come out whole and in order, however the bytes arrive; an unfinished line waits")
    func splitting() throws {
        let text = Array("{\"a\":1}\n\n{\"b\":22}\n{\"c\":333}\nunfinished".utf8)
        for size in [1, 2, 3, 7, 64, 1 << 16] {
            #expect(try Self.lines(of: text, chunk: size) == ["{\"a\":1}", "", "{\"b\":22}", "{\"c\":333}"], "chunks of \(size)")
        }
        let many = Array(String(repeating: "0123456789\n", count: 20_000).utf8)
        let lines = try Self.lines(of: many, chunk: 1 << 16)
        #expect(lines.count == 20_000 && lines.allSatisfy { $0 == "0123456789" })
    }

    @Test("a line longer than the bound is refused, finished or not, before more than a chunk past the bound is held")
    func bound() throws {
        #expect(try Self.lines(of: Array(String(repeating: "x", count: 1024).utf8) + [10], chunk: 100, maximum: 1024).count == 1)
        #expect(throws: LineBuffer.LineTooLong.self) {
            try Self.lines(of: Array(String(repeating: "x", count: 1025).utf8) + [10], chunk: 1 << 16, maximum: 1024)
        }
        var buffer = LineBuffer(maximumLineBytes: 4096)
        let chunk = [UInt8](repeating: 120, count: 1000)
        var refusedAt: Int?
        for _ in 1...100 where refusedAt == nil {
            chunk.withUnsafeBytes { buffer.append($0) }
            do { _ = try buffer.nextLine() } catch { refusedAt = buffer.pendingCount }
        }
        #expect(refusedAt == 5000)
    }

    @Test("a 64 MiB line arriving in 64 KiB pieces is read in linear time (each byte searched once)")
    func linearTime() throws {
        let line = [UInt8](repeating: 120, count: 64 << 20) + [10]
        let (lines, used) = try ThreadCPUTime.measure { try Self.lines(of: line, chunk: 1 << 16, maximum: 128 << 20) }
        #expect(lines.map(\.utf8.count) == [64 << 20])
        // Rescanning the buffer on each read would search 1024 × 32 MiB on average: 32 GiB, minutes
        // of work. Processor time, which a busy machine does not stretch.
        #expect(used < .seconds(5), "\(used) of processor time")
    }
}
