import ExternalAnalyzer
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaOutput
import LumaRecording
import LumaRegression
import LumaTruth
import Testing
import LumaTestSupport

/// The libraries' errors say what is wrong in the words of files, frames and kinds; which command
/// or flag fixes it is the command line's to add (``FlagHints`` in the CLI), so a Python or other
/// caller of a library never reads a `lumatrace` command line it cannot type.
@Suite("Library errors name no command or flag")
struct LibraryErrorWordsTests {
    /// Every kind of file a recording can be mistaken for.
    static let fileKinds: [FileKind] = [
        .empty, .mp4Video, .aviVideo, .matroskaVideo, .gif, .y4mStream, .png, .jpeg, .pgm, .eventLog, .json,
        .text(start: "hello"), .unrecognized(firstBytes: [0xde, 0xad]),
    ]

    struct Failure: Error, CustomStringConvertible { var description: String { "the disk is full" } }

    /// A sample of each library error whose words the command line completes with a hint.
    static var samples: [any Error] {
        let formats: [any Error] = fileKinds.map { LumaFormatError.notARecording(path: "clip.mp4", looksLike: $0) }
            + fileKinds.map { LumaFormatError.invalidInput(source: "-", frame: nil, problem: .notY4M(looksLike: $0)) }
        let others: [any Error] = [LiveAnalysisError.failed(Failure(), framesAnalyzed: 3, recording: "live.luma"),
                                   RegressionError.recordingNotClosed(path: "toss.luma", log: "toss.events.jsonl"),
                                   DebugImageWriteError(path: "dump/differencing.pgm", underlying: Failure())]
        let logs: [any Error] = eventLogProblems.map { EventLogError(path: "run.events.jsonl", line: 3, $0) }
        let truth: [any Error] = truthProblems.map { TruthError(path: "clip.truth.json", line: 2, $0) }
        let external: [any Error] = externalProblems.map {
            ExternalAnalyzerError(command: "python3 tracker.py", step: .frame(3), $0, folder: externalFolder)
        }
        let images: [any Error] = imageProblems.map { ImageDecodingError(source: "frames/0001.png", $0) }
        let options: [any Error] = optionProblems.map { OptionError(option: "differencing.threshold", $0) }
        let failures: [any Error] = analyzerFailureCauses.map {
            ReplayError.analyzerFailed(analyzer: "trajectory", frame: 4, cause: $0, incompleteLog: .keptAside("a.events.jsonl.failed", existing: "a.events.jsonl"))
        } + decodingReasons.map { TruthError(path: "clip.truth.json", .notTruth(DecodingProblem(path: "ballSegments.[0]", $0))) }
        let sweeps: [any Error] = failures + sweepErrors + sweepFileProblems.map { SweepFileError(path: "out/scores/a.json", problem: $0) }
        return formats + others + logs + truth + external + images + options + sweeps
    }

    /// One of each cause of an analyzer's failure a log's footer records.
    static let analyzerFailureCauses: [AnalyzerFailure.Cause] = [
        .threw("division by zero"), .threwInFinish("boom"), .undeclaredKind("surprise", declared: ["spot"]),
        .notItsShape(kind: "spot", shape: "box", problem: "box is missing"), .repeatedId(kind: "spot", id: "\"a\""),
    ]

    /// One of each reason a JSON value does not decode, with each kind it can be expected to be.
    static let decodingReasons: [DecodingProblem.Reason] = [
        .missing, .null(.number), .invalid("Parsed JSON number <300> does not fit in UInt8."), .doesNotFit("no"),
    ] + [JSONKind.string, .trueOrFalse, .wholeNumber, .number, .array, .object, .arrayOfNumbers, .analyzerName, .seconds, .region, .otherKind]
        .map { .mustBe($0, found: "a string") }

    /// One of each refusal of a sweep's grid, sample, corpus and folders.
    static let sweepErrors: [SweepError] = [
        .notAGrid("trajectory=1"), .otherAnalyzer(grid: "differencing.threshold=1,2", analyzer: "trajectory"),
        .givenTwice(option: "trajectory.trajectoryLength"), .badValues(option: "trajectory.trajectoryLength", text: "1:2", .rangeNotNumbers(counted: true)),
        .badValues(option: "t.a", text: "1:2:1", .countOutside(allowed: 2...64)), .badValues(option: "t.a", text: "0:1e300:2", .valueTooLarge(1e300)),
        .badValues(option: "t.a", text: "1,,2", .emptyValue), .badValues(option: "t.a", text: "2:1", .rangeReversed),
        .badValues(option: "t.a", text: "0:1e20", .rangeTooLarge), .badValues(option: "t.a", text: "1.5:3", .rangeNotWhole),
        .notWhole(option: "t.a", text: "1:2:3", value: "1.5"), .repeated(option: "t.a", text: "1,1", value: "1"),
        .tooManySettings(count: 100, limit: 64, largest: "t.a"), .badSampleCount(count: 0, limit: 64), .sampleSpaceTooSmall(count: 9, space: 4),
        .samplingExhausted(found: 0, wanted: 3, draws: 60, refusal: OptionError(option: "t.a", .outOfRange(value: "0", allowed: "1...9"))),
        .corpusUnreadable(folder: "corpus", SystemCallError(.open, errno: 2)), .noTruth(folder: "corpus", recordings: 2),
        .keptLogsUnwritable(folder: "logs", SystemCallError(.makeFolder, errno: 13)), .keptLogsNotAFolder(folder: "/dev/null", found: "a character device"),
        .keptLogExists(path: "logs/a.s01.events.jsonl"),
        .ambiguousCommas(option: "tracking.seeds", text: "0.1,0.1,0.2,0.2"),
        .badValues(option: "tracking.seeds", text: "[0.1", .malformedList(.unclosed("[0.1"))), .badValues(option: "t.a", text: "0.1]", .malformedList(.unopened("]"))),
        .badValues(option: "t.a", text: #""a"b"#, .malformedList(.textAfterGroup(#""a"b"#))), .badValues(option: "t.a", text: #""\q""#, .malformedList(.notAString(#""\q""#))),
        .notMeasured(measure: "f1", analyzer: "differencing", measures: []),
        .badValues(option: "t.a", text: "0:1", .rangeWithoutCount), .sameValue(option: "t.a", text: "8,08", value: "08", sameAs: "8"),
        .notMeasured(measure: "f1", analyzer: "tracking", measures: ["success-auc", "precision20"]),
    ]

    /// One of each problem a sweep's stored file or part can have.
    static let sweepFileProblems: [SweepFileError.Problem] = [
        .unreadable(SystemCallError(.open, errno: 2)), .notAFile(found: "a folder"), .tooLarge(limit: 1 << 26),
        .cannotMakeFolder(SystemCallError(.makeFolder, errno: 13)), .notA(kind: "a sweep part", .undecodable), .notA(kind: "a sweep part", .notAnObject),
        .notA(kind: "a sweep part", .noFormat("lumatrace-sweep-part")), .notA(kind: "a sweep part", .missingField(key: "grid", location: "")),
        .notA(kind: "a sweep part", .wrongType(location: ".scores[3]")),
        .version(found: 9, readable: 1), .otherSweep(field: "grid", stored: "a", now: "b"), .otherRecording(name: "a.luma", what: "truth"),
        .notInCorpus(name: "b.luma"), .impossible(.scores(count: 3, settings: 4)), .impossible(.settingsNotOfGrid),
        .impossible(.shard(3, of: 2, maximum: 1000)), .impossible(.passes(settings: 0, passSize: 1)), .impossible(.corpusSize(0)),
        .impossible(.notPlainName("../a.luma")), .impossible(.unitOutside(recording: 9, pass: 0)),
        .impossible(.nameTwice("a.luma")), .impossible(.framesOutside(name: "a.luma", frames: -5)),
        .impossible(.unitScores(recording: "a.luma", pass: 0, count: 1, settings: 2)), .impossible(.timings(recording: "a.luma", pass: 0, maximumSeconds: 1e6)),
        .impossible(.implausibleScore(setting: "s01", recording: "a.luma", .foundAboveSegments(found: 5, segments: 3))),
    ]

    /// One of each problem an option can have.
    static let optionProblems: [OptionProblem] = [
        .notA(.integer, text: "abc"), .notA(.number, text: "x"), .notA(.trueOrFalse, text: "maybe"), .notA(.seconds(0...3600), text: "-1"),
        .notA(.region, text: "1,2"), .notJSON(text: "{", jsonFailure), .notValid(text: "1,\"x\"", decodingProblem),
        .notWritableAsJSON(text: "1e999", reason: "not finite"), .notDecodable(.mustBe(.wholeNumber, found: "a string")),
        .notDecodable(.null(.number)), .notDecodable(.invalid("300 does not fit in UInt8")), .notDecodable(.doesNotFit("no")),
        .entryMember(.analyzerName), .entryMember(.region), .entryMember(.seconds), .entryMember(.object),
        .outOfRange(value: "0", allowed: "1...254"), .region([0.5, 0.5, 0.6, 0.2], .pastFrame), .region([2, 0, 1, 1], .originOutside(x: 2, y: 0)),
        .region([0, 0, 0, 1], .empty), .region([.nan, 0, 1, 1], .notFinite), .notAChoice(text: "fancy", choices: ["previous", "background"]),
        .unknownAnalyzer("nope", known: ["differencing"]), .noAnalyzer(known: ["differencing"]),
        .tooManyInstances(count: 65, limit: 64, variable: "LUMATRACE_MAX_ANALYZERS"), .notAnInstanceName("engine"),
        .givenTwice(name: "d", analyzer: "differencing"), .unknownOption(analyzer: "differencing", known: ["threshold"]),
        .entryWithoutName, .configurationDoesNotFit("no"), .analyzerRule("is empty: give the program to run"),
        .framesOutside(0...99, lastFrame: 89), .logFormatVersion(3, readable: 1...2),
    ]

    /// One of each problem an image file or a folder of them can have.
    static let imageProblems: [ImageProblem] = [
        .unreadable(SystemCallError(.open, errno: 13)), .folder, .notARegularFile, .tooLarge(bytes: 300 << 20, limit: 256 << 20),
        .grewPastLimit(limit: 256 << 20),
        .folderUnreadable(SystemCallError(.open, errno: 13)), .noImageFiles, .noSuchFrame(frame: 9, count: 3),
        .sizeDiffers(width: 8, height: 6, sequenceWidth: 4, sequenceHeight: 3, firstFile: "frames/0000.png"),
    ] + imageDataProblems.map { ImageProblem.undecodable($0) }

    /// One of each way an image file's bytes are refused.
    static let imageDataProblems: [ImageDataProblem] = [
        .empty, .notAnImage(start: Array("GIF8".utf8)), .dimensions(.png, width: 20000, height: 100, limit: 16384),
        .tooLittleData(.jpeg, width: 16384, height: 16384, bytes: 900, needed: 524288),
        .truncated(.pngSignature(bytes: 5)), .truncated(.noEnd(.jpeg, bytes: 700)),
        .truncated(.pngChunk(type: "IDAT", offset: 33, declared: 479, available: 100)),
        .truncated(.jpegSegment(marker: 0xDB, offset: 20, declared: 67, available: 12)), .truncated(.jpegScan(bytes: 700, scanOffset: 600)),
        .truncated(.pgmBefore(.maxval)), .truncated(.pgmAfterHeader), .truncated(.pgmRaster(available: 4, needed: 6)),
        .truncated(.pgmPlainRaster(samples: 6, available: 3)), .truncated(.pgmPlainSamples(read: 2, count: 3)),
        .truncated(.decoder(.png, "read error")),
        .corrupt(.pngSignature(start: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0D, 0x0A, 0x1A])), .corrupt(.pngFirstChunk(type: "IDAT", length: 9)),
        .corrupt(.pngChunkType(offset: 33, typeBytes: [0, 1, 2, 3])), .corrupt(.pngChunkLength(type: "IDAT", offset: 33, length: 1 << 31)),
        .corrupt(.pngColorType(colorType: 0, bitDepth: 3)), .corrupt(.pngNoImageData), .corrupt(.jpegNoStart),
        .corrupt(.jpegSecondStart(offset: 9)), .corrupt(.jpegScanBeforeFrame(offset: 9)), .corrupt(.jpegNoScan),
        .corrupt(.jpegSegmentLength(marker: 0xC4, offset: 9, length: 1)), .corrupt(.jpegFrameHeaderLength(marker: 0xC0, offset: 9, length: 12)),
        .corrupt(.jpegSamplingFactor), .corrupt(.pgmMagic), .corrupt(.pgmMaxval(0)), .corrupt(.pgmAfterMaxval(offset: 9, found: 0x41)),
        .corrupt(.pgmFieldMissing(.width, offset: 3, found: 0x78)), .corrupt(.pgmFieldOverLimit(.height, offset: 12, limit: 1 << 24)),
        .corrupt(.pgmFieldNotSeparated(.width, offset: 4, found: 0x78)), .corrupt(.pgmSampleOverMaxval(column: 0, row: 1, value: 16, maxval: 15)),
        .corrupt(.decoderSize(.jpeg, width: 8, height: 8, declaredWidth: 16, declaredHeight: 8)), .corrupt(.decoder(.png, "IDAT: incorrect data check")),
        .unsupported(.jpegProcess(frameMarker: 0xC9)), .unsupported(.jpegPrecision(bits: 12)), .unsupported(.jpegHeightLater),
        .unsupported(.jpegComponents(4)), .unsupported(.decoder(.jpeg, "12-bit precision")),
    ]

    static let externalFolder = ExternalFolder(path: "/work/plugin", configured: "plugin", relativeTo: "the current folder")

    /// One of each problem an external analyzer program can have.
    static let externalProblems: [ExternalAnalyzerProblem] = [
        .folderMissing(externalFolder), .notStarted(signal: "SIGINT"), .cannotStart(.systemCall(program: "/bin/sh", SystemCallError(.spawn, errno: 2))),
        .interrupted(signal: "SIGTERM"), .stoppedReading(end: .exited(3)), .readFailed(.systemCall(program: "/bin/sh", SystemCallError(.read(), errno: 5))),
        .endedOutput(end: .signalled(9)), .endedWithoutAnswering(end: nil), .timedOut(waitingToWrite: true, limit: ExternalTimeLimit(seconds: 2, option: "external.timeout")),
        .didNotExit(limit: ExternalTimeLimit(seconds: 0.5)), .failed(end: .exited(1)), .lineTooLong(limit: 1 << 20), .tooManyBytes(limit: 1 << 24),
        .tooManyEvents(limit: 10000), .refusedToStart(message: "no model"), .reportedError(message: "out of memory"), .notReady(found: "'{}'"),
        .invalidEventDeclaration(found: "'{}'"), .notJSONObject(found: "'hello'"), .notAnEvent(found: "'{}'"), .wrongDone(found: "4", expected: "3"),
    ]

    static let jsonFailure = JSONParser.Failure(offset: 4, problem: .numberOutOfRange("1e999"))
    static let decodingProblem = DecodingProblem(path: "points", .missing)

    /// One of each problem an event log can have.
    static let eventLogProblems: [EventLogProblem] = [
        .unreadable(SystemCallError(.open, errno: 2)), .notAFile(found: "a folder"), .readFailed(SystemCallError(.read(), errno: 5)),
        .tooLarge(bytes: 10, limit: 5), .tooLarge(bytes: nil, limit: 5), .empty, .cutOff, .lineTooLong(limit: 4 << 20),
        .notJSON(jsonFailure), .writingStopped("the disk is full"), .notAnEventLog, .unsupportedVersion(9, readable: 1...2),
        .headerFieldMissing("replay.to"), .headerFieldBelow("replay.to", value: 3, minimum: 50),
        .headerFieldAbove("recording.width", value: 70000, maximum: 65536), .recordingFileNotAName("../clip.luma"),
        .replayPastRecording(lastFrame: 90, frameCount: 90), .invalidRegionOfInterest(analyzer: "trajectory"),
        .invalidEventsEntry(analyzer: "trajectory", entry: "{}"), .notAnEventLine, .outOfFrameOrder(frame: 3, after: 5),
        .outsideReplayedFrames(frame: 99, replayed: 0...89), .notARecordingTime(found: "1e300"),
        .notItsShape(analyzer: "trajectory", kind: "trajectory.end", view: "PathEnd", problem: decodingProblem),
        .footerNotLast, .footerWithoutRecordingFacts, .footerLastFrameMisfits(lastFrame: 1), .footerIncomplete, .footerDigestMismatch,
        .footerEventCount(counted: 3, found: 4), .observationValueOutOfRange(what: "box coordinate", value: 1e300, limit: 1e6),
        .boundingBoxSize(count: 3), .cornerSize(count: 1), .pointSize(point: 1, count: 2),
        .pointFrameOutside(point: 1, frame: -1, frameCount: 90), .pointsOutOfOrder(point: 2, frame: 3, previous: 3),
        .repeatedId(analyzer: "external", kind: "obj", id: "a", frame: 4),
    ]

    /// One of each problem a truth or label file can have.
    static let truthProblems: [TruthProblem] = [
        .unreadable(SystemCallError(.open, errno: 2)), .notAFile(found: "a folder"), .tooLarge(bytes: 10, limit: 5),
        .tooLarge(bytes: nil, limit: 5), .empty, .notJSON(jsonFailure), .notTruth(decodingProblem), .wrongFormat(found: "other"),
        .unsupportedVersion(2), .sizeNotPositive(width: 0, height: 1, frames: 1), .pointNotShape(owner: "ball segment b.1", point: 1, shape: "[frame, x, y, radius]"),
        .pointFrameNotIndex(owner: "object track o", point: 1, frame: 0.5), .pointsOutOfOrder(owner: "object track o", frame: 2, previous: 2),
        .pointPastFrames(owner: "object track o", frame: 9, frames: 9), .pointPastRecording(owner: "object track o", frame: 9, lastFrame: 8),
        .aspectRatio(truthWidth: 4, truthHeight: 3, width: 16, height: 9), .frameSizeNotPositive(width: 0, height: 0),
        .ballRadiusNotPositive(0), .rowValueCount(found: 3, expected: "4 values (x,y,w,h)"), .rowFrameNotIndex(1.5),
        .rowsOutOfOrder(frame: 2, previous: 2), .rowPastRecording(frame: 9, lastFrame: 8), .notANumber("abc"), .noLabels,
        .pointValueOutOfRange(owner: "ball segment b.1", point: 2, value: 1e300, limit: 1e6), .radiusNotPositive(owner: "ball segment b.1", point: 1, radius: -1),
        .noPoints(owner: "ball segment b.1"), .framesPastRecording(frames: 61, frameCount: 60), .labelOutOfRange(value: 1e308, limit: 1e6),
    ]

    /// The words of every sample: the errors', and those of the damage a recording's reader lists.
    static var sampleWords: [String] { samples.map { "\($0)" } + damageCauses.map(\.description) }

    /// The damage `recover` repairs or leaves behind, whose hint names it.
    static let damageCauses: [DamageCause] = [
        .headerCopiesDisagree(copyOffset: 4096, copyUsed: true), .headerReadFromCopy(copyOffset: 4096), .framesRemovedFromIndex,
    ]

    /// The subcommands `lumatrace --help` lists.
    static func commands() throws -> [String] {
        let help = try CLI.run(["--help"]).stdout
        guard let start = help.range(of: "SUBCOMMANDS:") else { return [] }
        return help[start.upperBound...].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first else { return nil }
            return String(word)
        }
    }

    @Test("no sample library error's text holds a lumatrace command line or a --flag")
    func noCommandOrFlag() throws {
        let commands = try Self.commands()
        #expect(commands.contains("record") && commands.contains("replay"), "\(commands)")
        for text in Self.sampleWords {
            #expect(!text.contains("`lumatrace") && !text.contains(" --") && !text.contains("`--"), "\(text)")
            for command in commands {
                #expect(!text.contains("lumatrace \(command)"), "\(text)")
            }
        }
    }

    @Test("an external analyzer's error holds the command, the step and what it wrote or how it ended, and says them")
    func externalAnalyzerWords() {
        let command = "python3 tracker.py"
        let cases: [(ExternalStep?, ExternalAnalyzerProblem, String)] = [
            (.frame(3), .wrongDone(found: "4", expected: "3"), "`python3 tracker.py` answered at frame 3 with {\"done\":4}, expected {\"done\":3}"),
            (.hello, .timedOut(waitingToWrite: false, limit: ExternalTimeLimit(seconds: 3, option: "external.startTimeout")),
             "`python3 tracker.py` did not answer at its hello within the timeout of 3 s (external.startTimeout); it was stopped"),
            (.frame(3), .endedOutput(end: .exited(0)), "`python3 tracker.py` ended its output at frame 3: it exited with status 0"),
            (nil, .failed(end: .exited(127)), "`python3 tracker.py` ended with an error: it exited with status 127"),
            (.end, .notJSONObject(found: "'hello'"),
             "`python3 tracker.py` wrote 'hello' at the end, which is not a JSON object line (print diagnostics to stderr, not stdout)"),
        ]
        for (step, problem, words) in cases {
            #expect(ExternalAnalyzerError(command: command, step: step, problem).description == words)
        }
        let ranElsewhere = ExternalAnalyzerError(command: command, step: .hello, .refusedToStart(message: "no model"), folder: Self.externalFolder)
        #expect(ranElsewhere.description == "`python3 tracker.py` refused to start: no model (it ran in /work/plugin: external.folder \"plugin\" relative to the current folder)")
    }

    @Test("a sweep's refusal names its grid, sample or folder; the command line says the flag that gave it and the flags that fix it")
    func sweepFlags() throws {
        #expect("\(Self.sweepErrors[0])" == "grid 'trajectory=1' is not NAME.KEY=V1,V2,… or NAME.KEY=FROM:TO:COUNT (e.g. trajectory.trajectoryLength=8,10,15)")
        #expect("\(Self.sweepErrors[14])" == "a random sample of 9 settings: the grid holds only 4 distinct settings; draw at most 4, or sweep the whole grid")
        #expect(Self.sweepErrors[14].subject == .sample(count: 9))
        let length = "trajectory.trajectoryLength"
        let cases: [([String], String)] = [
            (["--grid", "trajectory=1"], "--grid 'trajectory=1' is not NAME.KEY=V1,V2,… or NAME.KEY=FROM:TO:COUNT (e.g. trajectory.trajectoryLength=8,10,15)"),
            (["--grid", "\(length)=8.5:10", "--random", "1"], "--grid \(length)=8.5:10: \(length) is an integer: FROM and TO of its range are whole numbers"),
            (["--grid", "\(length)=8,10", "--random", "5"],
             "--random 5: the grid holds only 2 distinct settings; draw at most 2, or sweep the whole grid without --random"),
            (["--grid", "\(length)=8,10", "--set", "\(length)=9"], "--grid \(length) is given twice: give each option once, swept or fixed (with --grid or --set)"),
        ]
        try withScratchFolder("cli") { dir in
            for (arguments, message) in cases {
                let r = try CLI.run(["sweep", "corpus"] + arguments + ["-o", "out"], cwd: dir)
                #expect(r.status == 64, "\(arguments): \(r.stderr)")
                #expect(r.stderr == "lumatrace: error: \(message)\n", "\(arguments)")
            }
        }
    }

    @Test("a damaged file header is listed by info with the command that restores it")
    func recoverHintInInfo() throws {
        try withScratchFolder("cli") { dir in
            let file = URL(fileURLWithPath: dir).appendingPathComponent("flipped.luma")
            try DamagedRecording.write(to: file.path, width: 16, height: 12, frameCount: 30, damagedChunks: []) { i, frame in frame[i] = 200 }
            var bytes = [UInt8](try Data(contentsOf: file))
            bytes[10] ^= 0x04  // inside the file header: its copy is read instead
            try Data(bytes).write(to: file)
            let r = try CLI.run(["info", "flipped.luma"], cwd: dir)
            #expect(r.status == 0, "\(r.stderr)")
            let line = r.stdout.split(separator: "\n").first { $0.contains("damage") }.map(String.init) ?? ""
            #expect(line.contains("the file header is damaged; it was read from its copy at byte "), "\(r.stdout)")
            #expect(line.hasSuffix(" (`lumatrace recover` restores it)"), "\(r.stdout)")
        }
    }

    @Test("a file that looks like a video or an image says so, and the command line adds how to record it")
    func recordHintInTheCLI() throws {
        try withScratchFolder("cli") { dir in
            let cases: [(String, [UInt8], String)] = [
                ("clip.mp4", [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 20),
                 "clip.mp4: not a .luma recording (it looks like an MP4/MOV video); record it first with `lumatrace record VIDEO -o OUT.luma`"),
                ("still.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 24),
                 "still.png: not a .luma recording (it looks like a PNG image); a folder of images is recorded with `lumatrace record FOLDER -o OUT.luma`"),
                ("notes.txt", Array("just some notes\n".utf8),
                 "notes.txt: not a .luma recording (it looks like a text file starting 'just some notes\\n')"),
            ]
            for (name, bytes, message) in cases {
                try Data(bytes).write(to: URL(fileURLWithPath: dir).appendingPathComponent(name))
                let r = try CLI.run(["info", name], cwd: dir)
                #expect(r.status == 2, "\(name): \(r.stderr)")
                #expect(r.stderr == "lumatrace: error: \(message)\n", "\(name): \(r.stderr)")
            }
        }
    }
}
