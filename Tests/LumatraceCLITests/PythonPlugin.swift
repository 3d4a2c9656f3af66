import Foundation

/// Python programs that speak the external analyzer's protocol, for tests: the handshake and the
/// frame loop are written once here; a test gives only what the program does at each frame.
enum PythonPlugin {
    /// Writes `name`.py into `dir` and returns the command that runs it. `perFrame` is Python run
    /// after each frame's pixels are read, before `{"done": index}` is answered, with `index` (the
    /// frame) in scope; it may print event lines, misbehave or exit. `imports` are the modules it
    /// needs besides json, struct and sys.
    static func write(_ name: String, in dir: String, imports: [String] = [], perFrame: String) throws -> String {
        let path = "\(dir)/\(name).py"
        let body = perFrame.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        try """
            import \((["json", "struct", "sys"] + imports).joined(separator: ", "))
            stdin = sys.stdin.buffer
            json.loads(stdin.readline())
            print(json.dumps({"ready": True}), flush=True)
            while True:
                magic, w, h, _, index, ticks, scale = struct.unpack("<4sIIIqqq", stdin.read(40))
                if magic == b"LTEN":
                    print(json.dumps({"done": "end"}), flush=True)
                    break
                stdin.read(w * h)
            \(body)
                print(json.dumps({"done": index}), flush=True)

            """.write(toFile: path, atomically: true, encoding: .utf8)
        return "python3 \(path)"
    }
}
