// libFuzzer target for the event-log reader (`EventLog.parse`, and the JSON parser under it). Any
// error thrown is fine; a trap, a sanitizer report or a hang is a finding.
// Build and run with `Fuzz/run FuzzEventLog` (see Fuzz/README.md).
import LumaEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let log = try? EventLog.parse(bytes, path: "fuzz.events.jsonl") {
        // What was read must print again (the header and every event).
        _ = log.header.json.serialized
        for event in log.events { _ = event.json.serialized }
        _ = log.isComplete
    }
    return 0
}
