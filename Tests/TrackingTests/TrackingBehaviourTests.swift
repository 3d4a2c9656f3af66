import LumaAnalysis
import LumaEngine
import LumaRegression
import LumaSynth
import LumaTestSupport
import Testing
@testable import TrackingAnalyzer

/// A 320×240 scene: a blocky background and, on it, a 40×40 textured square whose top-left corner
/// is at `position(frame)` (pixels, top-left origin), unless `hidden(frame)`.
private func square(at position: @escaping (Int) -> (x: Int, y: Int), hidden: @escaping (Int) -> Bool = { _ in false })
    -> (Int, UnsafeMutableBufferPointer<UInt8>) -> Void {
    { frame, pixels in
        let (w, h) = (320, 240)
        for y in 0..<h {
            for x in 0..<w { pixels[y * w + x] = 60 + texture(x / 8, y / 8, seed: 1) / 4 }
        }
        guard !hidden(frame) else { return }
        let p = position(frame)
        guard p.x < w, p.y < h, p.x + 40 > 0, p.y + 40 > 0 else { return }
        for y in max(0, p.y)..<min(h, p.y + 40) {
            for x in max(0, p.x)..<min(w, p.x + 40) { pixels[y * w + x] = UInt8(40 + Int(texture((x - p.x) / 4, (y - p.y) / 4, seed: 2)) * 2 / 3) }
        }
    }
}

/// The seed box of a 40×40 square with top-left corner (x, y) in the 320×240 frame.
private func seedBox(x: Int, y: Int) -> String {
    "obj=\(Double(x) / 320),\(1 - Double(y + 40) / 240),\(40.0 / 320),\(40.0 / 240)"
}

@Suite("Tracking analyzer: follows seeded objects, says when it loses them")
struct TrackingBehaviourTests {
    @Test("a textured square moving across the frame is followed: IoU ≥ 0.7 every frame, confident throughout",
          arguments: [TrackingConfiguration.Level.fast, .accurate])
    func followsMovingSquare(level: TrackingConfiguration.Level) throws {
        let path: (Int) -> (x: Int, y: Int) = { (40 + 4 * $0, 100 + $0 / 2) }
        let run = try TrackingRun.run(width: 320, height: 240, frames: 50, configuration: .with {
            $0.seeds = seedBox(x: 40, y: 100)
            $0.trackingLevel = level
        }, render: square(at: path))
        let tracks = run.tracks(label: "obj")
        #expect(tracks.count == 50)
        for (frame, t) in tracks {
            let p = path(frame)
            let truth = [Double(p.x) / 320, 1 - Double(p.y + 40) / 240, 40.0 / 320, 40.0 / 240]
            #expect(intersectionOverUnion(t.boundingBox, truth) >= 0.7, "frame \(frame): \(t.boundingBox) vs \(truth)")
            #expect(t.confidence >= 0.5, "frame \(frame): confidence \(t.confidence)")
        }
        #expect(Set(tracks.map(\.observation.id)).count == 1)
        #expect(run.kinds("track.lost").isEmpty)
    }

    @Test("the same frames and options give the same events")
    func deterministic() throws {
        let render = square(at: { (40 + 3 * $0, 60 + $0) })
        let configuration = TrackingConfiguration.with { $0.seeds = seedBox(x: 40, y: 60) }
        let a = try TrackingRun.run(width: 320, height: 240, frames: 30, configuration: configuration, render: render)
        let b = try TrackingRun.run(width: 320, height: 240, frames: 30, configuration: configuration, render: render)
        #expect(a.events.map { "\($0.frame) \($0.kind) \($0.payload)" } == b.events.map { "\($0.frame) \($0.kind) \($0.payload)" })
    }

    @Test("hidden for a while: confidence drops, track.lost, then track.recovered under the same id")
    func lostAndRecovered() throws {
        let run = try TrackingRun.run(width: 320, height: 240, frames: 45, configuration: .with {
            $0.seeds = seedBox(x: 140, y: 100)
            $0.lostFrames = 3
        }, render: square(at: { _ in (140, 100) }, hidden: { (15..<25).contains($0) }))
        let tracks = run.tracks(label: "obj")
        let hiddenConfidence = tracks.filter { (15..<18).contains($0.frame) }.map(\.observation.confidence)
        let shownConfidence = tracks.filter { $0.frame < 15 }.map(\.observation.confidence)
        #expect(hiddenConfidence.allSatisfy { $0 < 0.3 }, "confidence while hidden: \(hiddenConfidence)")
        #expect(shownConfidence.allSatisfy { $0 >= 0.5 }, "confidence while shown: \(shownConfidence)")
        let lost = run.kinds("track.lost"), recovered = run.kinds("track.recovered")
        #expect(lost.map(\.frame) == [17])
        #expect(recovered.map(\.frame) == [25])
        let id = tracks.first?.observation.id
        #expect(recovered.first.map { $0.payload["id"] == .string(id ?? "") } == true)
        #expect(!tracks.contains { (18..<25).contains($0.frame) }, "no track events while lost")
        #expect(tracks.contains { $0.frame == 30 })
    }

    @Test("a target that leaves the frame ends with track.lost, never a crash")
    func leavesTheFrame() throws {
        let run = try TrackingRun.run(width: 320, height: 240, frames: 60, configuration: .with {
            $0.seeds = seedBox(x: 200, y: 100)
        }, render: square(at: { (200 + 6 * $0, 100) }))
        #expect(run.kinds("track.lost").count == 1)
        let lastTrack = run.tracks(label: "obj").last?.frame ?? -1
        #expect(lastTrack < 30, "still tracked at frame \(lastTrack), the square left at frame 20")
    }

    @Test("follows the objects of a synthetic tracking scene (mean IoU over their lives ≥ 0.5 for most)")
    func syntheticScene() throws {
        let scene = try SyntheticScene(kind: .tracking, settings: SceneSettings(seed: 1))
        let seeds = scene.truth.objectTracks.map { o in
            let p = o.points[0]
            return "\(o.id)=\(p[1]),\(p[2]),\(p[3]),\(p[4])@\(Int(p[0]))"
        }.joined(separator: ";")
        let s = scene.settings
        let run = try TrackingRun.run(width: s.width, height: s.height, frames: s.frameCount, configuration: .with { $0.seeds = seeds }) {
            scene.render(frame: $0, into: $1)
        }
        var followed = 0
        for o in scene.truth.objectTracks {
            let boxes = Dictionary(uniqueKeysWithValues: run.tracks(label: o.id).map { ($0.frame, $0.observation.boundingBox) })
            let ious = o.points.map { p in boxes[Int(p[0])].map { intersectionOverUnion($0, Array(p[1...4])) } ?? 0 }
            if ious.reduce(0, +) / Double(ious.count) >= 0.5 { followed += 1 }
        }
        #expect(followed * 3 >= scene.truth.objectTracks.count * 2, "\(followed) of \(scene.truth.objectTracks.count) followed")
    }

    @Test("nominate=motion starts one track on a moving object without a seed, and never a second on it")
    func motionNomination() throws {
        let path: (Int) -> (x: Int, y: Int) = { (30 + 4 * $0, 90) }
        let run = try TrackingRun.run(width: 320, height: 240, frames: 50, configuration: .with {
            $0.nominate = .motion
        }, render: square(at: path))
        let tracks = run.events.filter { $0.kind == "track" }.map { ($0.frame, try! $0.payload.decode(TrackObservation.self)) }
        #expect(Set(tracks.map(\.1.id)).count == 1, "ids: \(Set(tracks.map(\.1.id)))")
        #expect(tracks.first?.0 == 10, "first nominated at frame \(tracks.first?.0 ?? -1); the first nomination with a background is frame 10")
        for (frame, t) in tracks where frame >= 15 {
            let p = path(frame)
            let truth = [Double(p.x) / 320, 1 - Double(p.y + 40) / 240, 40.0 / 320, 40.0 / 240]
            #expect(intersectionOverUnion(t.boundingBox, truth) >= 0.5, "frame \(frame): \(t.boundingBox) vs \(truth)")
        }
    }

    @Test("degenerate recordings run without error: blank, pure noise, one frame, a 16384×16 strip, a seed filling the frame",
          arguments: [(16384, 16, 3, "0.25,0,0.5,1"), (320, 240, 1, "0.1,0.1,0.2,0.2"), (320, 240, 12, "0,0,1,1"), (16, 16, 8, "0,0,1,1")])
    func degenerate(width: Int, height: Int, frames: Int, seed: String) throws {
        for pattern in ["blank", "noise"] {
            let run = try TrackingRun.run(width: width, height: height, frames: frames, configuration: .with {
                $0.seeds = seed
                $0.nominate = .motion
                $0.renominateEvery = 1
            }) { i, pixels in
                for p in pixels.indices { pixels[p] = pattern == "blank" ? 128 : texture(p % width, p / width, seed: UInt32(i + 1)) }
            }
            let tracks = run.events.filter { $0.kind == "track" }.map { try! $0.payload.decode(TrackObservation.self) }
            #expect(!tracks.isEmpty, "\(pattern) \(width)x\(height): the seed is reported")
            for t in tracks {
                #expect(t.boundingBox.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 } && t.confidence.isFinite, "\(t)")
            }
        }
    }

    @Test("nominate=rectangles starts a track on a card in the first frame, as the Apple sample does, and follows its corners")
    func rectangleNomination() throws {
        let path: (Int) -> (x: Int, y: Int) = { (60 + 3 * $0, 80 + $0) }
        let run = try TrackingRun.run(width: 320, height: 240, frames: 30, configuration: .with { $0.nominate = .rectangles }) { frame, pixels in
            for i in pixels.indices { pixels[i] = UInt8(70 + (i * 7 + i / 320 * 13) % 5) }
            let p = path(frame)
            for y in p.y..<(p.y + 60) {
                for x in p.x..<(p.x + 80) { pixels[y * 320 + x] = UInt8(170 + Int(texture((x - p.x) / 6, (y - p.y) / 6, seed: 3)) / 4) }
            }
        }
        let tracks = run.events.filter { $0.kind == "track" }.map { ($0.frame, try! $0.payload.decode(TrackObservation.self)) }
        #expect(tracks.first?.0 == 0)
        #expect(Set(tracks.map(\.1.id)).count == 1, "ids: \(Set(tracks.map(\.1.id)))")
        for (frame, t) in tracks {
            let p = path(frame)
            let truth = [Double(p.x) / 320, 1 - Double(p.y + 60) / 240, 80.0 / 320, 60.0 / 240]
            #expect(intersectionOverUnion(t.boundingBox, truth) >= 0.7, "frame \(frame): \(t.boundingBox) vs \(truth)")
        }
        let corners = run.events.filter { $0.kind == "rectangleTrack" }.map { ($0.frame, try! $0.payload.decode(RectangleTrackObservation.self)) }
        #expect(corners.map(\.0) == Array(0..<30))
        for (frame, c) in corners {
            let p = path(frame)
            let want: [([Double], Double, Double)] = [(c.topLeft, 0, 0), (c.topRight, 80, 0), (c.bottomRight, 80, 60), (c.bottomLeft, 0, 60)]
            for (got, dx, dy) in want {
                let (x, y) = (got[0] * 320, (1 - got[1]) * 240)
                #expect(abs(x - Double(p.x) - dx) <= 3 && abs(y - Double(p.y) - dy) <= 3, "frame \(frame): corner at \(x), \(y)")
            }
            #expect(c.confidence > 0.5)
        }
    }

    @Test("impossible options are refused at start, naming the option")
    func refusesBadOptions() throws {
        func refusal(_ change: (inout TrackingConfiguration) -> Void) -> String? {
            let stream = StreamInfo(width: 320, height: 240, timescale: 30, nominalFrameRate: 30, frameCount: 10, identity: "x")
            do {
                _ = try TrackingAnalyzer(configuration: .with(change), context: AnalyzerContext(stream: stream))
                return nil
            } catch let e as OptionError {
                return e.option
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal { $0.seeds = "1.2,0.1,0.1,0.1" } == "seeds")      // outside the frame
        #expect(refusal { $0.seeds = "0.1,0.1,0,0.1" } == "seeds")        // zero size
        #expect(refusal { $0.seeds = "0.1,0.1,0.001,0.1" } == "seeds")    // under 2 pixels wide here
        #expect(refusal { $0.seeds = "0.1,0.1,0.1" } == "seeds")          // three numbers
        #expect(refusal { $0.seeds = "a b=0.1,0.1,0.1,0.1" } == "seeds")  // bad label
        #expect(refusal { $0.seeds = "0.1,0.1,0.1,0.1@-3" } == "seeds")   // bad start frame
        #expect(refusal { $0.lostThreshold = 0 } == "lostThreshold")
        #expect(refusal { $0.lostThreshold = -0.5 } == "lostThreshold")
        #expect(refusal { $0.lostThreshold = 1 } == "lostThreshold")
        #expect(refusal { $0.lostFrames = 0 } == "lostFrames")
        #expect(refusal { $0.recoverFrames = -1 } == "recoverFrames")
        #expect(refusal { $0.renominateEvery = 0 } == "renominateEvery")
        #expect(refusal { $0.nominationMinimumSize = 0 } == "nominationMinimumSize")
        #expect(refusal { $0.nominationMinimumSize = 1.5 } == "nominationMinimumSize")
        #expect(refusal { $0.maximumTracks = 0 } == "maximumTracks")
        #expect(refusal { $0.seeds = "a=0.1,0.1,0.2,0.2@4; 0.5,0.5,0.1,0.1" } == nil)
    }

    @Test("seeds parse with labels and start frames")
    func seedSyntax() throws {
        let seeds = try TrackingSeed.parse(" player-1=0.1,0.2,0.3,0.4@12 ; 0.5,0.5,0.25,0.25 ")
        #expect(seeds == [
            TrackingSeed(label: "player-1", box: NormalizedRect(x: 0.1, y: 0.2, width: 0.3, height: 0.4), frame: 12),
            TrackingSeed(label: nil, box: NormalizedRect(x: 0.5, y: 0.5, width: 0.25, height: 0.25), frame: 0),
        ])
        let json = try TrackingSeed.parse(#"[{"box": [0.1, 0.2, 0.3, 0.4], "label": "player-1", "frame": 12}, {"box": [0.5, 0.5, 0.25, 0.25]}]"#)
        #expect(json == seeds)
        #expect(throws: OptionError.self) { try TrackingSeed.parse(#"[{"box": [0.1, 0.2, 0.3]}]"#) }
        #expect(throws: OptionError.self) { try TrackingSeed.parse(#"[{"box": [0.1, 0.2, 0.3, 0.4], "frame": -1}]"#) }
        #expect(throws: OptionError.self) { try TrackingSeed.parse("[{\"box\": ") }
    }
}
