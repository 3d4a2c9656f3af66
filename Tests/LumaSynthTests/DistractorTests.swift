import LumaSynth
import Testing

@Suite("Distractors change pixels but are not in the truth")
struct DistractorTests {
    @Test("A distractor scene has empty truth and notes that say why", arguments: [1, 2, 3] as [UInt64])
    func emptyTruth(seed: UInt64) throws {
        let scene = try makeScene(.distractors, seed: seed)
        #expect(scene.truth.ballSegments.isEmpty && scene.truth.objectTracks.isEmpty)
        #expect(scene.truth.notes.contains("Distractors"))
        #expect(scene.truth.notes.contains("NOT in the truth"))
        #expect(scene.contents.lamp != nil && scene.contents.moverRadius != nil)
    }

    @Test("The lamp's patch flickers while the rest of the image only drifts gently")
    func flickerAndDrift() throws {
        let scene = try makeScene(.distractors, seed: 2, noise: 0)
        let lamp = try #require(scene.contents.lamp)
        func mean(_ frame: [UInt8], _ columns: Range<Int>, _ rows: Range<Int>) -> Double {
            var sum = 0.0
            for r in rows { for c in columns { sum += Double(frame[r * 320 + c]) } }
            return sum / Double(columns.count * rows.count)
        }
        let lampColumns = Int(lamp.centerX - lamp.width / 8)..<Int(lamp.centerX + lamp.width / 8)
        let lampRows = Int(lamp.centerY - lamp.height / 8)..<Int(lamp.centerY + lamp.height / 8)
        var lampMeans: [Double] = [], frameMeans: [Double] = []
        for f in stride(from: 0, to: 150, by: 3) {
            let frame = scene.frame(f)
            lampMeans.append(mean(frame, lampColumns, lampRows))
            frameMeans.append(frame.reduce(0) { $0 + Double($1) } / Double(frame.count))
        }
        let lampSwing = (lampMeans.max() ?? 0) - (lampMeans.min() ?? 0)
        let overall = meanAndDeviation(frameMeans).mean
        let drift = ((frameMeans.max() ?? 0) - (frameMeans.min() ?? 0)) / overall
        #expect(lampSwing > 15, "lamp brightness swings \(lampSwing) grey levels")
        #expect(drift > 0.01 && drift < 0.15, "global brightness drifts \(drift * 100)%")
    }

    @Test("Nothing moves fast: outside the lamp, consecutive clean frames differ by a few grey levels")
    func slowChangesOnly() throws {
        let scene = try makeScene(.distractors, seed: 3, noise: 0)
        let lamp = try #require(scene.contents.lamp)
        var previous = scene.frame(0)
        for f in 1..<40 {
            let frame = scene.frame(f)
            var largest = 0
            for row in 0..<180 { for column in 0..<320 {
                let x = Double(column) + 0.5, y = Double(row) + 0.5
                if x > lamp.left - 1 && x < lamp.right + 1 && y > lamp.top - 1 && y < lamp.bottom + 1 { continue }
                largest = max(largest, abs(Int(frame[row * 320 + column]) - Int(previous[row * 320 + column])))
            } }
            #expect(largest <= 4, "frame \(f): \(largest)")
            previous = frame
        }
    }
}
