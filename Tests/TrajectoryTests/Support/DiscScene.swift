import LumaTestSupport
import TrajectoryAnalyzer

/// A tiny scene renderer for cases LumaSynth does not draw: discs moving along any path you give
/// (a ball tossed straight up, a ball carried by hand) over a textured background with sensor
/// noise, all deterministic.
struct DiscScene {
    struct Disc {
        /// Centre in pixels (top-left origin, y down) at time `t` seconds, or `nil` when not shown.
        var path: (Double) -> (x: Double, y: Double)?
        var radius: Double
        /// Grey level of the disc.
        var grey: Double
    }

    var width: Int
    var height: Int
    var framesPerSecond = 30
    var frameCount: Int
    var noise = 2.0
    var discs: [Disc] = []
    /// Texture strength of the background, grey levels.
    var texture = 30.0
    var seed: UInt64 = 1

    /// Draws frame `index` into `pixels`.
    func render(_ index: Int, into pixels: UnsafeMutableBufferPointer<UInt8>) {
        let t = Double(index) / Double(framesPerSecond)
        var plane = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                // Bricks of two shades with darker joints: sharp edges, like a real wall.
                let row = y / 12, shift = row % 2 == 0 ? 0 : 14
                let brick = ((x + shift) / 28 + row) % 3
                let joint = y % 12 == 0 || (x + shift) % 28 == 0
                plane[y * width + x] = 120 + (joint ? -texture : Double(brick) * texture / 3)
            }
        }
        for d in discs {
            guard let c = d.path(t) else { continue }
            let r = d.radius
            let x0 = max(0, Int(c.x - r - 1)), x1 = min(width - 1, Int(c.x + r + 1))
            let y0 = max(0, Int(c.y - r - 1)), y1 = min(height - 1, Int(c.y + r + 1))
            guard x0 <= x1, y0 <= y1 else { continue }
            for y in y0...y1 {
                for x in x0...x1 {
                    // 4×4 supersampling for the anti-aliased edge.
                    var inside = 0
                    for sy in 0..<4 {
                        for sx in 0..<4 {
                            let dx = Double(x) + (Double(sx) + 0.5) / 4 - c.x
                            let dy = Double(y) + (Double(sy) + 0.5) / 4 - c.y
                            if dx * dx + dy * dy < r * r { inside += 1 }
                        }
                    }
                    let coverage = Double(inside) / 16
                    let i = y * width + x
                    plane[i] += (d.grey - plane[i]) * coverage
                }
            }
        }
        var rng = SeededGenerator(seed: seed &* 1_000_003 &+ UInt64(index))
        for i in 0..<(width * height) {
            let v = plane[i] + noise * rng.normal()
            pixels[i] = UInt8(max(0, min(255, v.rounded())))
        }
    }

    /// Runs the analyzer over the whole scene.
    func run(_ configuration: TrajectoryConfigurationBuilder = { _ in }) throws -> TrajectoryRun {
        try TrajectoryRunner.run(width: width, height: height, frameCount: frameCount, framesPerSecond: framesPerSecond,
                                configuration: .with(configuration)) { i, buffer in render(i, into: buffer) }
    }
}

typealias TrajectoryConfigurationBuilder = (inout TrajectoryConfiguration) -> Void
