import Foundation
import LumaAnalysis
import LumaEngine
import LumaRegression
import Testing
import LumaTestSupport

/// The bundled golden logs, edited the way a detector change would change them, then written out
/// and read back like any log.
enum EditedLog {
    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recordings")

    static func golden(_ name: String) throws -> EventLog {
        try EventLog.read(recordings.appendingPathComponent("\(name).events.jsonl").path)
    }

    /// `log` with its events replaced by `edit`'s, written by the log writer (fresh footer).
    static func edited(_ log: EventLog, _ edit: (inout [LoggedEvent]) -> Void) throws -> EventLog {
        var events = log.events
        edit(&events)
        let path = Scratch.path("edited.events.jsonl")
        let writer = try EventLogWriter(path: path, header: log.header)
        for e in events { try writer.write(e) }
        try writer.finish(framesReplayed: log.header.lastFrame - log.header.firstFrame + 1, ending: log.header.ending)
        return try EventLog.read(path)
    }

    /// The payload with `key` replaced.
    static func setting(_ data: JSONValue, _ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = data, let i = members.firstIndex(where: { $0.key == key }) else { return data }
        members[i].value = value
        return .object(members)
    }

    /// The first `trajectory.end` event's trajectory id.
    static func firstTrajectoryId(_ log: EventLog) -> String {
        log.events.first { $0.kind == "trajectory.end" }!.data["id"]!.stringValue!
    }
}

@Suite("lumatrace diff: a semantic comparison of two logs")
struct LogDiffTests {
    @Test("a log compared with itself has no differences", arguments: ["balls-synth", "tracking-synth", "toss-real"])
    func sameLog(name: String) throws {
        let log = try EditedLog.golden(name)
        let diff = try LogDiff(old: log, new: log)
        #expect(diff.isSame)
        #expect(diff.changes.isEmpty)
        #expect(diff.settingChanges.isEmpty)
    }

    @Test("moving three points of one trajectory by 3 px is one change of that trajectory")
    func pointMoved() throws {
        let old = try EditedLog.golden("balls-synth")
        let id = EditedLog.firstTrajectoryId(old)
        let width = Double(old.header.width)
        let new = try EditedLog.edited(old) { events in
            let i = events.firstIndex { $0.kind == "trajectory.end" && $0.data["id"]?.stringValue == id }!
            var points = events[i].data["points"]!.arrayValue!
            for k in 2..<5 {
                var p = points[k].arrayValue!
                p[1] = .double(p[1].doubleValue! + 3 / width)
                points[k] = .array(p)
            }
            events[i].data = EditedLog.setting(events[i].data, "points", .array(points))
        }
        let diff = try LogDiff(old: old, new: new)
        #expect(diff.changes.count == 1)
        let change = try #require(diff.changes.first)
        #expect(change.kind == .changed)
        #expect(change.subject == "trajectory")
        #expect(change.oldId == id && change.newId == id)
        #expect(change.details == ["points moved in 3 of \(old.events.first { $0.data["id"]?.stringValue == id && $0.kind == "trajectory.end" }!.data["points"]!.arrayValue!.count) frames, up to 3.0 px"])
    }

    @Test("a point moved less than the tolerance is no difference")
    func pointWithinTolerance() throws {
        let old = try EditedLog.golden("balls-synth")
        let id = EditedLog.firstTrajectoryId(old)
        let new = try EditedLog.edited(old) { events in
            let i = events.firstIndex { $0.kind == "trajectory.end" && $0.data["id"]?.stringValue == id }!
            var points = events[i].data["points"]!.arrayValue!
            var p = points[0].arrayValue!
            p[2] = .double(p[2].doubleValue! + 0.5 / Double(old.header.height))
            points[0] = .array(p)
            events[i].data = EditedLog.setting(events[i].data, "points", .array(points))
        }
        #expect(try LogDiff(old: old, new: new).isSame)
    }

    @Test("removing a trajectory is reported once as lost, adding it once as added")
    func trajectoryRemovedAndAdded() throws {
        let full = try EditedLog.golden("balls-synth")
        let id = EditedLog.firstTrajectoryId(full)
        let without = try EditedLog.edited(full) { $0.removeAll { $0.data["id"]?.stringValue == id } }

        let removed = try LogDiff(old: full, new: without)
        #expect(removed.changes.map(\.kind) == [.lost])
        #expect(removed.changes.first?.oldId == id && removed.changes.first?.newId == nil)

        let added = try LogDiff(old: without, new: full)
        #expect(added.changes.map(\.kind) == [.added])
        #expect(added.changes.first?.newId == id && added.changes.first?.oldId == nil)
    }

    @Test("when a lost throw's id is reused by another, changed throw, each row names both logs' ids and they differ")
    func reusedId() throws {
        let old = try EditedLog.golden("balls-synth")
        let ids = old.events.filter { $0.kind == "trajectory.end" }.map { $0.data["id"]!.stringValue! }
        let (first, second) = (ids[0], ids[1])
        // The new log loses the first throw; the second moves by 3 px and takes the first one's id.
        let new = try EditedLog.edited(old) { events in
            events.removeAll { $0.data["id"]?.stringValue == first }
            for i in events.indices where events[i].data["id"]?.stringValue == second {
                events[i].data = EditedLog.setting(events[i].data, "id", .string(first))
                guard events[i].kind == "trajectory.end" else { continue }
                let points = events[i].data["points"]!.arrayValue!.map { p -> JSONValue in
                    var q = p.arrayValue!
                    q[1] = .double(q[1].doubleValue! + 3 / Double(old.header.width))
                    return .array(q)
                }
                events[i].data = EditedLog.setting(events[i].data, "points", .array(points))
            }
        }
        let diff = try LogDiff(old: old, new: new)
        let lost = try #require(diff.changes.first { $0.kind == .lost })
        let changed = try #require(diff.changes.first { $0.kind == .changed })
        #expect(lost.oldId == first && lost.newId == nil)
        #expect(changed.oldId == second && changed.newId == first)
    }

    @Test("a trajectory that only got another id (renumbered) is the same trajectory")
    func renumbered() throws {
        let old = try EditedLog.golden("balls-synth")
        let id = EditedLog.firstTrajectoryId(old)
        let new = try EditedLog.edited(old) { events in
            for i in events.indices where events[i].data["id"]?.stringValue == id {
                events[i].data = EditedLog.setting(events[i].data, "id", .string("00000000-0000-5000-8000-000000000000"))
            }
        }
        #expect(try LogDiff(old: old, new: new).isSame)
    }

    @Test("a track whose box drifts from frame 40 is one change naming the frames and the lowest IoU")
    func trackDrift() throws {
        let old = try EditedLog.golden("tracking-synth")
        let id = old.events.first { $0.kind == "track" }!.data["id"]!.stringValue!
        let new = try EditedLog.edited(old) { events in
            for i in events.indices where events[i].kind == "track" && events[i].frame >= 40 && events[i].data["id"]?.stringValue == id {
                var box = events[i].data["boundingBox"]!.arrayValue!.map { $0.doubleValue! }
                box[0] += box[2] / 2  // half a box to the right: IoU 1/3
                events[i].data = EditedLog.setting(events[i].data, "boundingBox", .array(box.map(JSONValue.double)))
            }
        }
        let diff = try LogDiff(old: old, new: new)
        #expect(diff.changes.count == 1)
        let change = try #require(diff.changes.first)
        #expect(change.kind == .changed && change.subject == "track" && change.oldId == id && change.newId == id)
        #expect(change.details == ["box drifts in 50 frames from frame 40, IoU with the old box down to 0.33"])
    }

    @Test("a track whose box moved off its old place in every frame is that track drifting, not one lost and one added")
    func trackMovedEverywhere() throws {
        let old = try EditedLog.golden("tracking-synth")
        let id = old.events.first { $0.kind == "track" }!.data["id"]!.stringValue!
        let new = try EditedLog.edited(old) { events in
            for i in events.indices where events[i].kind == "track" && events[i].data["id"]?.stringValue == id {
                var box = events[i].data["boundingBox"]!.arrayValue!.map { $0.doubleValue! }
                box[0] += box[2] * 0.75  // three quarters of a box to the right: IoU 1/7, below the 0.5 content pairs need
                events[i].data = EditedLog.setting(events[i].data, "boundingBox", .array(box.map(JSONValue.double)))
            }
        }
        let diff = try LogDiff(old: old, new: new)
        #expect(diff.changes.map(\.kind) == [.changed], "\(diff.lines())")
        let change = try #require(diff.changes.first)
        #expect(change.oldId == id && change.newId == id)
        #expect(change.details.first?.hasPrefix("box drifts in") == true, "\(change.details)")
    }

    @Test("changed differencing statistics are one change for the analyzer")
    func differencingChanged() throws {
        let old = try EditedLog.golden("balls-synth")
        let new = try EditedLog.edited(old) { events in
            for i in events.indices where events[i].kind == "diff" && (10...12).contains(events[i].frame) {
                events[i].data = EditedLog.setting(events[i].data, "changedFraction", .double(0.5))
            }
        }
        let diff = try LogDiff(old: old, new: new)
        #expect(diff.changes.count == 1)
        #expect(diff.changes.first?.subject == "differencing")
        #expect(diff.changes.first?.frames == 10...12)
        #expect(diff.changes.first?.details.first == "statistics differ in 3 frames")
    }

    @Test("logs of different recordings are refused, unless forced")
    func differentRecordings() throws {
        let (a, b) = (try EditedLog.golden("balls-synth"), try EditedLog.golden("tracking-synth"))
        #expect {
            try LogDiff(old: a, new: b)
        } throws: { error in
            // The library names no flag; `lumatrace diff` adds `--force` (FlagHints).
            guard case RegressionError.otherRecording = error else { return false }
            return "\(error)".contains("is a log of another recording") && !"\(error)".contains("--force")
        }
        let forced = try LogDiff(old: a, new: b, force: true)
        #expect(!forced.isSame)
    }

    // MARK: - Pairing by content, and where each object is

    /// The ids of the `trajectory.end` events, in log order.
    static func trajectoryIds(_ log: EventLog) -> [String] {
        log.events.filter { $0.kind == "trajectory.end" }.map { $0.data["id"]!.stringValue! }
    }

    @Test("after one lost path every later id shifts by one; each path still pairs with itself: one lost, nothing changed")
    func shiftedIds() throws {
        let old = try EditedLog.golden("balls-synth")
        let ids = Self.trajectoryIds(old)
        try #require(ids.count > 3)
        // The first path is lost, and each later one takes the id of the one before it, as ordinals do.
        let next = Dictionary(uniqueKeysWithValues: zip(ids.dropFirst(), ids))
        let new = try EditedLog.edited(old) { events in
            events.removeAll { $0.data["id"]?.stringValue == ids[0] }
            for i in events.indices {
                if let id = events[i].data["id"]?.stringValue, let shifted = next[id] { events[i].data = EditedLog.setting(events[i].data, "id", .string(shifted)) }
            }
        }
        let diff = try LogDiff(old: old, new: new)
        #expect(diff.changes.map(\.kind) == [.lost], "\(diff.lines())")
        #expect(diff.changes.first?.oldId == ids[0])
    }

    @Test("two tracks that swapped ids are the same tracks: no difference")
    func swappedTrackIds() throws {
        let old = try EditedLog.golden("tracking-synth")
        var seen: [String] = []
        for e in old.events where e.kind == "track" { if let id = e.data["id"]?.stringValue, !seen.contains(id) { seen.append(id) } }
        try #require(seen.count >= 2)
        let (a, b) = (seen[0], seen[1])
        let new = try EditedLog.edited(old) { events in
            for i in events.indices {
                switch events[i].data["id"]?.stringValue {
                case a?: events[i].data = EditedLog.setting(events[i].data, "id", .string(b))
                case b?: events[i].data = EditedLog.setting(events[i].data, "id", .string(a))
                default: break
                }
            }
        }
        let diff = try LogDiff(old: old, new: new)
        #expect(diff.isSame, "\(diff.lines())")
    }

    @Test("a path found twice pairs with the copy that kept its id; the other is added, on every run")
    func duplicateTieBreak() throws {
        let old = try EditedLog.golden("balls-synth")
        let id = EditedLog.firstTrajectoryId(old)
        let copy = "00000000-0000-5000-8000-000000000000"
        let new = try EditedLog.edited(old) { events in
            // The copy comes first in the log, so order alone would pair it.
            let i = events.firstIndex { $0.kind == "trajectory.end" && $0.data["id"]?.stringValue == id }!
            var duplicate = events[i]
            duplicate.data = EditedLog.setting(duplicate.data, "id", .string(copy))
            events.insert(duplicate, at: i)
        }
        for _ in 0..<2 {
            let diff = try LogDiff(old: old, new: new)
            #expect(diff.changes.count == 1)
            #expect(diff.changes.first?.kind == .added && diff.changes.first?.newId == copy, "\(diff.lines())")
        }
    }

    @Test("a change says where its object is: the centre in pixels from the top left, first frame → last frame")
    func place() throws {
        let old = try EditedLog.golden("balls-synth")
        let id = EditedLog.firstTrajectoryId(old)
        let end = try #require(old.events.first { $0.kind == "trajectory.end" && $0.data["id"]?.stringValue == id })
        let points = try #require(end.data["points"]?.arrayValue).map { $0.arrayValue!.map { $0.doubleValue! } }
        let new = try EditedLog.edited(old) { $0.removeAll { $0.data["id"]?.stringValue == id } }
        let lost = try #require(try LogDiff(old: old, new: new).changes.first)
        let (w, h) = (Double(old.header.width), Double(old.header.height))
        let (first, last) = (try #require(points.first), try #require(points.last))
        let place = try #require(lost.place)
        #expect(abs(place.start.x - first[1] * w) < 1e-9 && abs(place.start.y - (1 - first[2]) * h) < 1e-9)
        #expect(abs(place.end.x - last[1] * w) < 1e-9 && abs(place.end.y - (1 - last[2]) * h) < 1e-9)
        // The table shows it in whole pixels, under its own heading.
        let lines = try LogDiff(old: old, new: new).lines()
        let heading = try #require(lines.first { $0.hasPrefix("change ") })
        #expect(heading.contains("frames") && heading.contains("where (px)"))
        let row = try #require(lines.first { $0.hasPrefix("lost ") })
        #expect(row.contains(place.text), "\(row)")
        #expect(place.text == "\(Int((first[1] * w).rounded())),\(Int(((1 - first[2]) * h).rounded())) → \(Int((last[1] * w).rounded())),\(Int(((1 - last[2]) * h).rounded()))")
    }

    @Test("a track's place is its box's centre")
    func trackPlace() throws {
        let old = try EditedLog.golden("tracking-synth")
        let id = old.events.first { $0.kind == "track" }!.data["id"]!.stringValue!
        let boxes = old.events.filter { $0.kind == "track" && $0.data["id"]?.stringValue == id }
        let new = try EditedLog.edited(old) { $0.removeAll { $0.data["id"]?.stringValue == id } }
        let lost = try #require(try LogDiff(old: old, new: new).changes.first { $0.kind == .lost })
        let box = try #require(boxes.first?.data["boundingBox"]?.arrayValue).map { $0.doubleValue! }
        let (w, h) = (Double(old.header.width), Double(old.header.height))
        let start = try #require(lost.place?.start)
        #expect(abs(start.x - (box[0] + box[2] / 2) * w) < 1e-9 && abs(start.y - (1 - box[1] - box[3] / 2) * h) < 1e-9)
    }
}
