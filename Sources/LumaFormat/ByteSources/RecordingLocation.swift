import LumaBase

/// Where a recording is, as a user typed it: a file's path, or an `http://` or `https://` URL (a
/// web server, or an object store's presigned URL).
///
/// A URL may carry secrets: a password (`https://user:password@host/…`) and, in a presigned URL,
/// a signature in its query. A location therefore shows itself — in `description`, and so in every
/// message, table, report and file that interpolates it — as scheme, host, port and path only, its
/// query and fragment replaced by `?…`; the text that was typed, secrets included, is
/// ``openableText``, for opening the recording and nothing else.
///
/// ```swift
/// let location = RecordingLocation("https://alice:pw@bucket.example/clips/shot.luma?X-Amz-Signature=abc")
/// print(location)            // https://bucket.example/clips/shot.luma?…
/// location.fileName          // "shot.luma"
/// ```
public struct RecordingLocation: Sendable, Hashable, CustomStringConvertible {
    /// What was typed, credentials and query included: only for opening the recording, never for
    /// a message or a file meant to be read by people.
    public let openableText: String
    /// Whether this names a web resource rather than a file.
    public let isURL: Bool

    /// The file's path, or `nil` for a URL: what an output must never replace.
    public var filePath: String? { isURL ? nil : openableText }

    public init(_ text: String) {
        openableText = text
        isURL = ByteSources.isURL(text)
    }

    /// The location as messages show it: a path as it is; a URL without its user name and
    /// password, its query and fragment replaced by `?…`.
    public var description: String {
        guard isURL else { return openableText }
        let parts = URLParts(openableText)
        return parts.scheme + "://" + parts.hostAndPort + parts.path + (parts.hasQueryOrFragment ? "?…" : "")
    }

    /// The recording's file name: a path's last component, or a URL path's last segment (still
    /// percent-encoded, as the server names it).
    public var fileName: String {
        let path = isURL ? URLParts(openableText).path : openableText
        return String(path.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(path))
    }

    /// The recording named `file` inside this location: a folder's file, or for a URL the file
    /// name percent-encoded and joined to the URL's path, before its query (a presigned folder
    /// URL keeps its signature where the server expects it).
    public func appending(fileName file: String) -> RecordingLocation {
        guard isURL else {
            return RecordingLocation(openableText.hasSuffix("/") ? openableText + file : openableText + "/" + file)
        }
        let parts = URLParts(openableText)
        let joined = parts.path.hasSuffix("/") ? parts.path + Self.percentEncoded(file) : parts.path + "/" + Self.percentEncoded(file)
        return RecordingLocation(parts.scheme + "://" + parts.authority + joined + parts.queryAndFragment)
    }

    /// A file name as one URL path segment: unreserved characters kept, every other byte `%XX`.
    private static func percentEncoded(_ name: String) -> String {
        var out = ""
        for byte in SystemPath.bytes(name).dropLast().map({ UInt8(bitPattern: $0) }) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}

/// A URL taken apart where RFC 3986 draws its lines: `scheme://authority` then the path (up to
/// `?` or `#`), then the query and fragment. The authority's user information (before its last
/// `@`) is kept apart from the host and port.
private struct URLParts {
    var scheme: String
    var authority: String
    var hostAndPort: String
    var path: String
    var queryAndFragment: String
    var hasQueryOrFragment: Bool { !queryAndFragment.isEmpty }

    init(_ url: String) {
        let schemeEnd = url.firstRange(of: "://")
        scheme = schemeEnd.map { String(url[..<$0.lowerBound]) } ?? ""
        let rest = schemeEnd.map { url[$0.upperBound...] } ?? url[...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = String(rest[..<authorityEnd])
        self.authority = authority
        hostAndPort = authority.lastIndex(of: "@").map { String(authority[authority.index(after: $0)...]) } ?? authority
        let afterAuthority = rest[authorityEnd...]
        let pathEnd = afterAuthority.firstIndex { $0 == "?" || $0 == "#" } ?? afterAuthority.endIndex
        path = String(afterAuthority[..<pathEnd])
        queryAndFragment = String(afterAuthority[pathEnd...])
    }
}
