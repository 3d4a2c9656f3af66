/// A connected region of set mask pixels (8-connectivity), in pixel coordinates (top-left origin).
public struct Component: Equatable, Sendable {
    public var area: Int
    /// Bounding box: columns `minX...maxX`, rows `minY...maxY`.
    public var minX: Int, minY: Int, maxX: Int, maxY: Int
    /// Sums of x and y over the pixels, for the centroid.
    public var sumX: Int, sumY: Int

    public init(area: Int, minX: Int, minY: Int, maxX: Int, maxY: Int, sumX: Int, sumY: Int) {
        self.area = area
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
        self.sumX = sumX; self.sumY = sumY
    }

    /// Centroid in pixel coordinates, at pixel centres (`x + 0.5`).
    public var centroid: (x: Double, y: Double) {
        (Double(sumX) / Double(area) + 0.5, Double(sumY) / Double(area) + 0.5)
    }

    /// Radius of the disc with the same area.
    public var equivalentRadius: Double { (Double(area) / PortableMath.pi).squareRoot() }
}

/// Labels the connected regions of a binary mask by runs: each row's runs of set pixels are joined
/// to the touching runs of the row above with union-find, so the cost follows the number of runs,
/// not of pixels. Rows are scanned eight bytes at a time, so the empty stretches that make up most
/// of a motion mask cost little. Buffers are kept between calls; one instance per thread.
public struct ConnectedComponents {
    private var runs: [(row: Int, start: Int, end: Int)] = []
    private var parent: [Int32] = []
    /// For each run's root, the index of its component in the result once it has one (−1 before).
    private var componentOfRoot: [Int32] = []
    /// The runs of the last ``label(_:width:region:)``: row, columns `start..<end`, and the index of
    /// their component in the returned array; in row order. What a caller needs to visit each
    /// component's own pixels (its bounding box may hold other components' pixels).
    public private(set) var labeledRuns: [(row: Int, start: Int, end: Int, component: Int)] = []

    public init() {}

    /// Components of `mask` (non-zero = set) inside `region`, in a fixed order: by top row, then
    /// leftmost column of their first run.
    public mutating func label(_ mask: UnsafeBufferPointer<UInt8>, width: Int, region: PixelRect) -> [Component] {
        precondition(region.x0 >= 0 && region.y0 >= 0 && region.x1 <= width && region.y1 * width <= mask.count,
                     "the region must lie inside the mask")
        runs.removeAll(keepingCapacity: true)
        parent.removeAll(keepingCapacity: true)
        guard region.width > 0, region.height > 0 else { labeledRuns.removeAll(); return [] }
        var previousRowRuns = 0..<0
        for y in region.y0..<region.y1 {
            let rowStart = runs.count
            appendRuns(of: mask.baseAddress! + y * width, row: y, from: region.x0, to: region.x1)
            joinRuns(rowStart..<runs.count, toRunsAbove: previousRowRuns)
            previousRowRuns = rowStart..<runs.count
        }
        return gatherComponents()
    }

    /// Appends the runs of set bytes in `row[x0..<x1]`, skipping eight clear bytes at a time.
    private mutating func appendRuns(of row: UnsafePointer<UInt8>, row y: Int, from x0: Int, to x1: Int) {
        let raw = UnsafeRawPointer(row)
        var x = x0
        while x < x1 {
            if x + 8 <= x1 {
                let word = raw.loadUnaligned(fromByteOffset: x, as: UInt64.self)
                // Little-endian: the lowest set byte is the first set pixel.
                if word == 0 { x += 8; continue }
                x += UInt64(littleEndian: word).trailingZeroBitCount / 8
            } else if row[x] == 0 {
                x += 1; continue
            }
            let start = x
            while x < x1 && row[x] != 0 { x += 1 }
            runs.append((y, start, x))
            parent.append(Int32(runs.count - 1))
        }
    }

    /// Joins each run of a row to the runs of the row above it touches. Both rows' runs are in
    /// column order, so one pass over the row above serves the whole row.
    private mutating func joinRuns(_ row: Range<Int>, toRunsAbove above: Range<Int>) {
        var first = above.lowerBound
        for i in row {
            let (start, end) = (runs[i].start, runs[i].end)
            // 8-connectivity: a run above touches if it overlaps [start − 1, end]. Runs that end
            // before start − 1 touch no later run of this row either.
            while first < above.upperBound && runs[first].end < start { first += 1 }
            var j = first
            while j < above.upperBound && runs[j].start <= end {
                union(Int32(j), Int32(i))
                j += 1
            }
        }
    }

    /// The components of the labelled runs, numbered in order of their first run.
    private mutating func gatherComponents() -> [Component] {
        componentOfRoot.removeAll(keepingCapacity: true)
        componentOfRoot.append(contentsOf: repeatElement(-1, count: runs.count))
        var components: [Component] = []
        labeledRuns.removeAll(keepingCapacity: true)
        for i in runs.indices {
            let run = runs[i]
            let root = Int(find(Int32(i)))
            let n = run.end - run.start
            let sx = (run.start + run.end - 1) * n / 2
            let c = Int(componentOfRoot[root])
            if c >= 0 {
                components[c].area += n
                components[c].minX = min(components[c].minX, run.start)
                components[c].maxX = max(components[c].maxX, run.end - 1)
                components[c].maxY = max(components[c].maxY, run.row)
                components[c].sumX += sx
                components[c].sumY += run.row * n
                labeledRuns.append((run.row, run.start, run.end, c))
            } else {
                componentOfRoot[root] = Int32(components.count)
                labeledRuns.append((run.row, run.start, run.end, components.count))
                components.append(Component(area: n, minX: run.start, minY: run.row, maxX: run.end - 1, maxY: run.row,
                                            sumX: sx, sumY: run.row * n))
            }
        }
        return components
    }

    private mutating func find(_ i: Int32) -> Int32 {
        var i = i
        while parent[Int(i)] != i {
            parent[Int(i)] = parent[Int(parent[Int(i)])]
            i = parent[Int(i)]
        }
        return i
    }

    private mutating func union(_ a: Int32, _ b: Int32) {
        let ra = find(a), rb = find(b)
        if ra != rb { parent[Int(max(ra, rb))] = min(ra, rb) }
    }
}
