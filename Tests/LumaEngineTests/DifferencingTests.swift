import DifferencingAnalyzer
import LumaAnalysis
import LumaEngine
import Testing

@Suite("Differencing analyzer: what moved, where, in Vision's coordinates")
struct DifferencingTests {
    @Test("a moving square gives one blob per side of the motion, at the right normalized place")
    func movingSquare() throws {
        let rec = try makeMovingSquare(frames: 3)
        let log = try EventLog.read(replay(rec, [try setup("differencing")]))
        let diffs = try log.events.map { try $0.decode(DiffEvent.self) }
        #expect(diffs.count == 2)
        // Frame 1: the square moved from x 4..<10 to 6..<12 (rows 20..<26): pixels 4,5 went dark and 10,11 went bright.
        let d = diffs[0]
        #expect(d.blobs.count == 2)
        #expect(d.blobs.allSatisfy { $0.pixels == 12 })
        // Logged numbers carry six decimals: compare within half a unit of the last one.
        let logged = 5e-7 + 1e-12
        let frameArea = 64.0 * 48.0
        #expect(abs(d.changedFraction - 24.0 / frameArea) <= logged)
        let left = d.blobs.min { $0.centroid[0] < $1.centroid[0] }!
        let expectedBox: [Double] = [4.0 / 64, 1 - 26.0 / 48, 2.0 / 64, 6.0 / 48]
        #expect(zip(left.boundingBox, expectedBox).allSatisfy { abs($0 - $1) <= logged })
        #expect(abs(left.centroid[0] - 5.0 / 64) <= logged)
        #expect(abs(left.centroid[1] - (1 - 23.0 / 48)) <= logged)
        let expectedMean = 24.0 * 170 / frameArea
        #expect(abs(d.meanAbsoluteDifference - expectedMean) <= logged)
    }

    @Test("the region of interest limits what is measured")
    func regionOfInterest() throws {
        let rec = try makeMovingSquare(frames: 3)
        // The right half only: the square (x < 12 of 64) is outside it.
        let log = try EventLog.read(replay(rec, [try setup("differencing", [("regionOfInterest", "0.5,0,0.5,1")])]))
        let d = try log.events[0].decode(DiffEvent.self)
        #expect(d.blobs.isEmpty && d.changedFraction == 0)
    }

    @Test("background mode sees the square itself, not just its edges")
    func backgroundMode() throws {
        let rec = try makeMovingSquare(frames: 3)
        let log = try EventLog.read(replay(rec, [try setup("differencing", [("mode", "background"), ("learningRate", "0.01")])]))
        let d = try log.events.last!.decode(DiffEvent.self)
        // Frame 2: square at 8..<14 against a background still mostly frame 0 (square at 4..<10).
        #expect(d.blobs.count == 2)
        #expect(d.blobs.map(\.pixels).sorted() == [24, 24])
    }

    @Test("minArea and maxBlobs filter blobs")
    func filters() throws {
        let rec = try makeMovingSquare(frames: 2)
        let big = try EventLog.read(replay(rec, [try setup("differencing", [("minArea", "13")])]))
        let bigBlobs = try big.events[0].decode(DiffEvent.self).blobs
        #expect(bigBlobs.isEmpty)
        let one = try EventLog.read(replay(rec, [try setup("differencing", [("maxBlobs", "1")])]))
        let oneBlobs = try one.events[0].decode(DiffEvent.self).blobs
        #expect(oneBlobs.count == 1)
    }
}
