import LumaAnalysis
import LumaBase

/// The text of a swept option's list of values (`--grid NAME.KEY=LIST`), read and written.
///
/// Values are separated by commas. A value that holds commas itself (a box `0.1,0.1,0.2,0.2`, a
/// list option, a JSON object) is grouped: in brackets or braces, `[0,0,1,1]` or `{"every":10}`,
/// kept as written (JSON, as `--set` reads it), or in double quotes, `"0.1,0.1,0.2,0.2"`, the
/// quotes removed (a JSON string: `\"` and `\\` inside). Commas inside a group do not separate.
public enum SweepValueList {
    /// One value of a list, and whether it was grouped (so its commas are its own).
    struct Item: Equatable {
        var value: String
        var grouped: Bool
    }

    /// Whether `text` is to be read as a list even when it has a range's colons: it holds a group.
    static func hasGroups(_ text: String) -> Bool {
        text.contains { $0 == "[" || $0 == "{" || $0 == "\"" }
    }

    /// The values of `text`, in order; a refusal when a group is not closed, a quoted
    /// value is not a JSON string, or text follows a group before the next comma.
    static func items(_ text: String) -> Result<[Item], Refusal> {
        var items: [Item] = []
        var current = ""
        var depth = 0, inString = false, escaped = false, grouped = false, closed = false
        func finish() -> Refusal? {
            if current.hasPrefix("\"") {
                guard case .string(let s)? = try? JSONParser.parse(current) else { return .notAString(current) }
                items.append(Item(value: s, grouped: true))
            } else {
                items.append(Item(value: current, grouped: grouped))
            }
            (current, grouped, closed) = ("", false, false)
            return nil
        }
        for c in text {
            if inString {
                current.append(c)
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" {
                    inString = false
                    closed = depth == 0
                }
                continue
            }
            if c == "," && depth == 0 {
                if let refusal = finish() { return .failure(refusal) }
                continue
            }
            if closed { return .failure(.textAfterGroup(current)) }
            switch c {
            case "\"" where depth > 0 || current.isEmpty: inString = true; grouped = true
            case "[", "{": depth += 1; grouped = true
            case "]", "}":
                guard depth > 0 else { return .failure(.unopened(c)) }
                depth -= 1
                closed = depth == 0
            default: break
            }
            current.append(c)
        }
        guard depth == 0, !inString else { return .failure(.unclosed(current)) }
        if let refusal = finish() { return .failure(refusal) }
        return .success(items)
    }

    /// Why a list's text does not read.
    public enum Refusal: Error, Equatable, Sendable {
        case unclosed(String)
        case unopened(Character)
        case textAfterGroup(String)
        case notAString(String)

        public var reason: String {
            switch self {
            case .unclosed(let item): "\(item) is not closed (a value holding commas is written in [ ], { } or \" \")"
            case .unopened(let c): "a \(c) closes nothing"
            case .textAfterGroup(let item): "\(item): a value in [ ], { } or \" \" is followed by a comma or the end"
            case .notAString(let item): "\(item) is not a quoted string (write \\\" and \\\\ inside quotes)"
            }
        }
    }

    /// The text of `values` as a list that reads back to them: a value holding a comma, or that
    /// starts a group, is written in double quotes.
    static func text(_ values: [String]) -> String {
        values.map { value in
            value.contains(",") || hasGroups(value) ? JSONValue.string(value).serialized : value
        }.joined(separator: ",")
    }
}
