import LumaEngine

/// Options of the ``ExternalAnalyzer``: which program to run and what to tell it.
public struct ExternalConfiguration: AnalyzerConfiguration {
    /// The program, run with `/bin/sh -c` from the current folder, e.g.
    /// `python3 Plugins/BrightnessHistogram/brightness_histogram.py`.
    public var command = ""
    /// Options handed to the program in its hello line, as a JSON object (e.g. `{"every":10}`).
    public var options = JSONValue.object([])
    /// Seconds the program may take to answer one frame before it is stopped and the replay fails
    /// naming the frame. Starting and finishing get at least 10 s.
    public var timeout = 30.0

    public init() {}

    public static var optionHelp: KeyValuePairs<String, String> {
        [
            "command": "the program to run with /bin/sh -c (required), e.g. \"python3 my_analyzer.py\"",
            "options": "a JSON object passed to the program in its hello line (default {})",
            "timeout": "seconds allowed per frame (starting and finishing: at least 10), 0.1...3600 (default 30)",
        ]
    }

    public func validate() throws(OptionError) {
        guard !command.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw OptionError(option: "command", message: "is empty: give the program to run, e.g. --set external.command=\"python3 my_analyzer.py\"")
        }
        guard case .object = options else {
            throw OptionError(option: "options", message: "must be a JSON object, e.g. {\"every\":10}")
        }
        guard timeout.isFinite, (0.1...3600).contains(timeout) else { throw .outOfRange("timeout", timeout, allowed: "0.1...3600") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        command = try c.decode(String.self, forKey: .command)
        timeout = try c.decode(Double.self, forKey: .timeout)
        options = try c.decode(JSONValue.self, forKey: .options)
    }
}
