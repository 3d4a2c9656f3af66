import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine

/// The golden logs of a corpus folder as every shard of a regression sees them: in name order, each
/// with what it costs to replay and the SHA-256 of its bytes, and one digest over all of it.
///
/// Shards that saw the same listing agree on the digest; a golden added, removed or edited between
/// two shards' runs changes it, and `regress merge` refuses to join their parts.
public struct CorpusListing: Sendable, Equatable {
    public struct Golden: Sendable, Equatable {
        /// The golden log's path, as found in the folder.
        public var path: String
        /// Frames replayed × analyzers run: what the assignment balances (time is roughly
        /// proportional to it).
        public var cost: Int
        /// SHA-256 of the golden's bytes, in hex.
        public var sha256: String
    }

    public var goldens: [Golden]
    /// SHA-256 over every golden's name, cost and digest, in hex.
    public var digest: String

    /// Lists `paths` (the goldens of one folder, in name order): reads each log's header for its
    /// cost and hashes its bytes.
    public init(_ paths: [String]) throws {
        goldens = try paths.map { path in
            let header = try EventLog.read(path).header
            let frames = max(0, header.lastFrame - header.firstFrame + 1)
            let digest: String
            do throws(SystemCallError) { digest = try FileDigest.sha256(ofFileAt: path) } catch {
                throw EventLogError(path: path, .readFailed(error))
            }
            return Golden(path: path, cost: max(1, frames) * max(1, header.analyzers.count), sha256: digest)
        }
        digest = Self.digest(of: goldens)
    }

    /// The digest of a listing: SHA-256 over each golden's file name, cost and SHA-256, one line each.
    static func digest(of goldens: [Golden]) -> String {
        var listing = ""
        for g in goldens { listing += "\(URL(fileURLWithPath: g.path).lastPathComponent)\t\(g.cost)\t\(g.sha256)\n" }
        return SHA256Hasher.hash(Array(listing.utf8)).hexString
    }
}
