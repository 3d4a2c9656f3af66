import Foundation
import LumaSynth
import Testing
import LumaTestSupport

@Suite("Scenes are deterministic: the seed decides everything, frames render in any order")
struct DeterminismTests {
    @Test("The same kind and settings give identical truth and identical frames", arguments: SceneKind.allCases)
    func sameSeedSameScene(kind: SceneKind) throws {
        let a = try makeScene(kind, seed: 42)
        let b = try makeScene(kind, seed: 42)
        #expect(a.truth == b.truth)
        #expect(a.contents == b.contents)
        for frame in [0, 37, 149] {
            #expect(a.frame(frame) == b.frame(frame))
        }
    }

    @Test("Another seed gives another scene", arguments: SceneKind.allCases)
    func otherSeedOtherScene(kind: SceneKind) throws {
        let a = try makeScene(kind, seed: 1)
        let b = try makeScene(kind, seed: 2)
        #expect(a.frame(0, layers: []) != b.frame(0, layers: []), "backgrounds differ")
        #expect(a.frame(60) != b.frame(60))
        if kind != .distractors { #expect(a.truth != b.truth) }
    }

    @Test("A frame's bytes do not depend on which frames were rendered before, or on the thread")
    func renderOrderIndependence() async throws {
        let scene = try makeScene(.mixed, seed: 5, frames: 40)
        let forward = (0..<40).map { sha256Hex(scene.frame($0)) }
        let backward = (0..<40).reversed().map { sha256Hex(scene.frame($0)) }.reversed()
        #expect(forward == Array(backward))
        let concurrent = await withTaskGroup(of: (Int, String).self) { group in
            for index in (0..<40).shuffled() {
                group.addTask { (index, sha256Hex(scene.frame(index))) }
            }
            var result = [String](repeating: "", count: 40)
            for await (index, value) in group { result[index] = value }
            return result
        }
        #expect(concurrent == forward)
    }

    @Test("Rendering into a larger buffer writes exactly width × height bytes")
    func bufferBounds() throws {
        let scene = try makeScene(.balls, frames: 5)
        var buffer = [UInt8](repeating: 7, count: scene.width * scene.height + 10)
        buffer.withUnsafeMutableBufferPointer { scene.render(frame: 3, into: $0) }
        #expect(Array(buffer.prefix(scene.width * scene.height)) == scene.frame(3))
        #expect(buffer.suffix(10).allSatisfy { $0 == 7 })
    }

    @Test("Consecutive frames differ (noise is redrawn every frame)")
    func framesDiffer() throws {
        let scene = try makeScene(.distractors, frames: 3)
        #expect(scene.frame(0) != scene.frame(1))
    }

    @Test("Every frame is handed over once, in order, with the bytes a lone render gives, whatever the batch", arguments: [1, 3, 8, 64])
    func forEachFrameInOrder(batch: Int) throws {
        let scene = try makeScene(.mixed, seed: 3, frames: 11)
        var seen: [Int] = []
        var digests: [String] = []
        scene.forEachFrame(batch: batch) { index, pixels in
            seen.append(index)
            digests.append(sha256Hex(Array(pixels)))
        }
        #expect(seen == Array(0..<11))
        #expect(digests == (0..<11).map { sha256Hex(scene.frame($0)) })
    }

    @Test("An error from the frame's receiver stops the loop and reaches the caller")
    func forEachFrameStops() throws {
        struct Full: Error {}
        let scene = try makeScene(.balls, frames: 20)
        var seen: [Int] = []
        #expect(throws: Full.self) {
            try scene.forEachFrame(batch: 4) { index, _ in
                seen.append(index)
                if index == 5 { throw Full() }
            }
        }
        #expect(seen == Array(0...5))
    }

    /// Golden digests pin the generator's output across platforms and toolchains: the generator
    /// uses only its own portable math, so these must hold on Linux and macOS alike. If you change
    /// the generator on purpose, replace the values with the ones a failing expectation shows.
    @Test("Seed 1 renders the recorded golden bytes and truth")
    func golden() throws {
        let scene = try makeScene(.mixed, seed: 1)
        let frame = sha256Hex(scene.frame(75))
        let truth = sha256Hex(Array(scene.truth.canonicalJSON().utf8))
        #expect(frame == "58c7c19fdf78b377281a9d161be3a905236f543a9dcf1de24c6f88ad2c2d7c6c")
        #expect(truth == "525ae44bbc8d50e2d3f92515f7a3327797f2a5383d9fbcee663fd39d3fdf6a12")
    }
}
