import Foundation
import LumaTestSupport
import Testing

/// Boxes a well-behaved analyzer never emits, from an external analyzer: one id placed twice in a
/// frame is refused where it enters (replay, diff), and boxes of no area equal themselves in
/// `diff` and `regress` (issue 56, M1 and M2).
@Suite("Odd boxes end to end: a repeated id stops the replay and diff; empty boxes are unchanged under regress")
struct OddBoxTests {
    static let toss = PackageLayout.recordings.appendingPathComponent("toss-real.luma").path

    /// An external analyzer that emits, on every frame, a `obj` box of `id` at each of `boxes`.
    static func program(boxes: [[Double]], id: String = "a") -> String {
        """
        import json, struct, sys
        def send(o): sys.stdout.write(json.dumps(o) + "\\n"); sys.stdout.flush()
        json.loads(sys.stdin.readline())
        send({"ready": True, "events": [{"kind": "obj", "version": 1, "shape": "box"}]})
        while True:
            magic, w, h, _, index, _, _ = struct.unpack("<4sIIIqqq", sys.stdin.buffer.read(40))
            if magic == b"LTEN": send({"done": "end"}); break
            sys.stdin.buffer.read(w * h)
            for box in \(boxes):
                send({"kind": "obj", "data": {"id": "\(id)", "boundingBox": box, "confidence": 0.9}})
            send({"done": index})

        """
    }

    @Test("an analyzer that places one id twice in a frame stops the replay, naming the frame, analyzer, kind and id")
    func repeatedIdStopsReplay() throws {
        try withScratchFolder("cli") { dir in
            try Self.program(boxes: [[0.1, 0.4, 0.2, 0.2], [0.6, 0.4, 0.2, 0.2]]).write(toFile: "\(dir)/dupbox.py", atomically: true, encoding: .utf8)
            let r = try CLI.run(["replay", Self.toss, "--analyzer", "external", "--set", "external.command=python3 dupbox.py", "-o", "dupbox.events.jsonl"], cwd: dir)
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.contains("frame 0") && r.stderr.contains("external")
                    && r.stderr.contains("emitted two 'obj' events with the id \"a\" in one frame: one id names one object, which is in one place per frame"),
                    "\(r.stderr)")
        }
    }

    @Test("a log whose boxes have no area (zero, negative, subnormal) is unchanged under diff and regress")
    func emptyBoxesUnchanged() throws {
        for box in [[0.5, 0.5, 0, 0], [0.5, 0.5, -0.4, -0.4], [0.5, 0.5, 5e-324, 5e-324]] {
            try withScratchFolder("cli") { dir in
                try Self.program(boxes: [box], id: "obj-0").write(toFile: "\(dir)/boxes.py", atomically: true, encoding: .utf8)
                try FileManager.default.copyItem(atPath: Self.toss, toPath: "\(dir)/toss-real.luma")
                let replay = try CLI.run(["replay", "toss-real.luma", "--analyzer", "external", "--set", "external.command=python3 boxes.py",
                                          "-o", "toss-real.events.jsonl"], cwd: dir)
                #expect(replay.status == 0, "\(replay.stderr)")
                let diff = try CLI.run(["diff", "toss-real.events.jsonl", "toss-real.events.jsonl"], cwd: dir)
                #expect(diff.status == 0 && diff.stdout.contains("same"), "\(box): \(diff.stdout)\(diff.stderr)")
                let regress = try CLI.run(["regress", ".", "--allow-external"], cwd: dir)
                #expect(regress.status == 0 && regress.stdout.contains("1 recording: 1 unchanged"), "\(box): \(regress.stdout)\(regress.stderr)")
            }
        }
    }
}
