import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaRegression
import LumaTestSupport
import Testing
import TrackingAnalyzer
import TrajectoryAnalyzer

/// `--grid NAME.KEY=LIST` for options whose values hold commas (a tracking seed's box, JSON): a
/// value in double quotes, brackets or braces keeps its commas; a list that could be one value
/// or several is refused, saying how to write it.
@Suite("Sweep: values with commas")
struct SweepValueListTests {
    let tracking = AnalyzerDescriptor(TrackingAnalyzer.self)
    let trajectory = AnalyzerDescriptor(TrajectoryAnalyzer.self)

    func seeds(_ list: String, random: SweepSampling? = nil) throws -> [String] {
        try SweepGrid(name: "tracking", analyzer: tracking, grid: ["tracking.seeds=" + list], random: random).axes[0].values
    }

    @Test("a value in double quotes keeps its commas and semicolons, the quotes removed; one in brackets is kept as written")
    func grouped() throws {
        #expect(try seeds(#""a=0.1,0.1,0.2,0.2","0.3,0.3,0.2,0.2;0.5,0.5,0.1,0.1""#)
            == ["a=0.1,0.1,0.2,0.2", "0.3,0.3,0.2,0.2;0.5,0.5,0.1,0.1"])
        #expect(try seeds(#"[{"box":[0.1,0.1,0.2,0.2]}],[{"box":[0.3,0.3,0.2,0.2],"label":"b"}]"#)
            == [#"[{"box":[0.1,0.1,0.2,0.2]}]"#, #"[{"box":[0.3,0.3,0.2,0.2],"label":"b"}]"#])
        #expect(try seeds(#""px:10,10,30,30","px:40,40,30,30""#) == ["px:10,10,30,30", "px:40,40,30,30"], "colons in a quoted value are no range")
        #expect(try seeds(#""px:10,10,30,30","px:40,40,30,30""#, random: SweepSampling(count: 2, seed: 1)).sorted() == ["px:10,10,30,30", "px:40,40,30,30"])
        #expect(try seeds(#""0.1,0.1,0.2,0.2""#) == ["0.1,0.1,0.2,0.2"], "one quoted value")
        // Without commas of its own, a list splits as before.
        let lengths = try SweepGrid(name: "trajectory", analyzer: trajectory, grid: ["trajectory.trajectoryLength=8,10,15"])
        #expect(lengths.axes[0].values == ["8", "10", "15"])
    }

    @Test("a list whose whole text is itself one value is refused as ambiguous, saying to quote each value")
    func ambiguous() throws {
        let refusal = #expect(throws: SweepError.self) { try seeds("0.1,0.1,0.2,0.2") }
        #expect(refusal == .ambiguousCommas(option: "tracking.seeds", text: "0.1,0.1,0.2,0.2"))
        #expect(refusal?.description.contains("one value or several") == true && refusal?.description.contains(#""0.1,0.1,0.2,0.2","#) == true)
        // Each value grouped, or none holding commas of its own: not ambiguous.
        #expect(try seeds(#""0.1,0.1,0.2,0.2","0.3,0.3,0.2,0.2""#).count == 2)
    }

    @Test("an unclosed quote or bracket, text after a closed value, a bad escape or an empty value is refused naming the option")
    func malformed() throws {
        for (list, words) in [(#""0.1,0.1,0.2,0.2"#, "not closed"), ("[0.1,0.1", "not closed"), (#""a"b,"c""#, "is followed by a comma"),
                              ("0.1]", "closes nothing"), (#""\q","b""#, "not a quoted string"), (#""a",,"b""#, "no empty values")] {
            let refusal = #expect(throws: SweepError.self, "\(list)") { try seeds(list) }
            guard case .badValues(let option, let text, let reason)? = refusal else { Issue.record("\(list): \(String(describing: refusal))"); continue }
            #expect(option == "tracking.seeds" && text == list && "\(reason)".contains(words), "\(list): \(reason)")
        }
    }

    @Test("a grid of quoted values is rebuilt from its definition (a part, stored scores) as the same grid")
    func definitionRoundTrip() throws {
        let grid = try SweepGrid(name: "tracking", analyzer: tracking, grid: [#"tracking.seeds="a=0.1,0.1,0.2,0.2",[{"box":[0.3,0.3,0.2,0.2],"label":"b"}]"#])
        #expect(grid.axes[0].values == ["a=0.1,0.1,0.2,0.2", #"[{"box":[0.3,0.3,0.2,0.2],"label":"b"}]"#])
        #expect(try SweepGrid(SweepDefinition(grid), analyzer: tracking) == grid)
    }

    @Test("the best setting's replay flags are quoted for the shell when a value needs it")
    func flagsQuoted() {
        #expect(ShellWord.quoted("--set") == "--set")
        #expect(ShellWord.quoted("tracking.seeds=0.1,0.1,0.2,0.2") == "tracking.seeds=0.1,0.1,0.2,0.2")
        #expect(ShellWord.quoted("tracking.seeds=a=0.1,0.1,0.2,0.2;b=0.3,0.3,0.2,0.2") == "'tracking.seeds=a=0.1,0.1,0.2,0.2;b=0.3,0.3,0.2,0.2'")
        #expect(ShellWord.quoted("it's") == #"'it'\''s'"#)
        #expect(ShellWord.quoted("") == "''")
    }
}
