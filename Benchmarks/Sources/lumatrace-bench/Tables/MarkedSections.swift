import Foundation

/// The parts of a Markdown file that `tables` owns: the lines between `<!-- bench:AREA:begin -->`
/// and `<!-- bench:AREA:end -->`. Everything outside the markers stays as written; inside, a
/// table is replaced whole, so writing the same results twice changes nothing.
enum MarkedSections {
    static func begin(_ area: String) -> String { "<!-- bench:\(area):begin -->" }
    static func end(_ area: String) -> String { "<!-- bench:\(area):end -->" }

    /// `block` between its markers, as the file holds it.
    static func marked(_ area: BenchArea, _ block: String) -> String {
        begin(area.rawValue) + "\n" + block + "\n" + end(area.rawValue)
    }

    /// `text` with each area's marked section replaced by its block.
    static func replacing(_ blocks: [(area: BenchArea, block: String)], in text: String, path: String) throws(TablesError) -> String {
        var text = text
        for (area, block) in blocks {
            guard let start = text.range(of: begin(area.rawValue)),
                  let stop = text.range(of: end(area.rawValue), range: start.upperBound..<text.endIndex) else {
                throw .missingMarkers(path: path, area: area.rawValue)
            }
            text.replaceSubrange(start.lowerBound..<stop.upperBound, with: marked(area, block))
        }
        return text
    }
}
