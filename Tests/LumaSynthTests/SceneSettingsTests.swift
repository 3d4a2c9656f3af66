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
            (SceneSettings(width: 0), "width", "width must be 16...16384, got 0"),
            (SceneSettings(width: 3), "width", "width must be 16...16384, got 3"),
            (SceneSettings(width: 16385), "width", "width must be 16...16384, got 16385"),
            (SceneSettings(height: 100_000), "height", "height must be 16...16384, got 100000"),
            (SceneSettings(height: -1), "height", "height must be 16...16384, got -1"),
            (SceneSettings(framesPerSecond: 0), "framesPerSecond", "framesPerSecond must be 1...1000, got 0"),
            (SceneSettings(frameCount: 0), "frameCount", "frameCount must be 1...1000000, got 0"),
            (SceneSettings(noise: -1), "noise", "noise must be 0.0...64.0 grey levels, got -1.0"),
            (SceneSettings(noise: .nan), "noise", "noise must be 0.0...64.0 grey levels, got nan"),
        ])
    func refused(settings: SceneSettings, setting: String, message: String) {
        #expect(throws: OptionError(option: setting, message: message)) { try settings.validate() }
        #expect(throws: OptionError(option: setting, message: message)) {
            _ = try SyntheticScene(kind: .balls, settings: settings)
        }
    }

    @Test("The error names the setting, as every refused option does")
    func description() {
        let error = OptionError(option: "width", message: "width must be 16...16384, got 3")
        #expect("\(error)" == "option width: width must be 16...16384, got 3")
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
