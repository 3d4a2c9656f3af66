import LumaAnalysis
import LumaRegression
import Testing

/// A sharded regress run's options as each part file holds them: a typed value, written and read
/// back through the JSON value coders, in the bytes part files always had.
@Suite("Regression settings: a part's options, typed, in the part file's bytes")
struct RegressionSettingsTests {
    static func settings(timed: Bool = false) -> RegressionSettings {
        var diff = LogDiff.Tolerances()
        diff.pointPixels = 2
        return RegressionSettings(set: ["trajectory.threshold=30"], diffTolerances: diff, scoreTolerances: [.recall: 0.02, .f1: 0.01],
                                  judgeByScores: true, update: false, allowExternal: true, timed: timed)
    }

    @Test("written as parts always were: diff tolerances as an array, scores by metric name in name order, junitTimings only when timed")
    func bytes() {
        #expect(Self.settings().json.serialized == """
            {"set":["trajectory.threshold=30"],"diffTolerances":[2.000000,0.900000,0.050000],\
            "scoreTolerances":{"f1":0.010000,"recall":0.020000},"judgeByScores":true,"update":false,"allowExternal":true}
            """)
        #expect(Self.settings(timed: true).json.serialized.hasSuffix(#""allowExternal":true,"junitTimings":true}"#))
    }

    @Test("read back from a part file's text, the same settings", arguments: [false, true])
    func readBack(timed: Bool) throws {
        let settings = Self.settings(timed: timed)
        #expect(try JSONParser.parse(settings.json.serialized).decode(RegressionSettings.self) == settings)
    }

    @Test("options that are not a run's settings are refused at their key")
    func refusals() throws {
        let text = Self.settings().json.serialized
        for (broken, path) in [(text.replacingOccurrences(of: #""f1""#, with: #""speed""#), "scoreTolerances.speed"),
                               (text.replacingOccurrences(of: "[2.000000,", with: "["), "diffTolerances"),
                               (text.replacingOccurrences(of: #""update":false"#, with: #""update":"no""#), "update")] {
            let error = #expect(throws: DecodingError.self) { try JSONParser.parse(broken).decode(RegressionSettings.self) }
            #expect(error.map { DecodingProblem($0).path } == path, "\(broken)")
        }
    }
}
