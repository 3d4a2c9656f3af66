import LumaBase
import LumaFormat

/// PNG files of pictures, through LumaFormat's ``ColorPNG`` (libpng's one owner).
public enum PNGFile {
    /// A PNG that could not be written or read.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The image as PNG bytes (zlib level 6: small files, quick enough for contact sheets).
    public static func encode(_ image: RGBImage, level: Int = 6) throws(Failure) -> [UInt8] {
        do { return try ColorPNG.encode(rgb: image.pixels, width: image.width, height: image.height, level: level) } catch {
            throw Failure(description: error.description)
        }
    }

    /// Reads a PNG file as RGB (for tests and reports).
    public static func read(_ path: String) throws(Failure) -> RGBImage {
        let bytes: [UInt8]
        do throws(SystemFile.WholeFileProblem) {
            bytes = try SystemFile.readWhole(path, maximumBytes: ImageFileDecoder.maximumFileSize)
        } catch { throw Failure(description: "\(path): \(error.description)") }
        let picture: (width: Int, height: Int, rgb: [UInt8])
        do { picture = try ColorPNG.decode(bytes) } catch { throw Failure(description: "\(path): \(error.description)") }
        return RGBImage(width: picture.width, height: picture.height, rgb: picture.rgb)
    }
}
