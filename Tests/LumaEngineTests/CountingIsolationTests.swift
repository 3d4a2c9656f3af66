import Foundation
import LumaAnalysis
import LumaEngine
import LumaTestSupport
import Testing

/// The counting tests (``OptionPathTests``) run beside every other test of the process: what they
/// count must be only the work they measure, whatever other tests decode and validate meanwhile.
@Suite("Counting tests count only their own work")
struct CountingIsolationTests {
    static let registry = AnalyzerRegistry([AnalyzerDescriptor(LevelProbe.self)])

    /// Resolves a `level` setup with `--set level.level=7`: one decode and one validation.
    static func resolveOnce() throws {
        _ = try AnalyzerSetup.resolve(registry.descriptor(named: "level"), overrides: [("level", "7")])
    }

    @Test("decodes and validations another thread makes while a count runs are not in that count")
    func otherThreadNotCounted() throws {
        _ = Self.registry  // made before counting: registering checks the defaults
        let alone = try ConfigurationCounts.counting { try Self.resolveOnce() }
        #expect(alone.decodes >= 1 && alone.validations >= 1, "the probe counted nothing: \(alone)")
        let counts = try ConfigurationCounts.counting {
            // Another test's work, done (and finished: we wait for it) inside this count.
            let done = DispatchSemaphore(value: 0)
            let other = Thread { try? Self.resolveOnce(); try? Self.resolveOnce(); done.signal() }
            other.start()
            done.wait()
            try Self.resolveOnce()
        }
        #expect(counts == alone)
    }

    @Test("a count made inside another count is its own: the outer count holds only its own work")
    func nested() throws {
        _ = Self.registry
        var inner = (decodes: 0, validations: 0)
        let outer = try ConfigurationCounts.counting {
            try Self.resolveOnce()
            inner = try ConfigurationCounts.counting { try Self.resolveOnce() }
        }
        let alone = try ConfigurationCounts.counting { try Self.resolveOnce() }
        #expect(inner == alone)
        #expect(outer.decodes == alone.decodes && outer.validations == alone.validations, "the inner count's work reached the outer")
    }
}
