/// Which old and new tracks have boxes that overlap in some frame both are live in: the only
/// pairs whose IoU can be above zero, found without trying every pair.
///
/// `diff` pairs tracks by their mean IoU over shared frames, and a pair whose boxes never overlap
/// has a mean of 0, so it needs no score (its ids may still pair it: ``TrackComparison`` adds the
/// pairs of one id itself). Trying every pair costs the product of the two logs' track counts
/// times their frames (2000 live tracks: 75 s); here each frame's boxes are swept once along x,
/// in order of their left edges, so the cost is that of sorting them plus the pairs that overlap
/// along x. The overlap test is the one ``intersectionOverUnion(_:_:)`` makes (a positive width
/// and height of intersection), and boxes of no area touch only the very same box, as they have
/// an IoU of 1 with it and 0 with any other.
struct TouchingTracks {
    /// One box of one track in one frame: its track's index in its log, and its edges.
    private struct Edges {
        var track: Int
        var x0, x1, y0, y1: Double
        var isNew: Bool
    }

    /// The pairs `(old index, new index)` whose boxes overlap in a shared frame, each once, in no
    /// particular order.
    static func pairs(_ old: [LoggedTrack], _ new: [LoggedTrack]) -> Set<Pair> {
        var byFrame: [Int: [Edges]] = [:]
        var empty: [Int: [[Double]: (old: [Int], new: [Int])]] = [:]
        for (isNew, tracks) in [(false, old), (true, new)] {
            for (index, track) in tracks.enumerated() {
                for (frame, b) in track.boxes {
                    guard b[2] > 0, b[3] > 0, b[2] * b[3] > 0 else {
                        if isNew { empty[frame, default: [:]][b, default: ([], [])].new.append(index) } else {
                            empty[frame, default: [:]][b, default: ([], [])].old.append(index)
                        }
                        continue
                    }
                    byFrame[frame, default: []].append(Edges(track: index, x0: b[0], x1: b[0] + b[2], y0: b[1], y1: b[1] + b[3], isNew: isNew))
                }
            }
        }
        var found = Set<Pair>()
        for (_, boxes) in byFrame { sweep(boxes, into: &found) }
        for (_, same) in empty {
            for (_, tracks) in same { for i in tracks.old { for j in tracks.new { found.insert(Pair(old: i, new: j)) } } }
        }
        return found
    }

    /// An old track's index and a new track's.
    struct Pair: Hashable {
        var old: Int
        var new: Int
    }

    /// Every overlapping old/new pair of one frame's boxes: in order of left edges, each box meets
    /// the boxes of the other log still open along x (their right edge beyond its left edge).
    private static func sweep(_ boxes: [Edges], into found: inout Set<Pair>) {
        let ordered = boxes.filter { $0.x0 < $0.x1 && $0.y0 < $0.y1 }.sorted { $0.x0 < $1.x0 }
        var openOld: [Edges] = [], openNew: [Edges] = []
        for box in ordered {
            if box.isNew {
                meet(box, &openOld, into: &found)
                openNew.append(box)
            } else {
                meet(box, &openNew, into: &found)
                openOld.append(box)
            }
        }
    }

    /// `box` met with the other log's `open` boxes: those whose right edge is not beyond its left
    /// edge are closed (removed: no later box, starting further right, meets them); the others
    /// overlap it along x, and it is a pair when they overlap along y too.
    private static func meet(_ box: Edges, _ open: inout [Edges], into found: inout Set<Pair>) {
        var k = 0
        while k < open.count {
            let other = open[k]
            if other.x1 <= box.x0 {
                open.swapAt(k, open.count - 1)
                open.removeLast()
                continue
            }
            if other.y0 < box.y1, box.y0 < other.y1 {
                found.insert(box.isNew ? Pair(old: other.track, new: box.track) : Pair(old: box.track, new: other.track))
            }
            k += 1
        }
    }
}
