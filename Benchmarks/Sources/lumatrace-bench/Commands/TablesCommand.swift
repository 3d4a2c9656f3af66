import ArgumentParser
import Foundation

/// `lumatrace-bench tables`: the README's benchmark tables, made from the JSON lines of runs.
struct TablesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tables",
        abstract: "Makes the benchmark tables of docs/speed.md from the JSON lines of `--json` runs, and writes them into that page.",
        discussion: """
            Reads the files written by `Benchmarks/run AREA --json > FILE` (one run per area; the \
            areas are codec, trajectory, tracking, external and live) and makes each area's Markdown \
            table, captioned with the run count, the date and the commit the lines record. With \
            --readme, replaces each area's table in that file between the lines \
            <!-- bench:AREA:begin --> and <!-- bench:AREA:end -->, leaving the areas it was given \
            no results for as they are; without, prints the marked tables.

            The output depends on the files only: writing the same results twice changes nothing. \
            scripts/benchmark-tables measures every area and runs this.

            Examples:
              Benchmarks/run codec --json > codec.json
              Benchmarks/run tables codec.json --readme docs/speed.md
              Benchmarks/run tables codec.json trajectory.json    # print the tables
            """)

    @Argument(help: ArgumentHelp("Files of JSON lines written by a benchmark with --json.", valueName: "result.json"))
    var results: [String] = []

    @Option(help: ArgumentHelp("The Markdown file whose marked tables to replace.", valueName: "file"))
    var readme: String?

    func validate() throws {
        guard !results.isEmpty else {
            throw ValidationError("name at least one result file, e.g. `Benchmarks/run codec --json > codec.json` then `tables codec.json`")
        }
    }

    func run() throws {
        let lines = try ResultLine.read(results)
        var blocks: [(area: BenchArea, block: String)] = []
        for area in BenchArea.allCases {
            guard let areaLines = lines[area] else { continue }
            let provenance = try TableProvenance(areaLines, area: area)
            switch area {
            case .codec: blocks.append((area, try CodecTable.block(areaLines, provenance: provenance)))
            case .trajectory: blocks.append((area, try TrajectoryTable.block(areaLines, provenance: provenance)))
            case .tracking: blocks.append((area, try TrackingTable.block(areaLines, provenance: provenance)))
            case .external: blocks.append((area, try ExternalTable.block(areaLines, provenance: provenance)))
            case .live: blocks.append((area, try LiveTable.block(areaLines, provenance: provenance)))
            case .sweep: blocks.append((area, try SweepTable.block(areaLines, provenance: provenance)))
            }
        }
        guard let readme else {
            print(blocks.map { MarkedSections.marked($0.area, $0.block) }.joined(separator: "\n\n"))
            return
        }
        let text: String
        do { text = try String(contentsOfFile: readme, encoding: .utf8) } catch {
            throw TablesError.unreadable(path: readme, reason: (error as NSError).localizedDescription)
        }
        let rewritten = try MarkedSections.replacing(blocks, in: text, path: readme)
        let areas = blocks.map(\.area.rawValue).joined(separator: ", ")
        if rewritten == text {
            log("\(readme): \(areas) tables already up to date")
        } else {
            try rewritten.write(toFile: readme, atomically: true, encoding: .utf8)
            log("\(readme): \(areas) tables written")
        }
    }
}
