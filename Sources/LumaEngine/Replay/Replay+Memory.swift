import LumaFormat
import LumaOutput

extension Replay {
    /// Replays a recording as ``run(_:setups:registry:options:logPath:)`` does, the log kept in
    /// memory instead of a file (the same bytes), and returns it read back.
    ///
    /// For a caller that only measures the log (`sweep` scores each instance of a replay of many),
    /// so nothing is written to disk. An analyzer's failure throws as in a replay to a file, with
    /// no incomplete log to point to.
    public static func runInMemory(_ reader: RecordingReader, setups: [AnalyzerSetup], registry: AnalyzerRegistry,
                                   options: ReplayOptions) throws(ReplayError) -> EventLog {
        let (_, log) = try run(reader, setups: setups, registry: registry, options: options, inMemory: true) { header, _ in
            EventLogWriter(inMemoryWith: header)
        }
        let name = options.recordingName ?? reader.fileName
        do throws(EventLogError) { return try EventLog.parse(log.memoryBytes, path: "(replay of \(name) in memory)") } catch { throw .log(error) }
    }
}
