/// The ``DiscProfile`` of every candidate of the last frames, so a path's points can be looked at
/// again once the path is known (which is frames after they were seen, and their pixels gone).
///
/// A ring of ``capacity`` frames: its memory is fixed whatever the clip's length, and a point older
/// than that has no profile (a path then judges its appearance on its newer points).
struct ProfileHistory: Sendable {
    /// A candidate's centre and its profile.
    struct Entry: Sendable {
        var x: Double
        var y: Double
        var profile: DiscProfile
    }

    /// Frames kept: longer than the flights the window design follows.
    static let capacity = 256

    private var frames = [Int](repeating: -1, count: capacity)
    private var entries = [[Entry]](repeating: [], count: capacity)

    /// Keeps `found`, the profiles of frame `frame`'s candidates.
    mutating func store(frame: Int, _ found: [Entry]) {
        let slot = frame % Self.capacity
        frames[slot] = frame
        entries[slot] = found
    }

    /// The profile of the candidate at (`x`, `y`) in frame `frame`, if it is still kept.
    func profile(frame: Int, x: Double, y: Double) -> DiscProfile? {
        let slot = frame % Self.capacity
        guard frame >= 0, frames[slot] == frame else { return nil }
        return entries[slot].first { $0.x == x && $0.y == y }?.profile
    }
}
