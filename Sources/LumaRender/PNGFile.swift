import CImageGlue
import Foundation
import LumaBase
import LumaFormat

/// PNG files through libpng (Debian `libpng-dev`), behind CImageGlue's plain C calls.
public enum PNGFile {
    /// A PNG that could not be written or read.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The image as PNG bytes (zlib level 6: small files, quick enough for contact sheets).
    public static func encode(_ image: RGBImage, level: Int = 6) throws(Failure) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = image.pixels.withUnsafeBufferPointer { rgb in
            lt_png_encode_rgb(rgb.baseAddress, UInt32(image.width), UInt32(image.height), Int32(level), &out, &size, &message, message.count)
        }
        guard status == 0, let out else { throw Failure(description: text(message)) }
        defer { lt_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// The NUL-terminated message the glue wrote.
    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Reads a PNG file as RGB (for tests and reports).
    public static func read(_ path: String) throws(Failure) -> RGBImage {
        let bytes: [UInt8]
        do throws(SystemFile.WholeFileProblem) {
            bytes = try SystemFile.readWhole(path, maximumBytes: ImageFileDecoder.maximumFileSize)
        } catch { throw Failure(description: "\(path): \(error.description)") }
        var w: UInt32 = 0, h: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard lt_png_read_info(bytes, bytes.count, &w, &h, &message, message.count) == 0 else {
            throw Failure(description: "\(path): \(text(message))")
        }
        var image = RGBImage(width: Int(w), height: Int(h))
        let status = image.pixels.withUnsafeMutableBufferPointer { out in
            lt_png_decode_rgb(bytes, bytes.count, out.baseAddress, out.count, &message, message.count)
        }
        guard status == 0 else { throw Failure(description: "\(path): \(text(message))") }
        return image
    }
}
