import Foundation
import LumaRecording
import Testing
import LumaTestSupport

/// `record - --live` stamps a Y4M stream's frames with their arrival time. Given a file (or a pipe
/// from one) instead of a camera, frames arrive as fast as they are read, so their times are
/// squeezed and every flight looks impossible: record warns once.
@Suite("record --live: frames arriving much faster than the stream's rate")
struct ArrivalPaceTests {
    static let rate = FrameRate(parsing: "30")!

    /// Feeds `ArrivalPace` frames 0..<count at `interval` seconds apart; returns the findings.
    func findings(count: Int64, interval: Double) -> [(frame: Int64, found: ArrivalPace.TooFast)] {
        var pace = ArrivalPace(rate: Self.rate)
        return (0..<count).compactMap { i in
            pace.arrived(frame: i, atMicroseconds: Int64((Double(i) * interval * 1_000_000).rounded())).map { (i, $0) }
        }
    }

    @Test("frames as fast as a pipe gives them are judged once, after the settling and judged frames")
    func fastStream() {
        let found = findings(count: 300, interval: 0.0001)
        #expect(found.count == 1)
        let first = found.first
        #expect(first?.frame == ArrivalPace.settlingFrames + ArrivalPace.judgedFrames)
        #expect(first?.found.frames == ArrivalPace.judgedFrames)
        #expect(abs((first?.found.declaredSeconds ?? 0) - 1.0) < 1e-9)
        #expect(abs((first?.found.arrivalSeconds ?? 1) - 0.003) < 1e-9)
    }

    @Test("a stream at its rate, or slower, or up to twice as fast, is never judged too fast", arguments: [1.0 / 30, 1.0 / 10, 1.0 / 59])
    func liveStream(_ interval: Double) {
        #expect(findings(count: 1000, interval: interval).isEmpty)
    }

    @Test("a burst of buffered frames at the start of a live stream is not judged")
    func startingBurst() {
        var pace = ArrivalPace(rate: Self.rate)
        // The settling frames arrive at once, then frames come at the camera's pace.
        var said = 0
        for i in Int64(0)..<300 {
            let time = i < ArrivalPace.settlingFrames ? 0 : Int64((Double(i - ArrivalPace.settlingFrames + 1) / 30 * 1_000_000).rounded())
            if pace.arrived(frame: i, atMicroseconds: time) != nil { said += 1 }
        }
        #expect(said == 0)
    }

    @Test("too short a stream to judge says nothing")
    func shortStream() {
        #expect(findings(count: ArrivalPace.settlingFrames + ArrivalPace.judgedFrames, interval: 0.0001).isEmpty)
    }

    @Test("record - --live given a Y4M file on standard input warns once, naming the times; with --timestamps rate it does not")
    func fileOnStandardInput() throws {
        try withScratchFolder("pace") { dir in
            let recording = PackageLayout.root.appendingPathComponent("Recordings/balls-synth.luma").path
            #expect(try CLI.run(["export", recording, "--format", "y4m", "-o", "\(dir)/balls.y4m"]).status == 0)
            let stream = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/balls.y4m"))
            let live = try CLI.run(["record", "-", "--live", "-o", "\(dir)/live.luma"], stdin: stream)
            #expect(live.status == 0, "\(live.stderr)")
            let warnings = live.stderr.split(separator: "\n").filter { $0.contains("warning:") }
            #expect(warnings.count == 1, "\(live.stderr)")
            let warning = warnings.first ?? ""
            #expect(warning.contains("-: 30 frames arrived in ") && warning.contains("where the stream's rate gives them 1.000 s"), "\(warning)")
            #expect(warning.contains("--timestamps rate") && warning.contains("leave out --live"))
            // Every frame is still recorded: the warning changes nothing in the file.
            #expect(live.stdout.contains("recorded 90 frames"), "\(live.stdout)")

            let even = try CLI.run(["record", "-", "--live", "--timestamps", "rate", "-o", "\(dir)/even.luma"], stdin: stream)
            #expect(even.status == 0 && !even.stderr.contains("warning:"), "\(even.stderr)")
        }
    }
}
