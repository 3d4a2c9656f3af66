import Foundation
import LumaFormat
import Testing
import LumaTestSupport

@Suite("lumatrace recover never destroys what it reads")
struct RecoverCommandTests {
    /// Runs `body` in a scratch folder holding a 40-frame recording in chunks of 5 frames, with its path.
    static func withRecording<T>(version: Int = 2, _ body: (_ dir: String, _ path: String) throws -> T) throws -> T {
        try CLI.withRecording(width: 48, height: 32, count: 40, options: ["--chunk-seconds", "0.16", "--format-version", "\(version)"]) { dir in
            try body(dir, "\(dir)/r.luma")
        }
    }

    @Test("recover X -o X --force is refused, also through a symlink, and X keeps every byte", arguments: ["r.luma", "link.luma", "./r.luma"])
    func outputIsInput(_ output: String) throws {
        try Self.withRecording { dir, path in
            try? FileManager.default.createSymbolicLink(atPath: "\(dir)/link.luma", withDestinationPath: "r.luma")
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let r = try CLI.run(["recover", "r.luma", "-o", output, "--force"], cwd: dir)
            #expect(r.status != 0)
            #expect(r.stderr.contains("is the recording r.luma itself"), "\(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test("info says which format version a file is", arguments: [1, 2])
    func infoShowsVersion(_ version: Int) throws {
        try Self.withRecording(version: version) { dir, _ in
            let r = try CLI.run(["info", "r.luma"], cwd: dir)
            #expect(r.stdout.contains("format        .luma version \(version)"), "\(r.stdout)")
            let json = try CLI.run(["info", "r.luma", "--json"], cwd: dir)
            #expect(json.stdout.contains("\"formatVersion\":\(version)"), "\(json.stdout)")
        }
    }

    @Test("a v1 file with both reference copies zeroed: recover exits non-zero, says what it could keep, and leaves the file alone")
    func refusesToShrink() throws {
        try Self.withRecording(version: 1) { dir, path in
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let first = try RecordingReader(path: path).chunks[0].offset
            let headerEnd = 16 + (Int(bytes[4]) | Int(bytes[5]) << 8) + 4
            for i in headerEnd..<Int(first) { bytes[i] = 0 }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let r = try CLI.run(["recover", "r.luma"], cwd: dir)
            #expect(r.status != 0)
            #expect(r.stderr.contains("not recovered, the file is left untouched") && r.stderr.contains("both copies of the reference frame"), "\(r.stderr)")
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
        }
    }

    @Test("a v2 file whose header has a flipped bit: info reads every frame, recover restores the header")
    func headerRestored() throws {
        try Self.withRecording { dir, path in
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            var bytes = original
            bytes[20] ^= 0x04
            try bytes.write(to: URL(fileURLWithPath: path))
            let info = try CLI.run(["info", "r.luma"], cwd: dir)
            #expect(info.status == 0 && info.stdout.contains("frames        40\n"), "\(info.stdout)\(info.stderr)")
            let r = try CLI.run(["recover", "r.luma"], cwd: dir)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("restored: the file header"), "\(r.stdout)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        }
    }
}
