/// The peaks of one frame, best first, handed out one at a time: a binary max-heap over them.
///
/// A frame's candidates come from its few best peaks (the first twenty that do not overlap),
/// while a frame of a moving scene holds hundreds: sorting them all costs more than building the
/// heap once and taking the few needed from it. Peaks are ranked by response, then lower octave,
/// then upper row, then left column (``ranksAbove(_:_:)``): a strict order, since two peaks of
/// one octave never share a pixel, so the peaks come out exactly as a sort would give them.
struct PeakRanking {
    private var heap: [DiscCandidateFinder.Peak]

    /// Takes the peaks (any order) and arranges them as a heap, in linear time.
    init(_ peaks: consuming [DiscCandidateFinder.Peak]) {
        heap = peaks
        var i = heap.count / 2
        while i > 0 {
            i -= 1
            siftDown(i)
        }
    }

    /// Whether `a` comes before `b`: a larger response, then a lower octave, then an upper row,
    /// then a left column.
    @inline(__always)
    static func ranksAbove(_ a: DiscCandidateFinder.Peak, _ b: DiscCandidateFinder.Peak) -> Bool {
        (a.response, -a.octave, -a.y, -a.x) > (b.response, -b.octave, -b.y, -b.x)
    }

    /// The best peak not yet taken, or nil when all were.
    mutating func next() -> DiscCandidateFinder.Peak? {
        guard let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return last }
        let best = heap[0]
        heap[0] = last
        siftDown(0)
        return best
    }

    /// Gives back the storage, for the next frame's peaks.
    consuming func storage() -> [DiscCandidateFinder.Peak] {
        heap.removeAll(keepingCapacity: true)
        return heap
    }

    private mutating func siftDown(_ start: Int) {
        let n = heap.count
        var i = start
        heap.withUnsafeMutableBufferPointer { h in
            let item = h[i]
            while true {
                var child = 2 * i + 1
                guard child < n else { break }
                if child + 1 < n && Self.ranksAbove(h[child + 1], h[child]) { child += 1 }
                guard Self.ranksAbove(h[child], item) else { break }
                h[i] = h[child]
                i = child
            }
            h[i] = item
        }
    }
}
