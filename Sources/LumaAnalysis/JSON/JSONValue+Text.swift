import LumaBase

/// How the text of a ``JSONValue`` is spread over lines. The layout changes only whitespace: the
/// same value in either layout parses back to the same value.
public enum JSONLayout: Sendable, Equatable {
    /// No whitespace at all: one event per line of an event log.
    case compact
    /// For files people read and diff (truth files): the outermost container and every array
    /// that holds an array or an object put one item per line, indented two spaces more than the
    /// line they open on, their closing bracket on a line of its own at that line's indentation;
    /// every other array and object stays on one line, with `, ` between items and `: ` after a
    /// key. So a list of records reads one record per line, and a record's list of points one
    /// point per line.
    case lines
}

extension JSONValue {
    /// The compact, canonical text of this value (no whitespace).
    public var serialized: String {
        var out = ""
        serialize(into: &out)
        return out
    }

    /// The text of this value in `layout`, without a final newline.
    public func text(_ layout: JSONLayout) -> String {
        var out = ""
        serialize(into: &out, layout: layout)
        return out
    }

    /// Appends the text of this value in `layout` to `out`.
    public func serialize(into out: inout String, layout: JSONLayout = .compact) {
        write(into: &out, layout: layout, indentation: 0, outermost: true)
    }

    /// Writes this value; `indentation` is the number of spaces that start the line it is on.
    private func write(into out: inout String, layout: JSONLayout, indentation: Int, outermost: Bool) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += JSONValue.format(d)
        case .number(let s): out += s
        case .string(let s): JSONString.quote(s, into: &out)
        case .array(let items):
            let oneItemPerLine = layout == .lines && (outermost || items.contains(where: \.isContainer))
            let separated = Separated(layout: layout, oneItemPerLine: oneItemPerLine, indentation: indentation)
            out += "["
            for (i, item) in items.enumerated() {
                separated.beforeItem(i, into: &out)
                item.write(into: &out, layout: layout, indentation: separated.itemIndentation, outermost: false)
            }
            separated.close(count: items.count, into: &out)
            out += "]"
        case .object(let members):
            let separated = Separated(layout: layout, oneItemPerLine: layout == .lines && outermost,
                                      indentation: indentation)
            out += "{"
            for (i, member) in members.enumerated() {
                separated.beforeItem(i, into: &out)
                JSONString.quote(member.key, into: &out)
                out += layout == .compact ? ":" : ": "
                member.value.write(into: &out, layout: layout, indentation: separated.itemIndentation, outermost: false)
            }
            separated.close(count: members.count, into: &out)
            out += "}"
        }
    }

    private var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}

/// The whitespace between the items of one array or object.
private struct Separated {
    let layout: JSONLayout
    let oneItemPerLine: Bool
    /// Spaces that start the line the container opens on.
    let indentation: Int

    /// Spaces that start the line an item is on.
    var itemIndentation: Int { oneItemPerLine ? indentation + 2 : indentation }

    func beforeItem(_ index: Int, into out: inout String) {
        if index > 0 { out += "," }
        if oneItemPerLine {
            out += "\n" + String(repeating: " ", count: itemIndentation)
        } else if index > 0 && layout == .lines {
            out += " "
        }
    }

    func close(count: Int, into out: inout String) {
        if oneItemPerLine && count > 0 { out += "\n" + String(repeating: " ", count: indentation) }
    }
}
