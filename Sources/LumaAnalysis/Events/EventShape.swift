/// What an event is, for the commands that read logs (`diff`, `score`, `render`, `report`): the
/// shapes they understand in any analyzer's events, built in or not.
///
/// An analyzer declares the shape of each event kind it emits (``EventPayload/shape``); the log
/// header records it, and the payload must then have the shape's fields (the view type in the
/// table decodes it; extra fields are the analyzer's own). An event without a shape is kept
/// and compared as JSON, frame by frame.
///
/// | shape | fields | read as |
/// |---|---|---|
/// | `pathEnd` | `id`, `points` `[[frame, x, y, radius?], …]`, `confidence`, `reason`? | a whole path (``PathEnd``): scored against truth ball segments, paired by points in `diff` |
/// | `pathUpdate` | `id`, `confidence`, drawing hints | the path so far (``PathUpdate``): drawn until its `pathEnd` |
/// | `box` | `id`, `boundingBox` `[x, y, w, h]`, `confidence`, `label`? | a tracked object in this frame (``Box``): scored like OTB, paired by IoU |
/// | `boxLost` | `id` | the tracked object is lost (``ObjectReference``) |
/// | `boxRecovered` | `id`, `boundingBox`, `confidence`, `label`? | found again, same id (``Box``) |
/// | `quadrilateral` | `topLeft`, `topRight`, `bottomRight`, `bottomLeft` `[x, y]`, `confidence`?, `id`? | four corners (``Quadrilateral``); with an `id`, one track's corners |
/// | `blobs` | `changedFraction`, `blobs` `[{"boundingBox": [x, y, w, h]}, …]` | regions of change in this frame (``Blobs``) |
///
/// Coordinates are normalized to the frame with a lower-left origin (``NormalizedRect``); radii
/// are fractions of the frame width.
public enum EventShape: String, Sendable, CaseIterable, Codable {
    case pathEnd, pathUpdate, box, boxLost, boxRecovered, quadrilateral, blobs
}
