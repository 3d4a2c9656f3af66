import ArgumentParser
import LumaFormat

/// `--size WIDTHxHEIGHT`: a frame size given on the command line (`synth`, `truth import`), parsed
/// here once. Each side is 1...`RecordingHeader.maximumDimension`; a command that needs more (a
/// synthetic scene is at least 16 pixels a side) checks that itself.
struct FrameSizeArgument: ExpressibleByArgument, Equatable {
    let width: Int
    let height: Int

    init?(argument: String) {
        let sides = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let limits = 1...RecordingHeader.maximumDimension
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
              limits.contains(width), limits.contains(height) else { return nil }
        self.width = width
        self.height = height
    }

    /// Parses a `--size` value, saying what a size looks like when it is not one.
    static func parse(_ argument: String) throws -> FrameSizeArgument {
        guard let size = FrameSizeArgument(argument: argument) else {
            throw ValidationError("a size is WIDTHxHEIGHT with each 1...\(RecordingHeader.maximumDimension), e.g. 640x360")
        }
        return size
    }
}
