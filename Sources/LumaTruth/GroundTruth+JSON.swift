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
        out += "  \"format\": \(JSONText.string(format)),\n"
        out += "  \"version\": \(version),\n"
        out += "  \"width\": \(width),\n"
        out += "  \"height\": \(height),\n"
        out += "  \"frames\": \(frames),\n"
        out += "  \"notes\": \(JSONText.string(notes)),\n"
        out += "  \"ballSegments\": ["
        for (i, segment) in ballSegments.enumerated() {
            out += i == 0 ? "\n" : ",\n"
            out += "    {\"id\": \(JSONText.string(segment.id)), \"ball\": \(JSONText.string(segment.ball)), "
            out += "\"end\": \(JSONText.string(segment.end)), \"points\": "
            out += JSONText.points(segment.points, indent: "      ")
            out += "}"
        }
        out += ballSegments.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"objectTracks\": ["
        for (i, track) in objectTracks.enumerated() {
            out += i == 0 ? "\n" : ",\n"
            out += "    {\"id\": \(JSONText.string(track.id)), "
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
    /// A JSON string literal.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The shortest decimal text of `value` rounded to 6 decimals: `12`, `0.5`, `-0.000001`.
    static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 9e12 else { return "null" }
        let micros = Int64((value * 1_000_000).rounded())
        if micros == 0 { return "0" }
        let magnitude = micros.magnitude
        var text = micros < 0 ? "-" : ""
        text += String(magnitude / 1_000_000)
        var fraction = magnitude % 1_000_000
        if fraction != 0 {
            var digits = 6
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
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
