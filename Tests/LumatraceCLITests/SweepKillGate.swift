import Foundation
import LumaTestSupport

/// A point where a sweep waits until the test has killed it, so that a test kills a sweep between
/// two recordings on any machine, however busy: no race between the kill and the sweep's next
/// store of scores.
///
/// The sweep's grid runs an external analyzer (`gate.py`) four times, with four timeouts. While
/// the gate is armed and the first recording's scores are stored, the program says so (the file
/// ``blocked`` appears) and then never answers its hello; the test waits for that file and kills
/// the sweep, which ends the program with it. Disarmed, the program answers every frame and emits
/// nothing, so a sweep never stopped and a resumed one give the same outputs.
struct SweepKillGate {
    /// The `sweep` arguments that choose the gated analyzer: its `--grid` and `--set` flags.
    let arguments: [String]
    /// Present while the gate is armed.
    let armed: String
    /// Appears when a program of the sweep waits at the gate.
    let blocked: String

    /// A gate that closes once `firstScores` (the first recording's stored scores) exists.
    init(in dir: String, firstScores: String) throws {
        _ = try ExternalTool.python3.require()
        armed = dir + "/gate.armed"
        blocked = dir + "/gate.blocked"
        let script = dir + "/gate.py"
        try Data("""
            import json, os, struct, sys, time
            first_scores, armed, blocked = sys.argv[1:4]
            sys.stdin.buffer.readline()
            if os.path.exists(armed) and os.path.exists(first_scores):
                open(blocked, "a").close()
                while True:
                    time.sleep(60)  # the test kills the sweep here, and this program with it
            print(json.dumps({"ready": True}), flush=True)
            while True:
                magic, width, height, _, index, _, _ = struct.unpack("<4sIIIqqq", sys.stdin.buffer.read(40))
                if magic == b"LTEN":
                    print(json.dumps({"done": "end"}), flush=True)
                    sys.exit(0)
                sys.stdin.buffer.read(width * height)
                print(json.dumps({"done": index}), flush=True)

            """.utf8).write(to: URL(fileURLWithPath: script))
        arguments = ["--grid", "external.timeout=100,200,300,400", "--set", "external.command=python3 '\(script)' '\(firstScores)' '\(armed)' '\(blocked)'",
                     "--set", "external.startTimeout=3600"]
    }

    func arm() throws { try Data().write(to: URL(fileURLWithPath: armed)) }
    func disarm() throws { try FileManager.default.removeItem(atPath: armed) }
}
