import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaRegression
import LumaTestSupport
import Testing

/// `--set level.level=7` on its way to the analyzer: read from its text once, decoded and
/// validated once where the setup is made, and the analyzer built from that typed value.
@Suite("The option path: a setting is decoded and validated once, from --set to the analyzer")
struct OptionPathTests {
    static let registry = AnalyzerRegistry([AnalyzerDescriptor(LevelProbe.self)])

    @Test("replay: --set, the program check and the run decode and validate the configuration once")
    func replayOnce() throws {
        let recording = try makeMovingSquare(frames: 3)
        let descriptor = try Self.registry.descriptor(named: "level")
        let log = recording + ".level.events.jsonl"
        let counts = try ConfigurationCounts.counting {
            var overrides = SettingOverrides()
            overrides.add("level", key: "level", value: "7")
            let setups = [try AnalyzerSetup.resolve(descriptor, overrides: overrides.settings(for: "level"))]
            try ProgramPermission.require(setups, from: "pipeline.json", registry: Self.registry, allowed: false)
            #expect(setups[0].program(with: descriptor) == nil && setups[0].idleReason(with: descriptor) == nil)
            _ = try Replay.run(RecordingReader(path: recording), setups: setups, registry: Self.registry, options: ReplayOptions(), logPath: log)
        }
        #expect(counts == (decodes: 1, validations: 1))
        let events = try EventLog.read(log).events
        #expect(events.map(\.data) == [.object(["level": .int(7)])], "the analyzer was not built from the value set")
    }

    @Test("a setup changed after validation is validated again before it runs, with the change")
    func changedSetupValidatedAgain() throws {
        let recording = try makeMovingSquare(frames: 2)
        var setup = try AnalyzerSetup.resolve(Self.registry.descriptor(named: "level"), overrides: [("level", "7")])
        setup.configuration = .object(["level": .int(5)])
        let log = recording + ".changed.events.jsonl"
        let counts = try ConfigurationCounts.counting {
            _ = try Replay.run(RecordingReader(path: recording), setups: [setup], registry: Self.registry, options: ReplayOptions(), logPath: log)
        }
        #expect(counts == (decodes: 1, validations: 1))
        #expect(try EventLog.read(log).events.map(\.data) == [.object(["level": .int(5)])])
        setup.configuration = .object(["level": .int(12)])
        #expect(throws: ReplayError.self) {
            try Replay.run(RecordingReader(path: recording), setups: [setup], registry: Self.registry, options: ReplayOptions(), logPath: log + "2")
        }
    }

    @Test("a log header's setup, validated as it is read, runs without another check")
    func headerOnce() throws {
        let header = JSONValue.object(["name": .string("level"), "version": .string("1"), "configuration": .object(["level": .int(4)])])
        let recording = try makeMovingSquare(frames: 2)
        let registry = Self.registry  // made before counting: registering checks the defaults
        let counts = try ConfigurationCounts.counting {
            var setups = [try AnalyzerSetup.parse(header, registry: registry, source: "golden.events.jsonl")]
            try SettingOverrides().apply(to: &setups, registry: registry)
            _ = try Replay.run(RecordingReader(path: recording), setups: setups, registry: registry, options: ReplayOptions(),
                               logPath: recording + ".header.events.jsonl")
        }
        #expect(counts == (decodes: 1, validations: 1))
    }
}

@Suite("The option path of regress: a golden's setup with --set is validated once")
struct GoldenOptionPathTests {
    @Test("regress: the golden's settings with --set on top are decoded and validated once, and run")
    func goldenWithOverridesOnce() throws {
        let registry = OptionPathTests.registry
        let recording = try makeMovingSquare(frames: 2)
        let goldenPath = recording + ".golden.events.jsonl"
        let setup = try AnalyzerSetup.resolve(registry.descriptor(named: "level"), overrides: [("level", "4")])
        _ = try Replay.run(RecordingReader(path: recording), setups: [setup], registry: registry, options: ReplayOptions(), logPath: goldenPath)
        let golden = try EventLog.read(goldenPath)
        let newPath = recording + ".new.events.jsonl"
        let counts = try ConfigurationCounts.counting {
            var overrides = SettingOverrides()
            overrides.add("level", key: "level", value: "7")
            let replay = try GoldenReplay(golden: golden, registry: registry, allowPrograms: false, overrides: overrides)
            try replay.run(to: newPath, jobs: 1, registry: registry)
        }
        #expect(counts == (decodes: 1, validations: 1))
        #expect(try EventLog.read(newPath).events.map(\.data) == [.object(["level": .int(7)])], "the override did not reach the analyzer")
    }
}
