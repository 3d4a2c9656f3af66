import Foundation

/// `value` with exactly `decimals` decimals.
func fixed(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

/// `value` with three significant digits and no exponent: 1218, 33.8, 1.82, 0.645 (tables quote
/// rates and ratios this way, as precise as a noisy shared machine makes them).
func significant(_ value: Double) -> String {
    let magnitude = abs(value)
    return fixed(value, magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3)
}

/// A target as its file gives it, without padding: 1000, 0.7, 1.4, 15.
func shortest(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

/// An integer with thousands separators: 351,687,387.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return (value < 0 ? "-" : "") + out
}

/// Rows padded into columns, left-aligned except the columns in `rightAligned`.
func aligned(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    var widths = [Int](repeating: 0, count: columns)
    for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
    return rows.map { row in
        row.enumerated().map { i, cell in
            let pad = String(repeating: " ", count: widths[i] - cell.count)
            return rightAligned.contains(i) ? pad + cell : cell + pad
        }.joined(separator: "   ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }
}
