// swift-tools-version: 6.0
//
// lumatrace-bench: Lumatrace's benchmarks, one ArgumentParser subcommand per area: `codec` (the
// default) measures recording and decoding against memcpy, FFV1 and x264-lossless on the same frames;
// `trajectory`, `tracking` and `external` measure the analyzers against OpenCV (opencv-peer/) and an
// in-process analyzer. Each judges its figures against targets.json; `tables` writes the README's
// tables from their `--json` output. A separate package so the main build stays light: build and
// run it with `Benchmarks/run` (release build; arguments go to the benchmark, see `--help`).
import PackageDescription

let package = Package(
    name: "LumatraceBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Lumatrace", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .executableTarget(
            name: "lumatrace-bench",
            dependencies: [
                .product(name: "LumaBase", package: "Lumatrace"),
                .product(name: "LumaAnalysis", package: "Lumatrace"),
                .product(name: "LumaFormat", package: "Lumatrace"),
                .product(name: "LumaSynth", package: "Lumatrace"),
                .product(name: "LumaTruth", package: "Lumatrace"),
                .product(name: "LumaEngine", package: "Lumatrace"),
                .product(name: "LumaRegression", package: "Lumatrace"),
                .product(name: "LumaRecording", package: "Lumatrace"),
                .product(name: "DifferencingAnalyzer", package: "Lumatrace"),
                .product(name: "TrajectoryAnalyzer", package: "Lumatrace"),
                .product(name: "TrackingAnalyzer", package: "Lumatrace"),
                .product(name: "ExternalAnalyzer", package: "Lumatrace"),
                // Not imported, but declared so that SwiftPM rebuilds this target when it changes. The
                // analyzers embed LumaImaging's structs (MotionSegmentation, ConnectedComponents,
                // AdaptiveBackground…) by value, and this target allocates the analyzers on its own
                // stack with the sizes it was compiled against. SwiftPM makes only the declared
                // dependencies' .swiftmodule files inputs of a target, and a module whose interface did not
                // change (TrajectoryAnalyzer's, when only a private stored property of a LumaImaging
                // struct was added) is not rewritten; without this line an incremental release build
                // keeps the old, smaller layout here, the analyzer writes past its stack slot into the
                // events array, and the benchmark crashes appending events (swift-package-manager#10483,
                // #10502; swift#89636).
                .product(name: "LumaImaging", package: "Lumatrace"),
                // Likewise not imported: the programs and threads LumaRecording, LumaEngine and the external
                // analyzer are built on, and the safe output files under the format and the engine.
                .product(name: "LumaProcess", package: "Lumatrace"),
                .product(name: "LumaOutput", package: "Lumatrace"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/lumatrace-bench"),
    ],
    swiftLanguageModes: [.v6]
)
