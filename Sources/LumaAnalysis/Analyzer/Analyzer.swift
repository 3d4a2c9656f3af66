/// An analyzer plugin: a stateful detector that sees a recording's frames in order and emits events.
///
/// ## Lifecycle
/// 1. The engine validates the configuration (``AnalyzerConfiguration/validate()``), then calls
///    ``init(configuration:context:)`` once per replay. Throw here for settings that are impossible
///    for this particular stream (e.g. a minimum radius larger than the frame).
/// 2. ``analyze(_:into:)`` is called for every analyzed frame, in recording order. Frames closer than
///    the configured `frameAnalysisSpacing` to the previous analyzed frame are not delivered.
/// 3. ``finish(into:)`` is called exactly once after the last frame (also when the replay stops
///    early at `--to`), to flush observations still open.
///
/// ## Rules
/// - **Deterministic**: the same frames and configuration must give the same events, on any machine
///   and thread count. Never read a clock, use random numbers without a fixed seed, or iterate a
///   `Dictionary`/`Set` to produce output. Derive ids from ``StreamInfo/identity`` and ordinals.
/// - **Read-only frames**: a ``Frame``'s pixels are valid only during the call; copy what you keep.
/// - Several analyzers may run concurrently on the same frame, each on its own instance; an
///   instance is never called concurrently with itself.
/// - Events carry normalized coordinates with Vision's lower-left origin (see ``NormalizedRect``).
/// - Bump ``version`` whenever the events an analyzer emits change for the same input.
public protocol Analyzer: SendableMetatype {
    associatedtype Configuration: AnalyzerConfiguration

    /// Stable name used on the command line and in logs, e.g. `"trajectory"`.
    static var name: String { get }
    /// Version of the analyzer's output; recorded in every log header.
    static var version: String { get }
    /// One line for `lumatrace analyzers` and `--help`.
    static var summary: String { get }

    init(configuration: Configuration, context: AnalyzerContext) throws

    /// Analyzes one frame and emits any events for it.
    mutating func analyze(_ frame: Frame, into events: inout EventSink) throws

    /// Flushes observations still open after the last frame. Called exactly once.
    mutating func finish(into events: inout EventSink) throws

    /// The program this configuration starts, for analyzers that run one (`external`: its command);
    /// `nil` (the default) for analyzers that run only their own code. A configuration read from a
    /// file (a pipeline, a log's header) that starts a program runs only when the user allows it
    /// for that run, and the refusal shows this text.
    static func program(in configuration: Configuration) -> String?

    /// Why this configuration can log nothing whatever the frames (tracking with no seeds and no
    /// nomination: nothing to follow), with what to set instead; `nil` (the default) when it has
    /// work. `replay` says it once, so an empty log is never a silent surprise.
    static func idleReason(in configuration: Configuration) -> String?

    /// Option keys whose value is a path relative to the folder of the file the configuration is
    /// written in (see ``AnalyzerContext/configurationFolder``); `replay` re-expresses them when it
    /// writes a log in another folder, so a log and what it names can move together. Default: none.
    static var pathOptions: [String] { get }

    /// The files this instance's program is made of, with their SHA-256 (see ``ProgramFile``):
    /// the log header keeps them, so `verify` and `regress` notice a changed plugin. Default: none.
    var programFiles: [ProgramFile] { get }

    /// The payload types of the events it emits (``EventPayload``), e.g. `[TrackObservation.self,
    /// TrackLost.self]`. The log header records each kind's version and shape, so `diff`, `score`,
    /// `render` and `report` read them without having been built with the analyzer; emitting a
    /// kind not declared here stops the replay. Default: none declared (any kind, read as JSON).
    static var eventTypes: [any EventPayload.Type] { get }

    /// The event kinds this instance emits: by default those of ``eventTypes``; an analyzer whose
    /// kinds are only known once it runs (`external`: the program says) overrides it.
    var eventSchemas: [EventSchema] { get }

    /// The memory one instance keeps under `configuration`, in bytes per pixel of the frame
    /// (width × height): every buffer that grows with the frame, a copy of the previous frame or
    /// a mask counting 1, a 16-bit model 2, a `Float` plane 4, a plane shrunk by 2 in each
    /// direction a quarter of its own. The engine adds a fixed allowance per instance for the rest
    /// (tables, events, a few megabytes), and plans with it: `sweep` runs as many instances over
    /// one decode as fit the memory budget (`LUMATRACE_MEMORY_BUDGET`), and a replay whose
    /// instances do not fit is refused before it starts, with the memory it would need.
    /// Default: ``defaultMemoryPerPixel`` (8), enough for most analyzers that keep a few planes;
    /// say yours when it keeps fewer (more instances fit a pass) or more (a pass must not outgrow
    /// the machine). Measure it as the growth of a replay's peak memory per added instance on
    /// large frames (`/usr/bin/time -v lumatrace replay … --analyzer a=NAME --analyzer b=NAME`).
    static func memoryPerPixel(in configuration: Configuration) -> Double
}

extension Analyzer {
    public static var summary: String { "" }
    public static func program(in configuration: Configuration) -> String? { nil }
    public static func idleReason(in configuration: Configuration) -> String? { nil }
    public static var pathOptions: [String] { [] }
    public var programFiles: [ProgramFile] { [] }
    public static var eventTypes: [any EventPayload.Type] { [] }
    public var eventSchemas: [EventSchema] { Self.eventTypes.map(EventSchema.init) }
    public mutating func finish(into events: inout EventSink) throws {}
    public static func memoryPerPixel(in configuration: Configuration) -> Double { defaultMemoryPerPixel }
    /// What ``memoryPerPixel(in:)`` says when an analyzer does not: 8 bytes per frame pixel.
    public static var defaultMemoryPerPixel: Double { 8 }
}

/// What the engine tells an analyzer at start.
public struct AnalyzerContext: Sendable {
    /// The recording being replayed.
    public var stream: StreamInfo
    /// The part of the frame this analyzer should look at (engine setting `regionOfInterest`).
    public var regionOfInterest: NormalizedRect
    /// Minimum recording time between analyzed frames, in seconds (engine setting `frameAnalysisSpacing`).
    public var frameAnalysisSpacing: Double
    /// Where the analyzer may write debug images, when the user asked for them with
    /// `replay --dump DIR`; `nil` otherwise. Not part of the configuration: it never changes the events.
    public var debugImages: DebugImages?
    /// The name this instance runs under when the replay gave it one (`--analyzer short=trajectory`
    /// runs `trajectory` as `short`), else `nil`. Its events are logged under that name; an analyzer
    /// that derives ids uses ``instanceName(of:)`` so two instances never share an id.
    public var instanceName: String?
    /// The folder that relative paths in the configuration (``Analyzer/pathOptions``) are relative
    /// to: the folder of the event log being written, whose header holds the configuration.
    /// `nil`: the current folder.
    public var configurationFolder: String?

    public init(stream: StreamInfo, regionOfInterest: NormalizedRect = .full, frameAnalysisSpacing: Double = 0,
                debugImages: DebugImages? = nil, instanceName: String? = nil, configurationFolder: String? = nil) {
        self.configurationFolder = configurationFolder
        self.stream = stream
        self.regionOfInterest = regionOfInterest
        self.frameAnalysisSpacing = frameAnalysisSpacing
        self.debugImages = debugImages
        self.instanceName = instanceName
    }

    /// The name the analyzer of type `A` runs under here: its instance name, or `A.name`.
    public func instanceName<A: Analyzer>(of type: A.Type) -> String { instanceName ?? A.name }
}
