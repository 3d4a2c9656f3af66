import Foundation
import Testing
import LumaTestSupport

/// Files and flags a hostile or careless user could give, built by hand: each must end in one
/// readable line naming the file or option and a non-zero exit: never a trap, a crash signal or a
/// huge allocation.
enum HostileInput {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings")
    static let ballsLuma = recordings.appendingPathComponent("balls-synth.luma").path
    static let ballsLog = recordings.appendingPathComponent("balls-synth.events.jsonl").path
    static let ballsTruth = recordings.appendingPathComponent("balls-synth.truth.json").path

    /// The golden log without its footer (so it needs no digest), with the first number of the
    /// first `trajectory.end` point replaced: `value` for its frame, or its x with `x: true`.
    static func log(pointValue value: String, x: Bool = false, in dir: String) throws -> String {
        var lines = try String(contentsOfFile: ballsLog, encoding: .utf8).split(separator: "\n").map(String.init)
        lines.removeLast()
        // The first event of that kind (the header names the kind too).
        let i = try #require(lines.indices.dropFirst().first { lines[$0].contains("\"kind\":\"trajectory.end\"") })
        let start = try #require(lines[i].range(of: "\"points\":[["))
        var rest = lines[i][start.upperBound...]
        if x { rest = rest[rest.index(after: try #require(rest.firstIndex(of: ",")))...] }
        let end = try #require(rest.firstIndex { $0 == "," || $0 == "]" })
        lines[i].replaceSubrange(rest.startIndex..<end, with: value)
        let path = "\(dir)/hostile-\(x ? "x" : "frame")-\(value).events.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// The toss golden whose header lists its first analyzer `count` times (as instances of it).
    static func log(analyzerCopies count: Int, in dir: String) throws -> String {
        var lines = try tossLines()
        var header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let first = try #require((header["analyzers"] as? [[String: Any]])?.first)
        header["analyzers"] = (0..<count).map { i in first.merging(["name": "d\(i)", "analyzer": first["name"]!]) { $1 } }
        lines[0] = String(decoding: try JSONSerialization.data(withJSONObject: header), as: UTF8.self)
        return try write(lines, to: "\(dir)/many-instances.events.jsonl")
    }

    /// The toss golden without its footer, its first `diff` event's blobs replaced by `blobs` (JSON).
    static func log(blobs: String, in dir: String) throws -> String {
        var lines = try tossLines()
        lines.removeLast()
        let i = try #require(lines.firstIndex { $0.contains("\"blobs\":[]") })
        lines[i] = lines[i].replacingOccurrences(of: "\"blobs\":[]", with: "\"blobs\":\(blobs)")
        return try write(lines, to: "\(dir)/bad-blobs.events.jsonl")
    }

    /// The lines of the toss golden (header, events, footer), to edit into a hostile log.
    static func tossLines() throws -> [String] {
        try String(contentsOfFile: recordings.appendingPathComponent("toss-real.events.jsonl").path, encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    /// Writes `lines` as a log at `path`; returns `path`.
    static func write(_ lines: [String], to path: String) throws -> String {
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// `CraftedBytes.hugeFrameClaims()` as a file.
    static func hugeClaims(in dir: String) -> String {
        let bytes = CraftedBytes.hugeFrameClaims()
        let path = "\(dir)/huge-claims.luma"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// A copy of a closed recording whose first chunk's first timestamp is `Int64.min`, its record
    /// CRC recomputed so only the value is wrong.
    static func minimumTicks(from source: String, in dir: String) throws -> String {
        let bytes = try #require(CraftedBytes.stampingFirstChunk(of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: source))), ticks: .min))
        let path = "\(dir)/minimum-ticks.luma"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

@Suite("Hostile values and sizes: a message and a non-zero exit, never a trap or a huge allocation")
struct HostileInputTests {
    /// Commands given hostile flags and files; each must fail (or, `succeeds`, pass) with the
    /// message on stderr, no crash, and at most `memory` MiB resident.
    struct Case: CustomStringConvertible {
        var arguments: [String]
        var message: String
        /// The exit status expected when the command reports on stdout instead of failing
        /// (`info` exits 1 on damage that lost frames, 2 when no frame is readable); `nil`: it fails
        /// with the message as one line on stderr.
        var status: Int32?
        var memory = 200.0
        var stdout: String?
        var description: String { arguments.joined(separator: " ") }
    }

    @Test("every hostile value and size gets one line naming it, a non-zero exit, and little memory")
    func table() throws {
        try withScratchFolder("cli") { dir in
            let luma = HostileInput.ballsLuma, log = HostileInput.ballsLog, truth = HostileInput.ballsTruth
            let frame300 = try HostileInput.log(pointValue: "1e300", in: dir)
            let frameMinus = try HostileInput.log(pointValue: "-1e300", in: dir)
            let frameInfinite = try HostileInput.log(pointValue: "1e999", in: dir)
            let x308 = try HostileInput.log(pointValue: "1e308", x: true, in: dir)
            let huge = HostileInput.hugeClaims(in: dir)
            let minimum = try HostileInput.minimumTicks(from: luma, in: dir)
            // A Y4M header of the largest legal size and no frame; one whose width overflows an Int.
            try "YUV4MPEG2 W16384 H16384 F30:1 Cmono\n".write(toFile: "\(dir)/frameless.y4m", atomically: false, encoding: .utf8)
            try "YUV4MPEG2 W99999999999999999999 H10 F30:1 Cmono\n".write(toFile: "\(dir)/wide.y4m", atomically: false, encoding: .utf8)
            // A tag with a carriage return and an escape character in it (found by the fuzzer): quoted, it must not break the line.
            try "YUV4MPEG2 W8 H8 F3\r\u{1B}:1 Cmono\n".write(toFile: "\(dir)/control.y4m", atomically: false, encoding: .utf8)
            // A symlink loop, and a 1 GiB log line (a sparse file: no newline, all zeros).
            try FileManager.default.createSymbolicLink(atPath: "\(dir)/loop.y4m", withDestinationPath: "\(dir)/loop.y4m")
            try FileManager.default.createSymbolicLink(atPath: "\(dir)/loop", withDestinationPath: "\(dir)/loop")
            _ = FileManager.default.createFile(atPath: "\(dir)/long-line.events.jsonl", contents: nil)
            let long = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(dir)/long-line.events.jsonl"))
            try long.truncate(atOffset: 1 << 30)
            try long.close()
            // A 2 GiB file (sparse) named where a small text file goes: refused by its size, never read.
            _ = FileManager.default.createFile(atPath: "\(dir)/huge.txt", contents: nil)
            let hugeText = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(dir)/huge.txt"))
            try hugeText.truncate(atOffset: 2 << 30)
            try hugeText.close()

            // The costliest lines to parse that are still short enough to be read: 4 MiB of `[0,0,…]`
            // and of `[[0],[0],…]`.
            let most = 4 << 20
            try ("[" + Array(repeating: "0", count: (most - 2) / 2).joined(separator: ",") + "]\n")
                .write(toFile: "\(dir)/numbers.events.jsonl", atomically: false, encoding: .utf8)
            try ("[" + Array(repeating: "[0]", count: (most - 2) / 4).joined(separator: ",") + "]\n")
                .write(toFile: "\(dir)/nested.events.jsonl", atomically: false, encoding: .utf8)

            let many = try HostileInput.log(analyzerCopies: 3000, in: dir)
            let badBlobs = try HostileInput.log(blobs: "[1,\"a\"]", in: dir)

            let cases: [Case] = [
                Case(arguments: ["replay", luma, "--from", "1e300s", "-o", "\(dir)/a.jsonl"], message: "--from 1e+300s: no frame at or after that time"),
                Case(arguments: ["replay", luma, "--to", "1e300s", "--analyzer", "differencing", "-o", "\(dir)/b.jsonl"], message: "replayed 90 frames", status: 0),
                Case(arguments: ["export", luma, "--format", "y4m", "--from", "1e19s", "-o", "\(dir)/c.y4m"], message: "--from 1e+19s: no frame at or after that time"),
                Case(arguments: ["render", luma, "--events", log, "--from", "1e300s", "-o", "\(dir)/frames/"], message: "--from 1e+300s: no frame"),
                Case(arguments: ["diff", log, frame300], message: "\(frame300):"),
                Case(arguments: ["diff", frameMinus, log], message: "point 1 has frame -1e+300, not a frame of the recording"),
                Case(arguments: ["diff", log, frameInfinite], message: "number 1e999 is out of range"),
                Case(arguments: ["diff", log, x308], message: "point 1 value 1e+308 is outside"),
                Case(arguments: ["score", frame300, "--truth", truth], message: "point 1 has frame 1e+300"),
                Case(arguments: ["score", x308, "--truth", truth], message: "point 1 value 1e+308"),
                Case(arguments: ["report", luma, "--events", frame300, "-o", "\(dir)/r.html"], message: "point 1 has frame 1e+300"),
                // Its index no longer matches the chunk, so the reader scans, and the scan refuses the chunk.
                Case(arguments: ["replay", minimum, "-o", "\(dir)/d.jsonl"], message: "the recording holds no readable frames"),
                Case(arguments: ["info", minimum], message: "a chunk header declares impossible frames or timestamps", status: 2),
                // Its one chunk cannot decode without the reference frame: no frame is readable (2).
                Case(arguments: ["info", huge], message: "both copies of the reference frame are damaged", status: 2),
                Case(arguments: ["replay", huge, "--analyzer", "differencing", "-o", "\(dir)/e.jsonl"], message: "huge-claims.luma"),
                Case(arguments: ["record", "\(dir)/frameless.y4m", "-o", "\(dir)/f.luma"], message: "frameless.y4m: no frames to record"),
                Case(arguments: ["record", "\(dir)/wide.y4m", "-o", "\(dir)/g.luma"], message: "W99999999999999999999 H10 is missing or outside"),
                Case(arguments: ["record", "\(dir)/control.y4m", "-o", "\(dir)/g.luma"], message: "frame rate tag 'F3\\r\\u{1B}:1' is not a positive fraction"),
                Case(arguments: ["record", "\(dir)/loop.y4m", "-o", "\(dir)/h.luma"], message: "Too many levels of symbolic links"),
                Case(arguments: ["record", "\(dir)/loop", "-o", "\(dir)/h.luma"], message: "loop: cannot open: Too many levels of symbolic links"),
                Case(arguments: ["info", "/dev/zero"], message: "/dev/zero: is a character device, not a recording"),
                Case(arguments: ["diff", "/dev/zero", log], message: "/dev/zero: is a character device, not an event log"),
                Case(arguments: ["score", log, "--truth", "/dev/zero"], message: "/dev/zero: is a character device, not a truth file"),
                Case(arguments: ["score", log, "--truth", "\(dir)/huge.txt"], message: "huge.txt: truth file is 2147483648 bytes, over the 67108864-byte limit"),
                Case(arguments: ["truth", "import", "otb", "\(dir)/huge.txt", "--size", "64x64", "-o", "\(dir)/i.truth.json"],
                     message: "huge.txt: is 2147483648 bytes, over the 67108864-byte limit (a label file is UTF-8 text"),
                Case(arguments: ["replay", luma, "--analyzer", "differencing", "--set", "differencing.threshold=@\(dir)/huge.txt", "-o", "\(dir)/j.jsonl"],
                     message: "--set differencing.threshold: '\(dir)/huge.txt': is 2147483648 bytes, over the 16777216-byte limit"),
                Case(arguments: ["replay", luma, "--analyzer", "differencing", "--set", "differencing.threshold=@/dev/zero", "-o", "\(dir)/k.jsonl"],
                     message: "--set differencing.threshold: '/dev/zero': is a character device"),
                Case(arguments: ["play", "/dev/zero"], message: "/dev/zero: is a character device, not an event log"),
                Case(arguments: ["play", "\(dir)/long-line.events.jsonl"], message: "long-line.events.jsonl:1: line is longer than 4 MiB"),
                Case(arguments: ["diff", "\(dir)/numbers.events.jsonl", log], message: "numbers.events.jsonl:1: not a Lumatrace event log"),
                Case(arguments: ["diff", "\(dir)/nested.events.jsonl", log], message: "nested.events.jsonl:1: not a Lumatrace event log"),
                Case(arguments: ["diff", "\(dir)/long-line.events.jsonl", log], message: "long-line.events.jsonl:1: line is longer than 4 MiB"),
                Case(arguments: ["info", luma], message: "cannot write to standard output: No space left on device", stdout: "/dev/full"),
                Case(arguments: ["recover", "http://127.0.0.1:9/x.luma"], message: "http://127.0.0.1:9/x.luma is a URL: recover rebuilds a file"),
                Case(arguments: ["export", luma, "--format", "y4m", "--timestamps", "\(dir)/same.y4m", "-o", "\(dir)/same.y4m"],
                     message: "-o \(dir)/same.y4m and --timestamps \(dir)/same.y4m name the same file"),
                Case(arguments: ["record", luma, "--analyzer", "differencing", "--events", "\(dir)/same.luma", "-o", "\(dir)/same.luma"],
                     message: "-o \(dir)/same.luma and --events \(dir)/same.luma name the same file"),
                Case(arguments: ["verify", many], message: "error: \(many): names 3000 analyzer instances, more than the limit of 64"),
                Case(arguments: ["diff", HostileInput.recordings.appendingPathComponent("toss-real.events.jsonl").path, badBlobs], message: "is not a Blobs (the shape its header gives it): blobs.[0] must be an object (found number)"),
                Case(arguments: ["new-analyzer", "--language", "python", "None", "--path", "\(dir)/none"], message: "'None' cannot name a Python analyzer: it is a Python constant"),
                Case(arguments: ["new-analyzer", "--language", "python", "ValueError", "--path", "\(dir)/value-error"],
                     message: "'ValueError' cannot name a Python analyzer: it would hide Python's built-in ValueError"),
                Case(arguments: ["new-analyzer", "--language", "python", "Event", "--path", "\(dir)/event"],
                     message: "'Event' cannot name a Python analyzer: the script imports Event from lumatrace.analyzer"),
            ]
            for c in cases {
                let r = try MeasuredRun.run(c.arguments, stdout: c.stdout)
                #expect(!r.crashed, "\(c): crashed (status \(String(describing: r.status)), signal \(String(describing: r.signal))): \(r.stderr)")
                if let status = c.status {
                    #expect(r.status == status, "\(c): \(r.stderr)")
                    #expect((r.stdout + r.stderr).contains(c.message), "\(c): \(r.stdout)\(r.stderr)")
                } else {
                    #expect(r.status != 0 && r.status != nil, "\(c): exited 0")
                    #expect(r.stderr.contains(c.message), "\(c): \(r.stderr)")
                    #expect(r.stderr.split(separator: "\n").count == 1, "\(c): not one line: \(r.stderr)")
                }
                #expect(r.maxResidentMiB < c.memory, "\(c): \(r.maxResidentMiB) MiB resident")
            }
        }
    }
}
