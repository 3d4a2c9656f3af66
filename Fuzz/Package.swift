// swift-tools-version: 5.4
//
// Lumatrace fuzzing targets: libFuzzer harnesses for the readers that take hostile files (the
// `.luma` recording reader and its recovery scan, Y4M, PGM/PNG/JPEG images, event logs, truth
// files). A separate package so the main build stays light. Build and run them with `Fuzz/run`
// (see README.md): a debug build with `-sanitize=fuzzer,address` and `-parse-as-library`, as
// swift-protobuf's FuzzTesting package does. Tools version 5.4 on purpose: from 5.5 on, SwiftPM
// renames an executable's entry point to `<target>_main` on Linux, which a library-mode target
// (libFuzzer supplies `main`) does not have, so the link fails.
import PackageDescription

let package = Package(
    name: "LumatraceFuzz",
    platforms: [.macOS(.v11)],
    dependencies: [
        .package(name: "Lumatrace", path: ".."),
    ],
    targets: [
        // The harness's own plumbing: writing the input to a file for readers that take a path.
        .target(name: "FuzzSupport", path: "Sources/FuzzSupport"),
        .executableTarget(
            name: "FuzzRecording",
            dependencies: ["FuzzSupport", .product(name: "LumaFormat", package: "Lumatrace")],
            path: "Sources/FuzzRecording"),
        .executableTarget(
            name: "FuzzY4M",
            dependencies: ["FuzzSupport", .product(name: "LumaFormat", package: "Lumatrace")],
            path: "Sources/FuzzY4M"),
        .executableTarget(
            name: "FuzzImage",
            dependencies: ["FuzzSupport", .product(name: "LumaFormat", package: "Lumatrace")],
            path: "Sources/FuzzImage"),
        .executableTarget(
            name: "FuzzEventLog",
            dependencies: [.product(name: "LumaEngine", package: "Lumatrace")],
            path: "Sources/FuzzEventLog"),
        .executableTarget(
            name: "FuzzTruth",
            dependencies: ["FuzzSupport", .product(name: "LumaTruth", package: "Lumatrace")],
            path: "Sources/FuzzTruth"),
    ]
)
