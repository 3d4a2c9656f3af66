import LumaAnalysis

/// An event's payload read as the shape its log header gives its kind: what `diff`, `score`,
/// `render` and `report` work with, whichever analyzer emitted the event.
public enum ShapedEvent: Sendable {
    case pathUpdate(PathUpdate)
    case pathEnd(PathEnd)
    case box(Box)
    case boxLost(ObjectReference)
    case boxRecovered(Box)
    case quadrilateral(Quadrilateral)
    case blobs(Blobs)

    /// A payload without the fields of its shape: the view type it is not, and why.
    public struct Mismatch: Error, Sendable {
        public var view: String
        public var problem: DecodingProblem
        /// The problem in words.
        public var reason: String { problem.description }
    }

    /// `payload` read as `shape`: the one place a shape is mapped to its view type, for events
    /// read from a log and for events an analyzer emits.
    public init(payload: JSONValue, shape: EventShape) throws(Mismatch) {
        func view<T: Decodable>(_ type: T.Type) throws(Mismatch) -> T {
            do { return try payload.decode(T.self) } catch { throw Mismatch(view: "\(T.self)", problem: DecodingProblem(error)) }
        }
        switch shape {
        case .pathUpdate: self = .pathUpdate(try view(PathUpdate.self))
        case .pathEnd: self = .pathEnd(try view(PathEnd.self))
        case .box: self = .box(try view(Box.self))
        case .boxLost: self = .boxLost(try view(ObjectReference.self))
        case .boxRecovered: self = .boxRecovered(try view(Box.self))
        case .quadrilateral: self = .quadrilateral(try view(Quadrilateral.self))
        case .blobs: self = .blobs(try view(Blobs.self))
        }
    }

    /// The payload of `event`, on line `line` of the log at `path`, read as `shape`. A payload
    /// without the shape's fields is an error naming the line, never read as zeros.
    public init(_ event: LoggedEvent, shape: EventShape, line: Int, path: String) throws(EventLogError) {
        do throws(Mismatch) {
            try self.init(payload: event.data, shape: shape)
        } catch {
            throw EventLogError(path: path, line: line, .notItsShape(analyzer: event.analyzer, kind: event.kind, view: error.view, problem: error.problem))
        }
    }

    /// The id of the object the event places in its frame (a box, a recovered box, tracked
    /// corners), or `nil`. One analyzer places an object at most once per frame and kind: two
    /// such events of one frame, analyzer and kind with the same id would be one object in two
    /// places, which `diff` and `score` cannot tell apart, so replay and the readers refuse them.
    public var placedObjectId: String? {
        switch self {
        case .box(let b), .boxRecovered(let b): return b.id
        case .quadrilateral(let q): return q.id
        case .pathUpdate, .pathEnd, .boxLost, .blobs: return nil
        }
    }

    /// The object the event belongs to (a path, a track, a tracked quadrilateral), or `nil` for a
    /// detection of its frame only.
    public var objectId: String? {
        switch self {
        case .pathUpdate(let p): return p.id
        case .pathEnd(let p): return p.id
        case .box(let b), .boxRecovered(let b): return b.id
        case .boxLost(let r): return r.id
        case .quadrilateral(let q): return q.id
        case .blobs: return nil
        }
    }
}

extension EventLog {
    /// Calls `body` with each event in log order, its line number, and its payload read as the
    /// shape the header gives its kind (`nil`: a kind without a shape, compared as JSON). A
    /// payload that is not its shape stops with an error naming its line.
    public func forEachShapedEvent(_ body: (LoggedEvent, _ line: Int, ShapedEvent?) throws(EventLogError) -> Void) throws(EventLogError) {
        let shapes = EventShapes(header)
        for (k, event) in events.enumerated() {
            // Every line of a log after the header is an event: event k is on line k + 2.
            let line = k + 2
            var shaped: ShapedEvent?
            if let shape = shapes.shape(of: event) { shaped = try ShapedEvent(event, shape: shape, line: line, path: path) }
            try body(event, line, shaped)
        }
    }
}
