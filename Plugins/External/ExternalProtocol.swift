import LumaAnalysis

/// The wire format between Lumatrace and an external analyzer program (protocol version 1).
///
/// Lumatrace writes to the program's **stdin**:
/// 1. one **hello** line of JSON:
///    `{"lumatrace":"external-analyzer","protocol":1,"stream":{"width":…,"height":…,"timescale":…,`
///    `"nominalFrameRate":…,"frameCount":null,"identity":"…"},"regionOfInterest":[x,y,w,h],`
///    (`frameCount` is known only when replaying into a version-1 log; `identity` names the stream,
///    for derived ids: see `StreamInfo`)
///    `"frameAnalysisSpacing":…,"options":{…}}`
/// 2. for each analyzed frame, a 40-byte little-endian **frame header** and then `width × height`
///    luma bytes (top row first):
///    `"LTFR"` · u32 width · u32 height · u32 reserved (0) · i64 frame index · i64 timestamp ticks ·
///    i64 timescale (ticks per second);
/// 3. at the end, a 40-byte header with magic `"LTEN"` (all other fields 0), then stdin closes.
///
/// The program writes to its **stdout**, one JSON object per line:
/// - `{"ready":true}` once, after reading the hello (or `{"error":"…"}` to refuse the options);
///   it may declare its event kinds there, `{"ready":true,"events":[{"kind":"spot","version":1,`
///   `"shape":"box"}]}` (see `EventShape`), so the stock commands draw, score and diff them;
///   it may then emit only those kinds;
/// - for each frame, any number of events `{"kind":"brightness","data":{…}}`, then
///   `{"done":FRAME_INDEX}`;
/// - after `LTEN`, any final events, then `{"done":"end"}`, and it exits.
/// A line `{"error":"…"}` at any point stops the replay with that message. Anything else on
/// stdout is a protocol error; use stderr for diagnostics (it is passed through).
public enum ExternalProtocol {
    public static let version = 1
    public static let frameHeaderSize = 40
    public static let frameMagic = Array("LTFR".utf8)
    public static let endMagic = Array("LTEN".utf8)

    /// The hello line (with its newline).
    static func hello(_ context: AnalyzerContext, options: JSONValue) -> [UInt8] {
        let s = context.stream, r = context.regionOfInterest
        let json = JSONValue.object([
            "lumatrace": .string("external-analyzer"),
            "protocol": .int(Int64(version)),
            "stream": .object([
                "width": .int(Int64(s.width)), "height": .int(Int64(s.height)), "timescale": .int(s.timescale),
                "nominalFrameRate": .double(s.nominalFrameRate),
                // Known in advance only by a replay that writes a version-1 log; null otherwise.
                "frameCount": s.frameCount.map { .int(Int64($0)) } ?? .null,
                "identity": .string(s.identity),
            ]),
            "regionOfInterest": .array([r.x, r.y, r.width, r.height].map(JSONValue.double)),
            "frameAnalysisSpacing": .double(context.frameAnalysisSpacing),
            "options": options,
        ])
        return Array((json.serialized + "\n").utf8)
    }

    /// The 40-byte header before a frame's pixels, or the end marker.
    static func header(magic: [UInt8], width: Int, height: Int, index: Int, ticks: Int64, timescale: Int64) -> [UInt8] {
        var out = magic
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        put(UInt32(width))
        put(UInt32(height))
        put(UInt32(0))
        put(Int64(index))
        put(ticks)
        put(timescale)
        return out
    }
}
