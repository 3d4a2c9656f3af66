import LumaBase

// A canonical JSON text for truth files, written by hand so the bytes do not depend on the
// platform's JSONEncoder (whose number formatting and key order differ between Foundation
// implementations). Any JSON decoder reads it back into an equal `GroundTruth`.

extension GroundTruth {
    /// The truth as canonical JSON: fixed key order, two-space indentation, one truth point per
    /// line (so diffs of regenerated truth files stay readable), numbers as the shortest decimal
    /// of their 6-decimal value (`0.5`, `12`, `0.123457`), no `-0`, and a trailing newline.
    ///
    /// Same truth → same bytes on every platform; `JSONDecoder` reads it back into an equal value.
    public func canonicalJSON() -> String {
        var out = "{\n"
        out += "  \"format\": \(JSONString.quoted(format)),\n"
        out += "  \"version\": \(version),\n"
        out += "  \"width\": \(width),\n"
        out += "  \"height\": \(height),\n"
        out += "  \"frames\": \(frames),\n"
        out += "  \"notes\": \(JSONString.quoted(notes)),\n"
        out += "  \"ballSegments\": ["
        for (i, segment) in ballSegments.enumerated() {
            out += i == 0 ? "\n" : ",\n"
            out += "    {\"id\": \(JSONString.quoted(segment.id)), \"ball\": \(JSONString.quoted(segment.ball)), "
            out += "\"end\": \(JSONString.quoted(segment.end)), \"points\": "
            out += JSONText.points(segment.points, indent: "      ")
            out += "}"
        }
        out += ballSegments.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"objectTracks\": ["
        for (i, track) in objectTracks.enumerated() {
            out += i == 0 ? "\n" : ",\n"
            out += "    {\"id\": \(JSONString.quoted(track.id)), "
            if let occluded = track.occluded {
                out += "\"occluded\": [" + occluded.map(String.init).joined(separator: ", ") + "], "
            }
            out += "\"points\": " + JSONText.points(track.points, indent: "      ") + "}"
        }
        out += objectTracks.isEmpty ? "]\n" : "\n  ]\n"
        out += "}\n"
        return out
    }
}

enum JSONText {
    /// The shortest decimal text of `value` rounded to 6 decimals: `12`, `0.5`, `-0.000001`;
    /// `null` for what is not finite or lies beyond ±9·10^12.
    static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 9e12 else { return "null" }
        return FixedDecimal.text(value, decimals: 6, below: 9.2e18, trimmingZeros: true) ?? "null"
    }

    /// An array of number arrays, one inner array per line.
    static func points(_ points: [[Double]], indent: String) -> String {
        if points.isEmpty { return "[]" }
        var out = "["
        for (i, point) in points.enumerated() {
            out += i == 0 ? "\n" : ",\n"
            out += indent + "[" + point.map(number).joined(separator: ", ") + "]"
        }
        return out + "\n" + indent.dropLast(2) + "]"
    }
}
