import Foundation
import LumaAnalysis
import LumaEngine

extension AnalyzerHarness {
    /// Checks the rules every analyzer must keep, and throws a ``HarnessFailure`` naming the first
    /// one broken:
    /// 1. **Deterministic**: the same frames give byte-identical logs twice in a row, and with one
    ///    thread or four.
    /// 2. **Options declared once, configuration round-trips**: the configuration's
    ///    `AnalyzerConfiguration/options` are its stored properties, in their order and under
    ///    their names (a property left out would be neither settable nor in the log header), and
    ///    encoding the configuration to JSON and decoding it gives the same JSON, so a log header
    ///    re-runs the same analyzer (`lumatrace verify`).
    /// 3. **Invalid options are refused**: each `(key, value)` in `invalidOptions` (as `--set`
    ///    would give it), and a value of the wrong type for every number or flag option, must be
    ///    refused with an error naming the option.
    /// 4. **Called as promised, events inside the replay**: the analyzer is created once, sees every
    ///    frame, and `finish` is called exactly once, after the last frame; every event is stamped
    ///    with a replayed frame, in order, so nothing comes before the first frame.
    ///
    /// `frames` defaults to 40 frames of a square moving across a 96×64 picture.
    public func checkConformance(frames: [HarnessFrame]? = nil, invalidOptions: [(key: String, value: String)] = []) throws {
        let frames = frames ?? (0..<40).map { HarnessFrame.square(96, 64, x: 2 * $0, y: 20 + $0 / 4, size: 8) }
        try withRecording(of: frames) { path in
            try checkDeterminism(recording: path)
            try checkCalls(recording: path, frameCount: frames.count)
        }
        let json = try checkDeclarations()
        try checkRefusals(of: json, invalidOptions: invalidOptions)
    }

    /// 1. The same log, event for event, on two runs and with four threads.
    private func checkDeterminism(recording path: String) throws {
        let logs = try [(1, "first"), (1, "second"), (4, "four-thread")].map { jobs, name -> (String, [String]) in
            let log = try self.log(recording: path, jobs: jobs)
            return (name, log.events.map { $0.json.serialized })
        }
        for (name, lines) in logs.dropFirst() where lines != logs[0].1 {
            let at = zip(lines, logs[0].1).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(lines.count, logs[0].1.count)
            throw HarnessFailure.notDeterministic(analyzer: A.name, run: name, event: at + 1)
        }
    }

    /// 4. Calls (through a probe around the analyzer), then events within the replayed frames.
    private func checkCalls(recording path: String, frameCount: Int) throws {
        let calls = try CallLedger.shared.measure { run in _ = try self.log(recording: path, probedAs: run) }
        guard calls == CallLedger.Counts(starts: 1, frames: frameCount, finishes: 1, callsAfterFinish: 0) else {
            throw HarnessFailure.calledOtherwise(analyzer: A.name, starts: calls.starts, analyses: calls.frames, finishes: calls.finishes,
                                                 afterFinish: calls.callsAfterFinish, frames: frameCount)
        }
        let log = try self.log(recording: path)
        var last = 0
        for e in log.events {
            guard e.frame >= last, e.frame < frameCount else {
                throw HarnessFailure.eventOutsideReplay(analyzer: A.name, kind: e.kind, frame: e.frame, after: last, frameCount: frameCount)
            }
            last = e.frame
        }
        guard log.isComplete, log.end?.framesReplayed == frameCount else {
            throw HarnessFailure.replayIncomplete(analyzer: A.name, frames: frameCount)
        }
    }

    /// 2. Declarations (every property an option, in order), then the configuration's round trip
    /// through JSON; returns the configuration's JSON.
    private func checkDeclarations() throws -> JSONValue {
        let properties = Mirror(reflecting: A.Configuration()).children.compactMap(\.label)
        let keys = A.Configuration.options.map(\.key)
        guard keys == properties else {
            throw HarnessFailure.optionsNotProperties(analyzer: A.name, options: keys, properties: properties)
        }
        let json = try JSONValueEncoder.encode(configuration)
        let again = try JSONValueEncoder.encode(try json.decode(A.Configuration.self))
        guard json == again else {
            throw HarnessFailure.configurationChanges(analyzer: A.name, json: json.serialized, became: again.serialized)
        }
        return json
    }

    /// 3. Refusals: each of `invalidOptions`, and a value of the wrong type for every number or
    /// flag option of `json`, refused naming the option.
    private func checkRefusals(of json: JSONValue, invalidOptions: [(key: String, value: String)]) throws {
        let descriptor = AnalyzerDescriptor(A.self)
        var wrongTyped: [(key: String, value: String)] = []
        for member in json.objectValue ?? [] {
            switch member.value {
            case .int, .double, .number, .bool: wrongTyped.append((member.key, "not-a-\(member.key)-value"))
            default: continue
            }
        }
        for (key, value) in invalidOptions + wrongTyped {
            var setup = AnalyzerSetup(name: A.name, version: A.version, frameAnalysisSpacing: 0, regionOfInterest: .full, configuration: json)
            do {
                try setup.apply([(key, value)], with: descriptor)
            } catch {
                guard error.option.contains(A.name) else {
                    throw HarnessFailure.refusalNamesNoOption(analyzer: A.name, key: key, value: value, error: "\(error)")
                }
                continue
            }
            throw HarnessFailure.invalidValueAccepted(analyzer: A.name, key: key, value: value)
        }
    }
}
