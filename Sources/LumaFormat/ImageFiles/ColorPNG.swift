import CImageGlue

/// Colour PNGs in memory: 8-bit RGB encoded and decoded by libpng behind CImageGlue's plain C calls.
///
/// LumaFormat is libpng's one owner: image files are decoded to luma here (``ImageFileDecoder``),
/// and the pictures LumaRender draws are written and read back through this type.
public enum ColorPNG {
    /// A PNG that libpng could not write or read, in libpng's words.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// `rgb` (3 bytes per pixel, top row first, `width × height` pixels) as PNG bytes, compressed at
    /// zlib `level` 0...9.
    public static func encode(rgb: [UInt8], width: Int, height: Int, level: Int) throws(Failure) -> [UInt8] {
        precondition(rgb.count == width * height * 3, "\(rgb.count) bytes are not \(width)x\(height) RGB pixels")
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let outcome = ImageFileDecoder.withMessageBuffer { message, capacity in
            rgb.withUnsafeBufferPointer { pixels in
                lt_png_encode_rgb(pixels.baseAddress, UInt32(width), UInt32(height), Int32(level), &out, &size, message, capacity)
            }
        }
        guard outcome.status == Int32(LT_OK), let out else { throw Failure(description: outcome.message) }
        defer { lt_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// The picture a PNG holds, as 8-bit RGB (gray replicated, 16-bit samples by their high byte,
    /// alpha dropped).
    public static func decode(_ bytes: [UInt8]) throws(Failure) -> (width: Int, height: Int, rgb: [UInt8]) {
        var width: UInt32 = 0, height: UInt32 = 0
        let info = ImageFileDecoder.withMessageBuffer { message, capacity in
            lt_png_read_info(bytes, bytes.count, &width, &height, message, capacity)
        }
        guard info.status == Int32(LT_OK) else { throw Failure(description: info.message) }
        var rgb = [UInt8](repeating: 0, count: Int(width) * Int(height) * 3)
        let outcome = ImageFileDecoder.withMessageBuffer { message, capacity in
            rgb.withUnsafeMutableBufferPointer { out in
                lt_png_decode_rgb(bytes, bytes.count, out.baseAddress, out.count, message, capacity)
            }
        }
        guard outcome.status == Int32(LT_OK) else { throw Failure(description: outcome.message) }
        return (Int(width), Int(height), rgb)
    }
}
