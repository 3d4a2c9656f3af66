import LumaAnalysis
import LumaBase

// A truth file written through the project's JSON writer: the truth becomes a `JSONValue` (keys in
// a fixed order, numbers as their shortest 6-decimal text), printed in the `.lines` layout, so the
// bytes do not depend on the platform's JSONEncoder (whose number formatting and key order differ
// between Foundation implementations).

extension GroundTruth {
    /// The truth as canonical JSON: fixed key order, two-space indentation, one truth point per
    /// line (so diffs of regenerated truth files stay readable), numbers as the shortest decimal
    /// of their 6-decimal value (`0.5`, `12`, `0.123457`), no `-0`, and a trailing newline.
    ///
    /// Same truth → same bytes on every platform; ``GroundTruth/read(_:)`` reads it back into an
    /// equal value.
    public func canonicalJSON() -> String {
        json.text(.lines) + "\n"
    }

    /// The truth file's value: its members in the file's order.
    public var json: JSONValue {
        .object([
            "format": .string(format),
            "version": .int(Int64(version)),
            "width": .int(Int64(width)),
            "height": .int(Int64(height)),
            "frames": .int(Int64(frames)),
            "notes": .string(notes),
            "ballSegments": .array(ballSegments.map(\.json)),
            "objectTracks": .array(objectTracks.map(\.json)),
        ])
    }
}

extension BallSegment {
    /// The segment's value in a truth file.
    var json: JSONValue {
        .object([
            "id": .string(id), "ball": .string(ball), "end": .string(end), "points": TruthNumber.points(points),
        ])
    }
}

extension ObjectTrack {
    /// The track's value in a truth file; `occluded` only when the track has it.
    var json: JSONValue {
        var members = [JSONValue.Member("id", .string(id))]
        if let occluded { members.append(.init("occluded", .array(occluded.map { .int(Int64($0)) }))) }
        members.append(.init("points", TruthNumber.points(points)))
        return .object(members)
    }
}

/// How a truth file writes its numbers.
enum TruthNumber {
    /// The shortest decimal text of `value` rounded to 6 decimals: `12`, `0.5`, `-0.000001`;
    /// `null` for what is not finite or lies beyond ±9·10^12.
    static func value(_ value: Double) -> JSONValue {
        guard value.isFinite, abs(value) < 9e12,
              let text = FixedDecimal.text(value, decimals: 6, below: 9.2e18, trimmingZeros: true) else { return .null }
        return .number(text)
    }

    /// Points as an array of number arrays.
    static func points(_ points: [[Double]]) -> JSONValue {
        .array(points.map { .array($0.map(value)) })
    }
}
