/// A GitHub Markdown table: the header row, its separator, then one row per item.
func markdownTable(_ header: [String], _ rows: [[String]]) -> String {
    func line(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }
    return ([line(header), "|" + String(repeating: "---|", count: header.count)] + rows.map(line)).joined(separator: "\n")
}

/// "1280×720".
func dimensions(_ width: Int, _ height: Int) -> String { "\(width)×\(height)" }
