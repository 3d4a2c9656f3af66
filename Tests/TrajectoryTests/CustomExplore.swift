import Testing
import Foundation
import TrajectoryAnalyzer

@Suite struct CustomExplore {
    @Test func custom() throws {
        guard ProcessInfo.processInfo.environment["CUSTOM"] != nil else { return }
        var toss = DiscScene(width: 320, height: 240, frameCount: 60)
        toss.discs = [.init(path: { t in t < 0.1 || t > 1.1 ? nil : (160, 200 - 400 * t + 400 * t * t) }, radius: 6, grey: 200)]
        let r = try toss.run()
        for e in r.ends { print("TOSS end", e.reason, e.points.count, e.timeFit, e.equationCoefficients, e.launch, String(describing: e.apex)) }
        var carried = DiscScene(width: 320, height: 240, frameCount: 90)
        carried.discs = [.init(path: { t in (60 + 200 * t / 3, 120 + 30 * sin(2 * .pi * t / 1.5)) }, radius: 6, grey: 200)]
        let c = try carried.run()
        for e in c.ends { print("CARRIED end", e.reason, e.points.count, e.confidence, e.timeFit) }
        var circle = DiscScene(width: 320, height: 240, frameCount: 90)
        circle.discs = [.init(path: { t in (160 + 70 * cos(2 * .pi * t / 2), 120 + 70 * sin(2 * .pi * t / 2)) }, radius: 6, grey: 60)]
        let cc = try circle.run()
        for e in cc.ends { print("CIRCLE end", e.reason, e.points.count, e.confidence, e.timeFit) }
    }
}
