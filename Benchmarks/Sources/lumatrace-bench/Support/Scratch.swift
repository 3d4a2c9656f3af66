import Foundation

/// A private folder for one run's files: in /dev/shm (memory-backed, so file I/O is not what is
/// measured) or, without it, in the temp dir; removed when the run ends.
enum Scratch {
    /// Runs `body` with a new scratch folder's path and where it lives in words ("/dev/shm" or
    /// "the temp dir (…)"), then removes the folder and everything in it.
    static func withFolder<T>(_ body: (_ path: String, _ kind: String) throws -> T) throws -> T {
        let shm = FileManager.default.fileExists(atPath: "/dev/shm")
        let base = shm ? "/dev/shm" : NSTemporaryDirectory()
        var template = Array((base as NSString).appendingPathComponent("lumatrace-bench.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw InputError("cannot create a scratch folder in \(base)") }
        let path = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path, shm ? "/dev/shm" : "the temp dir (\(base))")
    }
}

/// Size of a file in bytes.
func fileSize(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    guard let size = (attributes[.size] as? NSNumber)?.intValue else { throw InputError("\(path): size unknown") }
    return size
}
