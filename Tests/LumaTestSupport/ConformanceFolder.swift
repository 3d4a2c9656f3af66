import Foundation

/// One folder of the conformance corpus (`Tests/Conformance/recordings`, `logs`): its cases, each a
/// file beside `NAME.expected.json`, which says what a reader must make of it. The Swift suites and
/// the Python reader (`python/tests/test_conformance.py`) walk the same folders.
public struct ConformanceFolder: Sendable, CustomStringConvertible {
    public let url: URL
    /// The NAME of every `NAME.expected.json`, sorted.
    public let cases: [String]

    /// The folder `name` of ``PackageLayout/conformance``.
    public init(_ name: String) {
        url = PackageLayout.conformance.appendingPathComponent(name)
        cases = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
            .filter { $0.hasSuffix(".expected.json") }.map { String($0.dropLast(".expected.json".count)) }.sorted()
    }

    /// What case `name` expects: its `NAME.expected.json`, decoded.
    public func expected<Expected: Decodable>(_ type: Expected.Type, of name: String) throws -> Expected {
        try JSONDecoder().decode(type, from: Data(contentsOf: url.appendingPathComponent("\(name).expected.json")))
    }

    /// The path of case `name`'s file: NAME followed by `suffix` (`.luma`, `.events.jsonl`).
    public func path(of name: String, _ suffix: String) -> String {
        url.appendingPathComponent(name + suffix).path
    }

    public var description: String { url.path }
}
