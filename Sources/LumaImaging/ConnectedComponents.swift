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
/// not of pixels. Buffers are kept between calls; one instance per thread.
public struct ConnectedComponents {
    private var runs: [(row: Int, start: Int, end: Int)] = []
    private var parent: [Int32] = []
    /// The runs of the last ``label(_:width:region:)``: row, columns `start..<end`, and the index of
    /// their component in the returned array; in row order. What a caller needs to visit each
    /// component's own pixels (its bounding box may hold other components' pixels).
    public private(set) var labeledRuns: [(row: Int, start: Int, end: Int, component: Int)] = []

    public init() {}

    /// Components of `mask` (non-zero = set) inside `region`, in a fixed order: by top row, then
    /// leftmost column of their first run.
    public mutating func label(_ mask: UnsafeBufferPointer<UInt8>, width: Int, region: PixelRect) -> [Component] {
        runs.removeAll(keepingCapacity: true)
        parent.removeAll(keepingCapacity: true)
        var previousRowRuns = 0..<0
        for y in region.y0..<region.y1 {
            let rowStart = runs.count
            var x = region.x0
            let base = y * width
            while x < region.x1 {
                if mask[base + x] == 0 { x += 1; continue }
                let start = x
                while x < region.x1 && mask[base + x] != 0 { x += 1 }
                let id = Int32(runs.count)
                runs.append((y, start, x))
                parent.append(id)
                // 8-connectivity: a run above touches if it overlaps [start − 1, x].
                for j in previousRowRuns where runs[j].end >= start && runs[j].start <= x {
                    union(Int32(j), id)
                }
            }
            previousRowRuns = rowStart..<runs.count
        }
        var componentOf = [Int32: Int]()
        var components: [Component] = []
        labeledRuns.removeAll(keepingCapacity: true)
        for (i, run) in runs.enumerated() {
            let root = find(Int32(i))
            labeledRuns.append((run.row, run.start, run.end, componentOf[root] ?? components.count))
            let n = run.end - run.start
            let sx = (run.start + run.end - 1) * n / 2
            if let c = componentOf[root] {
                components[c].area += n
                components[c].minX = min(components[c].minX, run.start)
                components[c].maxX = max(components[c].maxX, run.end - 1)
                components[c].maxY = max(components[c].maxY, run.row)
                components[c].sumX += sx
                components[c].sumY += run.row * n
            } else {
                componentOf[root] = components.count
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
