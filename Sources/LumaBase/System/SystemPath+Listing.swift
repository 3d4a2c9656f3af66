#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SystemPath {
    /// The names in `folder` (not `.` and `..`), in the order the file system gives them: sort
    /// them where order matters. A name that is not UTF-8 keeps its bytes (``string(fromBytes:)-([UInt8])``).
    /// Throws `.list`.
    package static func entries(of folder: String) throws(SystemCallError) -> [String] {
        guard let dir = opendir(bytes(folder)) else { throw SystemCallError(.list) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                string(fromBytes: Array(raw.prefix { $0 != 0 }))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
