import DifferencingAnalyzer
import ExternalAnalyzer
import Foundation
import LumaAnalysis
import RectanglesAnalyzer
import Testing
import TrackingAnalyzer
import TrajectoryAnalyzer

/// Every built-in analyzer's configuration read back from its JSON value by ``JSONValueDecoder``:
/// the same configuration, and the same one Foundation's decoder reads from the value's text.
@Suite("Configurations decode from their JSON value without text")
struct ConfigurationDecodingTests {
    /// `configuration` written as a JSON value and read back, directly and through its text.
    func roundTrip<C: AnalyzerConfiguration>(_ configuration: C) throws {
        let value = try JSONValueEncoder.encode(configuration)
        #expect(try value.decode(C.self) == configuration, "\(C.self) does not read back from \(value.serialized)")
        #expect(try value.decode(C.self) == JSONDecoder().decode(C.self, from: Data(value.serialized.utf8)))
    }

    @Test("the defaults of every built-in analyzer read back as they were")
    func defaults() throws {
        try roundTrip(DifferencingConfiguration())
        try roundTrip(TrajectoryConfiguration())
        try roundTrip(TrackingConfiguration())
        try roundTrip(RectanglesConfiguration())
        try roundTrip(ExternalConfiguration())
    }

    @Test("a configuration with every option changed reads back as it was")
    func nonDefaults() throws {
        var differencing = DifferencingConfiguration()
        (differencing.threshold, differencing.mode, differencing.learningRate) = (40, .allCases.last!, 0.125)
        (differencing.minArea, differencing.maxBlobs) = (9, 3)
        try roundTrip(differencing)

        var trajectory = TrajectoryConfiguration()
        (trajectory.trajectoryLength, trajectory.objectMinimumNormalizedRadius, trajectory.objectMaximumNormalizedRadius) = (7, 0.01, 0.5)
        (trajectory.threshold, trajectory.maximumProcessingDimension, trajectory.filter) = (30, 320, .allCases.last!)
        (trajectory.direction, trajectory.minimumConfidence, trajectory.minimumLength, trajectory.design) = (.allCases.last!, 0.25, 4, .tracking)
        try roundTrip(trajectory)

        var tracking = TrackingConfiguration()
        (tracking.seeds, tracking.trackingLevel, tracking.lostThreshold, tracking.lostFrames) = ("seeds.json", .allCases.last!, 0.5, 2)
        (tracking.recoverFrames, tracking.nominate, tracking.renominateEvery) = (12, .allCases.last!, 3)
        (tracking.nominationMinimumSize, tracking.maximumTracks) = (0.1, 8)
        try roundTrip(tracking)

        var rectangles = RectanglesConfiguration()
        (rectangles.minimumAspectRatio, rectangles.maximumAspectRatio, rectangles.minimumSize) = (0.25, 0.75, 0.1)
        (rectangles.minimumConfidence, rectangles.quadratureTolerance, rectangles.maximumObservations) = (0.5, 20, 4)
        try roundTrip(rectangles)

        var external = ExternalConfiguration()
        (external.command, external.folder, external.timeout, external.startTimeout) = ("./detect --fast", "plugins", 2.5, 1)
        external.options = .object(["every": .int(10), "labels": .array([.string("ball"), .null]), "scale": .double(0.5)])
        (external.maximumLineBytes, external.maximumEventsPerFrame, external.maximumBytesPerFrame) = (4096, 10, 1 << 16)
        try roundTrip(external)
    }

    @Test("an option of the wrong kind is refused naming its key, as the log header's reader says it")
    func refusalNamesTheKey() throws {
        var members = try #require(try JSONValueEncoder.encode(TrajectoryConfiguration()).objectValue)
        members[try #require(members.firstIndex { $0.key == "trajectoryLength" })].value = .string("ten")
        let value = JSONValue.object(members)
        let problem = DecodingProblem(try #require(throws: DecodingError.self) { try value.decode(TrajectoryConfiguration.self) })
        #expect(problem == DecodingProblem(path: "trajectoryLength", .mustBe(.wholeNumber, found: "a string")))
        #expect(problem.description == "trajectoryLength must be a whole number (found a string)")
    }
}
