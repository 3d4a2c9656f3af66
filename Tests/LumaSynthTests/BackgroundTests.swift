import LumaSynth
import Testing

@Suite("The background is textured, mid-grey and static")
struct BackgroundTests {
    @Test("Mid-grey dominated, with contrast and edges", arguments: [1, 2, 3, 4] as [UInt64])
    func texture(seed: UInt64) throws {
        let scene = try makeScene(.balls, seed: seed, width: 640, height: 360)
        let background = scene.frame(0, layers: [])
        let (mean, deviation) = meanAndDeviation(background.map(Double.init))
        #expect(mean > 90 && mean < 170, "mean \(mean)")
        #expect(deviation > 15, "deviation \(deviation)")
        let midGrey = background.filter { $0 >= 60 && $0 <= 200 }.count
        #expect(Double(midGrey) > 0.8 * Double(background.count))
        var edges = 0
        for row in 0..<359 { for column in 0..<639 {
            let i = row * 640 + column
            let g = abs(Int(background[i + 1]) - Int(background[i])) + abs(Int(background[i + 640]) - Int(background[i]))
            if g > 20 { edges += 1 }
        } }
        #expect(Double(edges) > 0.01 * Double(background.count), "edge pixels \(edges)")
    }

    @Test("Without noise or distractors every frame shows the same background", arguments: SceneKind.allCases)
    func staticBackground(kind: SceneKind) throws {
        let scene = try makeScene(kind, seed: 8, frames: 100)
        let first = scene.frame(0, layers: [])
        #expect(scene.frame(55, layers: []) == first && scene.frame(99, layers: []) == first)
    }

    @Test("The floor line balls bounce on is a visible edge in the background")
    func floorLineVisible() throws {
        let scene = try makeScene(.balls, seed: 5, width: 640, height: 360, noise: 0)
        let background = scene.frame(0, layers: [])
        let row = Int(scene.contents.floorLine)
        var step = 0.0
        for column in 0..<640 {
            step += abs(Double(background[(row + 2) * 640 + column]) - Double(background[(row - 3) * 640 + column]))
        }
        #expect(step / 640 > 15, "mean step across the floor line \(step / 640)")
    }
}
