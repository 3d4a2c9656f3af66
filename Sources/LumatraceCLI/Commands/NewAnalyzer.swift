import ArgumentParser
import Foundation
import LumaBase

struct NewAnalyzer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-analyzer",
        abstract: "Create a working example analyzer plugin and its tests: a Swift package with its own lumatrace, or a Python script.",
        discussion: """
              lumatrace new-analyzer Glare                 # ./Glare: analyzer `glare`
              cd Glare && swift build && swift test
              swift run lumatrace-glare replay clip.luma --analyzer glare --analyzer trajectory

            The package has the example analyzer (a brightness-change detector: edit it
            into yours), a test that uses AnalyzerHarness (events on frames made in
            memory, and the one-line conformance check), and an executable that is
            lumatrace with the built-in analyzers plus yours. It depends on this
            Lumatrace checkout (--lumatrace to use another): by version when the checkout
            is a tagged release with no changes (e.g. git tag 0.1.0), by path otherwise.

              lumatrace new-analyzer --language python Glare   # ./Glare/glare.py
              cd Glare && CHECKOUT/.venv/bin/python -m pytest
              lumatrace replay clip.luma --analyzer external \\
                --set external.command="CHECKOUT/.venv/bin/python glare.py"

            In Python: the same example as a script written with lumatrace.analyzer
            (the external analyzer runs it), its pytest tests (run_on: frames made in
            memory, no Lumatrace needed) and a README with the commands. It runs with
            the checkout's .venv/bin/python, which scripts/install-dependencies --for-tests makes.
            See docs/writing-an-analyzer.md in the Lumatrace repository.
            """)

    /// What the analyzer is written in.
    enum Language: String, ExpressibleByArgument, CaseIterable {
        case swift, python
    }

    @Argument(help: "The analyzer's type name, e.g. Glare (letters and digits, starting with a capital).")
    var name: String

    @Option(help: "swift (a package with its own lumatrace) or python (a script the external analyzer runs).")
    var language: Language = .swift

    @Option(help: "The folder to create the package in (default: ./NAME).")
    var path: String?

    @Option(help: "The Lumatrace checkout to use: a Swift package depends on it, a Python analyzer runs with its .venv (default: the one this lumatrace was built from).")
    var lumatrace: String?

    /// The checkout this binary was built from: the package root, three levels above this file.
    static let buildCheckout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    func validate() throws {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first),
              name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }),
              name.count <= 48 else {
            throw ValidationError("'\(name)' is not a type name: letters and digits, starting with a capital, e.g. Glare")
        }
        if language == .python, let clash = PythonAnalyzerTemplate(typeName: name, checkout: "").clash {
            throw ValidationError("'\(name)' cannot name a Python analyzer: \(clash); choose another name, e.g. \(name)Detector")
        }
    }

    func run() throws {
        try reportingErrors {
            let folder = path ?? name
            let checkout = lumatrace ?? Self.buildCheckout
            for (flag, given) in [("--lumatrace", checkout), ("--path", folder)] where SystemPath.hasEscapedBytes(given) {
                throw UsageError("\(flag) \(given): the name holds bytes that are not UTF-8, which the package's files cannot name; rename the folder or use a link with a UTF-8 name")
            }
            guard FileManager.default.fileExists(atPath: checkout + "/Package.swift") else {
                throw CLIError("\(checkout) is not a Lumatrace checkout (no Package.swift); pass --lumatrace PATH")
            }
            if FileManager.default.fileExists(atPath: folder) { throw CLIError("\(folder) already exists; choose another --path") }
            let root = URL(fileURLWithPath: checkout).standardizedFileURL.path
            switch language {
            case .swift:
                let template = AnalyzerTemplate(typeName: name, lumatrace: .of(checkout: root))
                try write(template.files, into: folder)
                print("created \(folder): analyzer `\(template.analyzerName)` (\(template.typeName)Analyzer), its tests, and lumatrace-\(template.analyzerName) in Tool/")
                print(template.lumatrace.readmeSentence)
                print("next: cd \(ShellWord.quoted(folder)) && swift build && swift test")
                print("then, to run it through lumatrace: \(template.toolCommand) replay CLIP.luma --analyzer \(template.analyzerName)")
            case .python:
                let template = PythonAnalyzerTemplate(typeName: name, checkout: root)
                try write(template.files, into: folder)
                print("created \(folder): \(template.moduleName).py (\(name), for the external analyzer), test_\(template.moduleName).py and a README")
                if !FileManager.default.isExecutableFile(atPath: template.python) {
                    print("note: \(template.python) does not exist yet: run scripts/install-dependencies --for-tests in \(root) to make it")
                }
                print("next: cd \(ShellWord.quoted(folder)) && \(ShellWord.quoted(template.python)) -m pytest")
            }
        }
    }

    private func write(_ files: [(String, String)], into folder: String) throws {
        for (file, text) in files {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }
}

/// The files of a new analyzer package.
struct AnalyzerTemplate {
    let typeName: String
    /// Where the package gets Lumatrace from: a tagged release by version, else the checkout by path.
    let lumatrace: LumatraceDependency

    /// `Glare` → `glare`, `HeadTracker` → `head-tracker`.
    var analyzerName: String {
        var out = ""
        for (i, c) in typeName.enumerated() {
            if c.isUppercase, i > 0 { out += "-" }
            out += c.lowercased()
        }
        return out
    }

    var files: [(String, String)] {
        [("Package.swift", package), ("Sources/\(typeName)/\(typeName)Analyzer.swift", analyzer),
         ("Tests/\(typeName)Tests/\(typeName)Tests.swift", tests),
         ("Tool/Package.swift", toolPackage), ("Tool/Sources/lumatrace-\(analyzerName)/main.swift", main),
         ("README.md", readme), (".gitignore", ".build/\n")]
    }

    /// How to run the plugin's own `lumatrace` (built only then, in `Tool/`).
    var toolCommand: String { "swift run --package-path Tool lumatrace-\(analyzerName)" }

    var package: String {
        """
        // swift-tools-version: 6.0
        // An analyzer plugin for Lumatrace, made by `lumatrace new-analyzer \(typeName)`.
        import PackageDescription

        // `swift build && swift test` build the analyzer and its tests from the libraries an analyzer
        // needs, never the command line: `lumatrace` with this analyzer is the package in Tool/, built
        // when you run it (\(toolCommand) …).
        let package = Package(
            name: "\(typeName)",
            platforms: [.macOS(.v14)],
            products: [.library(name: "\(typeName)", targets: ["\(typeName)"])],
            dependencies: [
                \(lumatrace.packageLine)
            ],
            targets: [
                // The analyzer: sees only Lumatrace's plugin API (LumaAnalysis) and its image kernels (LumaImaging).
                .target(name: "\(typeName)", dependencies: [
                    .product(name: "LumaAnalysis", package: \(lumatrace.packageNameLiteral)),
                    .product(name: "LumaImaging", package: \(lumatrace.packageNameLiteral)),
                ]),
                // Its tests: AnalyzerHarness runs it on frames you make and checks the rules every analyzer keeps.
                .testTarget(name: "\(typeName)Tests", dependencies: [
                    "\(typeName)", .product(name: "AnalyzerHarness", package: \(lumatrace.packageNameLiteral)),
                ]),
            ],
            swiftLanguageModes: [.v6]
        )

        """
    }

    /// `Tool/Package.swift`: `lumatrace` with the built-in analyzers plus this one.
    var toolPackage: String {
        """
        // swift-tools-version: 6.0
        // lumatrace with the built-in analyzers plus \(typeName): built only when you run it,
        // `\(toolCommand) replay clip.luma --analyzer \(analyzerName)` from the folder above.
        import PackageDescription

        let package = Package(
            name: "\(typeName)Tool",
            platforms: [.macOS(.v14)],
            dependencies: [
                \(lumatrace.packageLine)
                .package(name: "\(typeName)", path: ".."),
            ],
            targets: [
                .executableTarget(name: "lumatrace-\(analyzerName)", dependencies: [
                    .product(name: "\(typeName)", package: "\(typeName)"),
                    .product(name: "LumatraceCLI", package: \(lumatrace.packageNameLiteral)),
                ]),
            ],
            swiftLanguageModes: [.v6]
        )

        """
    }

    var analyzer: String {
        """
        import LumaAnalysis

        /// Reports sudden changes of brightness (a light switched on, a cloud, a camera's exposure
        /// jump): a `brightness.change` event whenever the mean luma of the region of interest moves
        /// by more than `threshold` grey levels from the previous analyzed frame.
        ///
        /// The example of `lumatrace new-analyzer`: replace it with your own detector. The rules
        /// (see LumaAnalysis's `Analyzer`): deterministic output, no clocks, no unseeded randomness,
        /// normalized coordinates with a lower-left origin, and bump `version` when events change.
        public struct \(typeName)Analyzer: Analyzer {
            public static let name = "\(analyzerName)"
            public static let version = "1"
            public static let summary = "brightness changes of more than a threshold between analyzed frames"

            /// The options, each with a default; set them with `--set \(analyzerName).KEY=VALUE`.
            public struct Configuration: AnalyzerConfiguration {
                /// Grey levels the mean must move to count as a change (half a grey level: the
                /// bundled toss's hand moving into view moves the mean of the whole frame that much).
                public var threshold = 0.5

                public init() {}

                /// Each option once: its key, what it does and what it allows. `lumatrace analyzers
                /// \(analyzerName)` prints them, and `--set`, validation and the log header follow them.
                public static let options: [AnalyzerOption<Self>] = [
                    AnalyzerOption("threshold", \\.threshold, in: 0.1...255, help: "grey levels the mean must move between analyzed frames"),
                ]
            }

            /// What a `brightness.change` event holds. An event with a `shape` (e.g. `.box` with
            /// `id`, `boundingBox`, `confidence`) is also drawn, scored and diffed by `lumatrace`.
            public struct Change: EventPayload, Equatable {
                public static let kind = "brightness.change"
                public static let version = 1
                public var before: Double
                public var after: Double
            }

            /// The events it emits, recorded in every log header.
            public static let eventTypes: [any EventPayload.Type] = [Change.self]

            private let configuration: Configuration
            private let region: (x0: Int, y0: Int, x1: Int, y1: Int)
            private var previous: Double?

            public init(configuration: Configuration, context: AnalyzerContext) throws {
                self.configuration = configuration
                let b = context.regionOfInterest.pixelBounds(width: context.stream.width, height: context.stream.height)
                region = (b.x0, b.y0, b.x1, b.y1)
            }

            public mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
                var sum = 0
                for y in region.y0..<region.y1 {
                    let row = frame.row(y)
                    for x in region.x0..<region.x1 { sum += Int(row[x]) }
                }
                let mean = Double(sum) / Double(max(1, (region.x1 - region.x0) * (region.y1 - region.y0)))
                if let previous, abs(mean - previous) > configuration.threshold {
                    try events.emit(Change(before: previous, after: mean))
                }
                previous = mean
            }
        }

        """
    }

    var main: String {
        """
        import LumatraceCLI
        import LumaEngine
        import \(typeName)

        // lumatrace, with the built-in analyzers and \(analyzerName).
        Lumatrace.main(analyzers: Lumatrace.builtinAnalyzers + [AnalyzerDescriptor(\(typeName)Analyzer.self)])

        """
    }

    var tests: String {
        """
        import AnalyzerHarness
        import Testing
        import \(typeName)

        @Suite("\(typeName)Analyzer")
        struct \(typeName)Tests {
            @Test("a jump in brightness is one change event, at the frame it happens")
            func jump() throws {
                let frames = (0..<10).map { HarnessFrame.filled(64, 48, value: $0 < 6 ? 50 : 120) }
                let events = try AnalyzerHarness(\(typeName)Analyzer.self).run(frames: frames)
                #expect(events.map(\\.frame) == [6])
                let change = try events[0].decode(\(typeName)Analyzer.Change.self)
                #expect(change.before == 50 && change.after == 120)
            }

            @Test("it keeps the rules every analyzer keeps")
            func conformance() throws {
                try AnalyzerHarness(\(typeName)Analyzer.self).checkConformance(invalidOptions: [("threshold", "0")])
            }
        }

        """
    }

    var readme: String {
        """
        # \(typeName)

        A Lumatrace analyzer plugin (`\(analyzerName)`), made by `lumatrace new-analyzer \(typeName)`.

        ```sh
        swift build && swift test      # the analyzer and its tests, without the command line
        \(toolCommand) replay clip.luma --analyzer \(analyzerName) --analyzer trajectory
        \(toolCommand) analyzers \(analyzerName)      # its options
        ```

        - `Sources/\(typeName)/\(typeName)Analyzer.swift`: the analyzer (an example brightness-change detector to edit).
        - `Tests/\(typeName)Tests`: tests with `AnalyzerHarness`, including the conformance check.
        - `Tool/`: `lumatrace` with the built-in analyzers plus this one, a package of its own so that only
          running it compiles the command line (the first time takes a few minutes).

        \(lumatrace.readmeSentence)

        """
    }
}
