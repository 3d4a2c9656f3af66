import Foundation

/// A small tmpfs, mounted for `body` on a scratch folder and unmounted after it: a disk that fills
/// up. Mounting needs root (CI runs as root); a test that uses it is enabled only for root
/// (`.enabled(if: SmallDisk.canMount, …)`).
public struct SmallDisk: Sendable {
    /// Where it is mounted.
    public let path: String

    /// Whether this process may mount one.
    public static var canMount: Bool { getuid() == 0 }

    /// Runs `body` with a tmpfs of `kilobytes` mounted, unmounting it when `body` returns or throws.
    public static func with<T>(kilobytes: Int, _ body: (SmallDisk) throws -> T) throws -> T {
        try withScratchFolder("disk") { folder in
            let mount = try ProgramRun.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder])
            guard mount.status == 0 else { throw CannotMount(description: "cannot mount a \(kilobytes) KiB tmpfs at \(folder): \(mount.stderr)") }
            defer { _ = try? ProgramRun.run("/bin/umount", [folder]) }  // before the folder is removed
            return try body(SmallDisk(path: folder))
        }
    }

    /// Names in the disk's root, hidden ones included.
    public func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    public struct CannotMount: Error, CustomStringConvertible { public var description: String }
}
