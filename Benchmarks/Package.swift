// swift-tools-version: 6.0
//
// lumatrace-bench: measures Lumatrace recording and decoding against memcpy, FFV1 and x264-lossless
// on the same frames, in one run; `lumatrace-bench trajectory` measures the trajectory analyzer's
// speed against OpenCV (opencv-peer/). A separate package so the main build stays light: build and run
// it with `Benchmarks/run` (release build; arguments go to the benchmark, see `--help`).
import PackageDescription

let package = Package(
    name: "LumatraceBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Lumatrace", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "lumatrace-bench",
            dependencies: [
                .product(name: "LumaFormat", package: "Lumatrace"),
                .product(name: "LumaSynth", package: "Lumatrace"),
                .product(name: "LumaTruth", package: "Lumatrace"),
                .product(name: "LumaEngine", package: "Lumatrace"),
                .product(name: "TrajectoryAnalyzer", package: "Lumatrace"),
                .product(name: "TrackingAnalyzer", package: "Lumatrace"),
                .product(name: "ExternalAnalyzer", package: "Lumatrace"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/lumatrace-bench"),
    ],
    swiftLanguageModes: [.v6]
)
