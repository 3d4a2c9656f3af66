import LumaAnalysis

// A truth file's JSON value read member by member: the project's parser (`JSONParser`) gives the
// value, and each member is taken by its key, so a problem names where it is (`objectTracks.[1].points`).

extension GroundTruth {
    /// The truth a parsed truth file holds; throws naming the member that is missing or of the
    /// wrong kind. Only the shape is checked here; ``validate(path:)`` checks the contents.
    init(json: JSONValue) throws(DecodingProblem) {
        let members = try TruthMembers(json, at: "")
        self.init(width: try members.int("width"), height: try members.int("height"), frames: try members.int("frames"),
                  notes: try members.string("notes"),
                  ballSegments: try members.objects("ballSegments") { (segment) throws(DecodingProblem) in
                      BallSegment(id: try segment.string("id"), ball: try segment.string("ball"), end: try segment.string("end"),
                                  points: try segment.points("points"))
                  },
                  objectTracks: try members.objects("objectTracks") { (track) throws(DecodingProblem) in
                      ObjectTrack(id: try track.string("id"), points: try track.points("points"), occluded: try track.optionalInts("occluded"))
                  })
        format = try members.string("format")
        version = try members.int("version")
    }
}

/// The members of one JSON object of a truth file, and where it is in the file.
private struct TruthMembers {
    let value: JSONValue
    /// `""` for the file's object, `ballSegments.[0]` for a member's.
    let path: String

    init(_ value: JSONValue, at path: String) throws(DecodingProblem) {
        guard case .object = value else { throw DecodingProblem(path: path, .mustBe(.object)) }
        self.value = value
        self.path = path
    }

    private func place(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func member(_ key: String) throws(DecodingProblem) -> JSONValue {
        guard let member = value[key] else { throw DecodingProblem(path: place(key), .missing) }
        return member
    }

    func string(_ key: String) throws(DecodingProblem) -> String {
        guard let text = try member(key).stringValue else { throw DecodingProblem(path: place(key), .mustBe(.string)) }
        return text
    }

    func int(_ key: String) throws(DecodingProblem) -> Int {
        guard let number = try member(key).intValue else { throw DecodingProblem(path: place(key), .mustBe(.wholeNumber)) }
        return number
    }

    /// An array of objects, each made into an `Item` by `make`.
    func objects<Item>(_ key: String, _ make: (TruthMembers) throws(DecodingProblem) -> Item) throws(DecodingProblem) -> [Item] {
        guard let items = try member(key).arrayValue else { throw DecodingProblem(path: place(key), .mustBe(.array)) }
        var made: [Item] = []
        made.reserveCapacity(items.count)
        for (i, item) in items.enumerated() { made.append(try make(TruthMembers(item, at: "\(place(key)).[\(i)]"))) }
        return made
    }

    /// An array of number arrays: truth points.
    func points(_ key: String) throws(DecodingProblem) -> [[Double]] {
        guard let rows = try member(key).arrayValue else { throw DecodingProblem(path: place(key), .mustBe(.array)) }
        var points: [[Double]] = []
        points.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() {
            guard let numbers = row.arrayValue?.compactMap(\.doubleValue), numbers.count == row.arrayValue?.count else {
                throw DecodingProblem(path: "\(place(key)).[\(i)]", .mustBe(.arrayOfNumbers))
            }
            points.append(numbers)
        }
        return points
    }

    /// An array of whole numbers, or `nil` when the member is absent or null.
    func optionalInts(_ key: String) throws(DecodingProblem) -> [Int]? {
        guard let member = value[key], member != .null else { return nil }
        guard let items = member.arrayValue else { throw DecodingProblem(path: place(key), .mustBe(.array)) }
        var numbers: [Int] = []
        numbers.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard let number = item.intValue else { throw DecodingProblem(path: "\(place(key)).[\(i)]", .mustBe(.wholeNumber)) }
            numbers.append(number)
        }
        return numbers
    }
}
