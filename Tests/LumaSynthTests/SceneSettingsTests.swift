import LumaAnalysis
import LumaSynth
import Testing

@Suite("Scene settings are validated with errors that name the setting and its range")
struct SceneSettingsTests {
    @Test("The defaults describe a valid 640x360, 30 fps, 5-second clip")
    func defaults() throws {
        let settings = SceneSettings()
        #expect(settings.width == 640 && settings.height == 360)
        #expect(settings.framesPerSecond == 30 && settings.frameCount == 150)
        #expect(settings.seed == 1 && settings.noise == 2.0)
        #expect(settings.duration == 5)
        try settings.validate()
    }

    @Test(
        "Out-of-range values are refused with the setting's name, its range and the value",
        arguments: [
            (SceneSettings(width: 0), "width", OptionProblem.outOfRange(value: "0", allowed: "16...16384")),
            (SceneSettings(width: 3), "width", .outOfRange(value: "3", allowed: "16...16384")),
            (SceneSettings(width: 16385), "width", .outOfRange(value: "16385", allowed: "16...16384")),
            (SceneSettings(height: 100_000), "height", .outOfRange(value: "100000", allowed: "16...16384")),
            (SceneSettings(height: -1), "height", .outOfRange(value: "-1", allowed: "16...16384")),
            (SceneSettings(framesPerSecond: 0), "framesPerSecond", .outOfRange(value: "0", allowed: "1...1000")),
            (SceneSettings(frameCount: 0), "frameCount", .outOfRange(value: "0", allowed: "1...1000000")),
            (SceneSettings(noise: -1), "noise", .outOfRange(value: "-1.0", allowed: "0.0...64.0 grey levels")),
            (SceneSettings(noise: .nan), "noise", .outOfRange(value: "nan", allowed: "0.0...64.0 grey levels")),
        ])
    func refused(settings: SceneSettings, setting: String, problem: OptionProblem) {
        #expect(throws: OptionError(option: setting, problem)) { try settings.validate() }
        #expect(throws: OptionError(option: setting, problem)) {
            _ = try SyntheticScene(kind: .balls, settings: settings)
        }
    }

    @Test("The error names the setting, as every refused option does")
    func description() {
        let error = OptionError(option: "width", .outOfRange(value: "3", allowed: "16...16384"))
        #expect("\(error)" == "option width: 3 is outside the allowed range 16...16384")
    }

    @Test("The smallest and largest sizes are accepted")
    func extremes() throws {
        try SceneSettings(width: 16, height: 16, framesPerSecond: 1, frameCount: 1, noise: 0).validate()
        try SceneSettings(width: 16384, height: 16384, framesPerSecond: 1000, frameCount: 1_000_000, noise: 64).validate()
        // A tiny scene still builds and renders for every kind.
        for kind in SceneKind.allCases {
            let scene = try makeScene(kind, width: 16, height: 16, frames: 3)
            #expect(scene.frame(2).count == 256)
        }
    }
}
