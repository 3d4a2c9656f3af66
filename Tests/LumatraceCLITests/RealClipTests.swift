import Foundation
import LumaAnalysis
import LumaEngine
import Testing
import LumaTestSupport

/// The real clips in ../shared/data, with the facts their SOURCE.md gives.
struct Clip: Sendable, CustomStringConvertible {
    var folder: String
    var input: String
    var width: Int
    var height: Int
    var frames: Int
    /// Expected duration in seconds (frames × mean interval), and the tolerance.
    var duration: Double
    var fps: String? = nil
    /// Raw frame bytes ÷ file bytes measured when the floor was set (2026-11-26, format version 3;
    /// version 1's floors of 2026-11-24 were lower on nine clips, and higher on the GIF, 6.906: its
    /// dithered palette leaves exact temporal zeros beside large residuals, which version 1's zero
    /// mask stores more cheaply than version 3's nibbles); a recording must keep at least 98% of it.
    var compressionRatio: Double = 0
    var description: String { folder }
}

let clips: [Clip] = [
    Clip(folder: "mizuno-golf-swing-gif", input: "golf.gif", width: 480, height: 360, frames: 86, duration: 6.02, compressionRatio: 6.578),
    Clip(folder: "freethrow-basketball-side", input: "FreeThrow.mp4", width: 852, height: 480, frames: 182, duration: 6.067, compressionRatio: 10.070),
    Clip(folder: "juggling-3ball-cascade", input: "ss3_id_01.mp4", width: 478, height: 850, frames: 531, duration: 17.70, compressionRatio: 6.897),
    Clip(folder: "basketball-court-shots", input: "three_score_two_miss.mp4", width: 960, height: 540, frames: 374, duration: 12.467, compressionRatio: 6.985),
    Clip(folder: "ball-vertical-toss", input: "ball.mp4", width: 1280, height: 720, frames: 60, duration: 2.011, compressionRatio: 41.292),
    Clip(folder: "ball-hand-moved-negative", input: "ball4.mp4", width: 1280, height: 720, frames: 492, duration: 16.436, compressionRatio: 12.097),
    Clip(folder: "otb-crossing", input: "img", width: 360, height: 240, frames: 120, duration: 4.0, fps: "30", compressionRatio: 2.516),
    Clip(folder: "vot2015-ball1", input: "imgs", width: 1280, height: 720, frames: 105, duration: 3.5, fps: "30", compressionRatio: 7.248),
    Clip(folder: "opencv-vtest-pedestrians", input: "vtest.avi", width: 768, height: 576, frames: 795, duration: 79.5, compressionRatio: 6.296),
    Clip(folder: "cdnet-highway-bgslibrary", input: "video03.avi", width: 320, height: 240, frames: 1699, duration: 28.317, compressionRatio: 3.523),
]

@Suite("Real clips: every clip in ../shared/data records, info reports it correctly, and it compresses as well as when the floor was set")
struct RealClipTests {
    @Test("record and info", .clipCorpus, arguments: clips)
    func recordClip(_ clip: Clip) throws {
        let data = try ClipCorpus.require()
        let isVideo = !["img", "imgs"].contains(clip.input)
        if isVideo { _ = try ExternalTool.ffmpeg.require() }
        try withScratchFolder("cli") { dir in
            let input = data.appendingPathComponent(clip.folder).appendingPathComponent(clip.input).path
            var arguments = ["record", input, "-o", "\(dir)/clip.luma"]
            if let fps = clip.fps { arguments += ["--fps", fps] }
            let record = try CLI.run(arguments)
            #expect(record.status == 0, "\(clip.folder): \(record.stderr)")
            let info = try CLI.run(["info", "\(dir)/clip.luma", "--json"])
            #expect(info.status == 0, "\(clip.folder): \(info.stderr)")
            let json = try JSONParser.parse(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(json["width"]?.intValue == clip.width, "\(clip.folder)")
            #expect(json["height"]?.intValue == clip.height, "\(clip.folder)")
            #expect(json["frames"]?.intValue == clip.frames, "\(clip.folder)")
            let duration = json["duration"]?.doubleValue ?? 0
            #expect(abs(duration - clip.duration) < 0.05, "\(clip.folder): duration \(duration), expected \(clip.duration)")
            #expect(json["damage"]?.arrayValue?.isEmpty == true)
            // The codec's floor: the lossless codec and zstd's level are fixed, so the ratio only moves
            // when the codec does.
            let ratio = json["compressionRatio"]?.doubleValue ?? 0
            TestFigures.record("codec ratio: \(clip.folder) \(String(format: "%.3f", ratio))", named: "codec-ratio-\(clip.folder).txt")
            #expect(ratio >= clip.compressionRatio * 0.98,
                    "\(clip.folder): compression ratio \(ratio), measured \(clip.compressionRatio) when the floor was set")
        }
    }
}
