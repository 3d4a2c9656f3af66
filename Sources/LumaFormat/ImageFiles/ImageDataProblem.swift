/// Why the bytes of an image file are not an image this reader decodes, or not a whole one
/// (``ImageProblem/undecodable(_:)``): the kind of refusal (cut short, self-contradicting, a
/// feature it does not decode, a size past the limit), with the offsets, sizes and bytes found.
///
/// `description` is the sentence printed after the file's name; it names the format and, where
/// there is one, how to fix the file. A program that waits for a file still being written tests
/// for ``truncated(_:)``.
public enum ImageDataProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is 0 bytes.
    case empty
    /// The first bytes (up to 4) are not those of a PGM, PNG or JPEG file.
    case notAnImage(start: [UInt8])
    /// A declared width or height outside `1...limit`.
    case dimensions(ImageFileFormat, width: Int, height: Int, limit: Int)
    /// A PNG or JPEG that declares `width` × `height` pixels but holds only `bytes` bytes of coded
    /// image data, fewer than the `needed` that could fill it.
    case tooLittleData(ImageFileFormat, width: Int, height: Int, bytes: Int, needed: Int)
    /// The file ends before its structure does: cut short, or still being written.
    case truncated(ImageTruncation)
    /// The structure contradicts itself or the format.
    case corrupt(ImageCorruption)
    /// A valid image that uses what this reader does not decode.
    case unsupported(ImageFeature)

    public var description: String {
        switch self {
        case .empty:
            return "empty file (0 bytes); expected a PGM, PNG or JPEG image"
        case .notAnImage(let start):
            return "not a PGM, PNG or JPEG file (starts with \(Self.quoted(start))); "
                + "convert it first, e.g. ffmpeg -i INPUT -pix_fmt gray OUTPUT.png"
        case .dimensions(let format, let width, let height, let limit):
            if width == 0 || height == 0 {
                return "\(format.name) declares a size of \(width)x\(height); width and height must each be 1...\(limit)"
            }
            return "\(format.name) is \(width)x\(height), over the \(limit) limit; scale it down to at most \(limit)x\(limit) first"
        case .tooLittleData(let format, let width, let height, let bytes, let needed):
            let coded = format == .png
                ? "of compressed image data, which cannot expand to fill it" : "of image data, less than 1 bit per 8x8 block"
            return "\(format.name) declares \(width)x\(height) pixels but holds only \(bytes) bytes \(coded) "
                + "(at least \(needed) needed); the file is truncated or corrupt"
        case .truncated(let truncation): return truncation.description
        case .corrupt(let corruption): return corruption.description
        case .unsupported(let feature): return feature.description
        }
    }

    /// `'GIF8'` when the bytes are printable ASCII, else hex: `bytes 00 00 01 BA`.
    static func quoted(_ start: [UInt8]) -> String {
        if start.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "'") }) {
            return "'" + String(decoding: start, as: UTF8.self) + "'"
        }
        return "bytes " + hex(start)
    }

    /// Bytes in hex, space-separated: `89 50 4E 47`.
    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map(ImageFileDecoder.hex).joined(separator: " ") }
}

extension ImageFileFormat {
    /// The format's name in messages: `PGM`, `PNG`, `JPEG`.
    public var name: String { rawValue.uppercased() }
}

/// Where an image file ends before its structure does (``ImageDataProblem/truncated(_:)``).
public enum ImageTruncation: Equatable, Sendable, CustomStringConvertible {
    /// A file of `bytes` bytes, shorter than the 8-byte PNG signature it starts with.
    case pngSignature(bytes: Int)
    /// A PNG or JPEG of `bytes` bytes with no end chunk (IEND) or marker (EOI).
    case noEnd(ImageFileFormat, bytes: Int)
    /// The PNG chunk `type` at `offset` declares `declared` bytes of data; `available` follow it
    /// (the CRC's 4 bytes are missing when `available >= declared`).
    case pngChunk(type: String, offset: Int, declared: Int, available: Int)
    /// The JPEG segment of `marker` at `offset` declares `declared` bytes; `available` follow.
    case jpegSegment(marker: UInt8, offset: Int, declared: Int, available: Int)
    /// The file of `bytes` bytes ends inside the JPEG scan that starts at `scanOffset`.
    case jpegScan(bytes: Int, scanOffset: Int)
    /// The PGM ends before `field` of its header (or a plain PGM's sample).
    case pgmBefore(PGMField)
    /// The PGM ends right after its header, without the byte that ends it.
    case pgmAfterHeader
    /// A binary (P5) raster of `needed` bytes of which `available` follow the header.
    case pgmRaster(available: Int, needed: Int)
    /// `samples` plain (P2) samples, which need at least 2 × samples − 1 bytes; `available` follow.
    case pgmPlainRaster(samples: Int, available: Int)
    /// A plain (P2) raster that ends after `read` of `count` samples.
    case pgmPlainSamples(read: Int, count: Int)
    /// libpng or libjpeg found the end of the data early: its words.
    case decoder(ImageFileFormat, String)

    public var description: String {
        let cutShort = "it was cut short or is still being written"
        switch self {
        case .pngSignature(let bytes): return "truncated PNG: the file is only \(bytes) bytes"
        case .noEnd(let format, let bytes):
            return "truncated \(format.name): the file ends after \(bytes) bytes without "
                + (format == .png ? "an IEND chunk" : "an end-of-image marker") + "; \(cutShort)"
        case .pngChunk(let type, let offset, let declared, let available):
            return "truncated PNG: chunk '\(type)' at offset \(offset) declares \(declared) bytes of data, but the file ends after "
                + "\(min(available, declared)) of them\(available >= declared ? " (its CRC is missing)" : ""); \(cutShort)"
        case .jpegSegment(let marker, let offset, let declared, let available):
            return "truncated JPEG: the \(JPEGMarker.name(marker)) segment at offset \(offset) declares \(declared) bytes, "
                + "but the file ends after \(available); \(cutShort)"
        case .jpegScan(let bytes, let scanOffset):
            return "truncated JPEG: image data ends after \(bytes) bytes, inside the scan that starts at offset \(scanOffset), "
                + "with no end-of-image marker; the file was cut short or is still being written"
        case .pgmBefore(let field): return "truncated PGM: the file ends before the \(field.rawValue)"
        case .pgmAfterHeader: return "truncated PGM: the file ends right after the header"
        case .pgmRaster(let available, let needed):
            return "truncated PGM: pixel data ends after \(available) of \(needed) bytes; the file was cut short or is still being written"
        case .pgmPlainRaster(let samples, let available):
            return "truncated PGM: \(samples) plain (P2) samples need at least \(2 * samples - 1) bytes, but only \(available) follow the header"
        case .pgmPlainSamples(let read, let count): return "truncated PGM: plain (P2) pixel data ends after \(read) of \(count) samples"
        case .decoder(let format, let words): return "truncated \(format.name): \(words); the file was cut short or is still being written"
        }
    }
}

/// A field of a PGM header, or a plain PGM's sample: what a PGM refusal is about.
public enum PGMField: String, Sendable, CaseIterable {
    case width, height, maxval, sample
}

/// What a JPEG marker is called in messages.
enum JPEGMarker {
    /// `SOF0`, `DQT`, `APP1`; other markers as `FF xx`.
    static func name(_ marker: UInt8) -> String {
        switch marker {
        case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF: return "SOF\(marker - 0xC0)"
        case 0xC4: return "DHT"
        case 0xCC: return "DAC"
        case 0xDA: return "SOS"
        case 0xDB: return "DQT"
        case 0xDD: return "DRI"
        case 0xE0...0xEF: return "APP\(marker - 0xE0)"
        case 0xFE: return "COM"
        default: return "FF \(ImageFileDecoder.hex(marker))"
        }
    }
}
