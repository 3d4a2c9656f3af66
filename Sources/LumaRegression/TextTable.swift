import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine

/// Rows of cells as aligned text columns: left-aligned, except the columns listed in
/// `rightAligned` (numbers). Lines carry no trailing spaces.
func alignedRows(_ rows: [[String]], rightAligned: Set<Int> = [], indent: String = "") -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    var widths = [Int](repeating: 0, count: columns)
    for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
    return rows.map { row in
        var line = indent
        for (i, cell) in row.enumerated() {
            let pad = String(repeating: " ", count: widths[i] - cell.count)
            if i > 0 { line += "  " }
            if rightAligned.contains(i) { line += pad + cell } else { line += i == row.count - 1 ? cell : cell + pad }
        }
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }
}

/// A change of a score: `0.940 → 0.970 (+0.030)`, or `0.940` when it did not change.
func scoreChange(_ old: Double, _ new: Double, decimals: Int = 3) -> String {
    let (a, b) = (DecimalText.fixed(old, decimals), DecimalText.fixed(new, decimals))
    guard a != b else { return a }
    let delta = DecimalText.fixed((Double(b) ?? new) - (Double(a) ?? old), decimals)
    return "\(a) → \(b) (\(delta.hasPrefix("-") ? delta : "+" + delta))"
}
