import Foundation

extension JSONValue {
    /// Decodes this value as `T` (via its canonical text and Foundation's decoder: reading has no
    /// formatting concerns, only writing does).
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(serialized.utf8))
    }
}
