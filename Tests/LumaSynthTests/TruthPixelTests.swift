import LumaSynth
import Testing

@Suite("Truth matches pixels, in normalized lower-left coordinates")
struct TruthPixelTests {
    @Test("At a ball's truth centre the frame differs from the background by about the ball's contrast",
          arguments: [1, 2, 3] as [UInt64])
    func ballContrastAtCentre(seed: UInt64) throws {
        let scene = try makeScene(.balls, seed: seed, width: 640, height: 360, noise: 0)
        let contrasts = Dictionary(uniqueKeysWithValues: scene.contents.balls.map { ($0.id, $0.contrast) })
        let background = scene.frame(0, layers: [])
        var checked = 0
        for segment in scene.truth.ballSegments {
            let contrast = try #require(contrasts[segment.ball])
            var differences: [Double] = []
            for p in segment.points.prefix(12) {
                let frame = scene.frame(Int(p[0]), layers: [.balls])
                let (column, row) = scene.pixel(x: p[1], y: p[2])
                // Local background: mean of a neighbourhood, as the renderer's contrast is relative
                // to the local mean rather than to the one pixel under the centre.
                var sum = 0.0, count = 0.0
                for dy in -12...12 { for dx in -12...12 {
                    let x = column + dx, y = row + dy
                    guard x >= 0, x < scene.width, y >= 0, y < scene.height else { continue }
                    sum += Double(background[y * scene.width + x]); count += 1
                } }
                differences.append(Double(frame[row * scene.width + column]) - sum / count)
            }
            let typical = differences.sorted()[differences.count / 2]
            #expect(abs(typical - contrast) < 6 + 0.15 * abs(contrast),
                    "\(segment.id): contrast \(contrast), measured \(typical)")
            checked += 1
        }
        #expect(checked > 0)
    }

    @Test("Away from every ball a frame is the background plus exactly the noise", arguments: SceneKind.allCases)
    func elsewhereBackgroundPlusNoise(kind: SceneKind) throws {
        let scene = try makeScene(kind, seed: 4)
        let frame = 70
        let full = scene.frame(frame)
        let clean = scene.frame(frame, layers: [])
        // Balls only: compare with the frame rendered without balls but with everything else.
        let withoutBalls = scene.frame(frame, layers: SceneLayers.all.subtracting(.balls))
        let balls = scene.truth.ballSegments.flatMap(\.points).filter { Int($0[0]) == frame }
        var far = 0
        for row in 0..<scene.height {
            for column in 0..<scene.width {
                let x = Double(column) + 0.5, y = Double(row) + 0.5
                let nearBall = balls.contains { p in
                    let c = scene.pixelPosition(x: p[1], y: p[2])
                    let r = p[3] * Double(scene.width) + 2
                    return (x - c.x) * (x - c.x) + (y - c.y) * (y - c.y) < r * r
                }
                // Resting balls are not in the truth; skip a band just above the floor line.
                let nearFloor = abs(y - scene.contents.floorLine) < 0.05 * Double(scene.width) + 2
                if nearBall || nearFloor { continue }
                let i = row * scene.width + column
                #expect(full[i] == withoutBalls[i])
                if kind == .balls {
                    // Noise of sigma 2 stays within 5 sigma of the clean background.
                    #expect(abs(Int(full[i]) - Int(clean[i])) <= 10)
                }
                far += 1
            }
        }
        #expect(far > scene.width * scene.height / 2)
    }

    @Test("A ball's truth point is the centre of its disc, with y measured up from the bottom edge",
          arguments: [6, 7] as [UInt64])
    func ballPositionAndOrigin(seed: UInt64) throws {
        let scene = try makeScene(.balls, seed: seed, width: 640, height: 360, noise: 0)
        let background = scene.frame(0, layers: [])
        let contrasts = Dictionary(uniqueKeysWithValues: scene.contents.balls.map { ($0.id, $0.contrast) })
        let all = scene.truth.ballSegments.flatMap { s in s.points.map { (s.ball, $0) } }
        var checked = 0
        for segment in scene.truth.ballSegments where abs(contrasts[segment.ball] ?? 0) >= 35 {
            for p in segment.points where p[3] * 640 >= 3 {
                let centre = scene.pixelPosition(x: p[1], y: p[2])
                let r = p[3] * 640
                // Whole discs only, with no other ball nearby.
                guard centre.x > 2 * r, centre.x < 640 - 2 * r, centre.y > 2 * r, centre.y < 360 - 2 * r else { continue }
                let crowded = all.contains { other in
                    guard other.0 != segment.ball, other.1[0] == p[0] else { return false }
                    let c = scene.pixelPosition(x: other.1[1], y: other.1[2])
                    return abs(c.x - centre.x) < 3 * r + 40 && abs(c.y - centre.y) < 3 * r + 40
                }
                if crowded { continue }
                // The disc: every pixel the balls layer changed near the truth centre.
                let frame = scene.frame(Int(p[0]), layers: [.balls])
                var sx = 0.0, sy = 0.0, n = 0.0
                for row in Int(centre.y - 2 * r)...Int(centre.y + 2 * r) {
                    for column in Int(centre.x - 2 * r)...Int(centre.x + 2 * r) where frame[row * 640 + column] != background[row * 640 + column] {
                        sx += Double(column) + 0.5
                        sy += Double(row) + 0.5
                        n += 1
                    }
                }
                #expect(abs(sx / n - centre.x) < 0.5 && abs(sy / n - centre.y) < 0.5,
                        "\(segment.id) frame \(p[0]): disc at (\(sx / n), \(sy / n)), truth (\(centre.x), \(centre.y))")
                #expect(n > 0.8 * Double.pi * r * r && n < Double.pi * (r + 1.5) * (r + 1.5), "disc area for radius \(r)")
                // Lower-left origin: a point in the upper half of the image has y > 0.5.
                #expect((sy / n < 180) == (p[2] > 0.5))
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test("An object's truth box bounds exactly the pixels its layer changes", arguments: [1, 2] as [UInt64])
    func objectBoxes(seed: UInt64) throws {
        let scene = try makeScene(.tracking, seed: seed, noise: 0)
        let background = scene.frame(0, layers: [])
        let post = try #require(scene.contents.post)
        for frame in stride(from: 0, to: 150, by: 25) {
            let image = scene.frame(frame, layers: [.objects])
            let boxes = scene.truth.objectTracks.map { track -> (left: Double, top: Double, right: Double, bottom: Double) in
                let p = track.points[frame]
                #expect(Int(p[0]) == frame)
                // [x, y, w, h] with (x, y) the lower-left corner → top-left pixel rectangle.
                return (p[1] * 320, (1 - p[2] - p[4]) * 180, (p[1] + p[3]) * 320, (1 - p[2]) * 180)
            }
            for row in 0..<180 {
                for column in 0..<320 {
                    let i = row * 320 + column
                    let x = Double(column) + 0.5, y = Double(row) + 0.5
                    let inside = boxes.contains { x > $0.left - 0.5 && x < $0.right + 0.5 && y > $0.top - 0.5 && y < $0.bottom + 0.5 }
                    if !inside { #expect(image[i] == background[i], "frame \(frame) pixel \(column),\(row) outside every box") }
                    let onPost = x - 0.5 >= post.left && x + 0.5 <= post.right && y + 0.5 <= post.bottom
                    if onPost { #expect(image[i] == background[i], "the post hides objects") }
                }
            }
            // Inside each box (away from its edges, the post and nearer objects) the texture shows.
            for (k, box) in boxes.enumerated() {
                var changed = 0, total = 0
                for row in Int(box.top + 2)..<Int(box.bottom - 2) {
                    for column in Int(box.left + 2)..<Int(box.right - 2) {
                        let x = Double(column) + 0.5, y = Double(row) + 0.5
                        if x > post.left - 1 && x < post.right + 1 && y < post.bottom + 1 { continue }
                        if boxes.enumerated().contains(where: { $0.offset != k && x > $0.element.left - 1 && x < $0.element.right + 1 && y > $0.element.top - 1 && y < $0.element.bottom + 1 }) { continue }
                        total += 1
                        if image[row * 320 + column] != background[row * 320 + column] { changed += 1 }
                    }
                }
                if total > 50 { #expect(Double(changed) > 0.8 * Double(total)) }
            }
        }
    }
}
