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
        fuzzer("FuzzRecording", reading: "LumaFormat"),
        fuzzer("FuzzY4M", reading: "LumaFormat"),
        fuzzer("FuzzImage", reading: "LumaFormat"),
        fuzzer("FuzzEventLog", reading: "LumaEngine", support: false),
        fuzzer("FuzzTruth", reading: "LumaTruth"),
    ]
)

/// A libFuzzer harness `Sources/NAME` feeding the readers of the Lumatrace library `product`;
/// with `support`, it writes inputs to a file through FuzzSupport for readers that take a path.
func fuzzer(_ name: String, reading product: String, support: Bool = true) -> Target {
    .executableTarget(
        name: name,
        dependencies: (support ? ["FuzzSupport"] : []) + [.product(name: product, package: "Lumatrace")],
        path: "Sources/" + name)
}
