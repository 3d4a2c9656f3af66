import CImageGlue

extension ImageFileDecoder {
    /// A JPEG's marker structure, walked the way libjpeg reads it but without decoding: the frame
    /// header (SOF), and how many bytes of entropy-coded data the scans hold.
    ///
    /// libjpeg pads a truncated file with zeros and merely warns; this walk finds the cut and says
    /// where. It also refuses, before the image is allocated, a header that claims more blocks
    /// than the scan data could code: every Huffman-coded JPEG spends at least one bit on each
    /// 8x8 block of its first component (the DC code), in a sequential scan or a progressive DC
    /// scan alike.
    struct JPEGLayout: LibraryImageLayout {
        static let format = ImageFileFormat.jpeg
        static let readInfo = lt_jpeg_read_info
        static let decodeLuma = lt_jpeg_decode_luma

        var width: Int
        var height: Int
        /// The SOF marker's second byte: 0xC0 baseline, 0xC1 extended, 0xC2 progressive.
        var frameType: UInt8
        var components: Int
        /// Entropy-coded bytes in all scans (stuffed FF 00 counted once, markers not at all).
        var entropyCodedBytes: Int

        /// A frame header (SOF): its type, sample precision, size and each component's sampling factors.
        typealias Frame = (type: UInt8, precision: Int, height: Int, width: Int, sampling: [(Int, Int)])

        init(scanning b: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) {
            guard b.count >= 2, b[0] == 0xFF, b[1] == 0xD8 else {
                throw .corrupt(.jpegNoStart)
            }
            let (frame, entropy) = try Self.walkMarkers(b)
            width = frame.width
            height = frame.height
            frameType = frame.type
            components = frame.sampling.count
            entropyCodedBytes = entropy
            try Self.checkSupported(frame)
            try Self.checkScanDataCoversBlocks(frame, entropy: entropy)
        }

        /// Walks the markers from after SOI to EOI: the first frame header, and the entropy-coded
        /// bytes of all scans. Refuses a file with no scan, or a scan before any frame header.
        private static func walkMarkers(_ b: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) -> (frame: Frame, entropy: Int) {
            var frame: Frame?
            var entropy = 0
            var scans = 0
            var offset = 2

            markers: while true {
                let marker = try nextMarker(b, &offset)
                let markerOffset = offset - 2
                switch marker {
                case 0xD9:  // EOI
                    break markers
                case 0xD8:
                    throw .corrupt(.jpegSecondStart(offset: markerOffset))
                case 0xD0...0xD7, 0x01:  // RSTn, TEM: no length
                    continue markers
                default:
                    break
                }
                let segment = try segment(of: marker, at: markerOffset, in: b, &offset)
                switch marker {
                case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                    guard frame == nil else { break }  // libjpeg refuses the second SOF itself
                    frame = try frameHeader(segment, marker: marker, at: markerOffset)
                case 0xDA:  // SOS, then entropy-coded data up to the next real marker
                    guard frame != nil else {
                        throw .corrupt(.jpegScanBeforeFrame(offset: markerOffset))
                    }
                    scans += 1
                    entropy += try entropyCodedData(b, &offset, scanAt: markerOffset)
                default:
                    break  // tables, APPn, COM, DRI, ...: libjpeg checks them
                }
            }
            guard let frame, scans > 0 else {
                throw .corrupt(.jpegNoScan)
            }
            return (frame, entropy)
        }

        /// The next marker's code, found like libjpeg's next_marker(): stray bytes, FF fill bytes,
        /// and FF 00 pairs that are not markers are skipped. `offset` ends just past the code.
        private static func nextMarker(_ b: UnsafeBufferPointer<UInt8>, _ offset: inout Int) throws(ImageDataProblem) -> UInt8 {
            var marker: UInt8 = 0
            while marker == 0 {
                while offset < b.count, b[offset] != 0xFF { offset += 1 }
                while offset < b.count, b[offset] == 0xFF { offset += 1 }
                guard offset < b.count else { throw missingEOI(b.count) }
                marker = b[offset]
                offset += 1
            }
            return marker
        }

        /// The segment of `marker` (its bytes after the length field), which starts at `offset`;
        /// `offset` ends past it. Refuses a length below 2 or past the end of the file.
        private static func segment(of marker: UInt8, at markerOffset: Int, in b: UnsafeBufferPointer<UInt8>,
                                    _ offset: inout Int) throws(ImageDataProblem) -> UnsafeBufferPointer<UInt8> {
            guard b.count - offset >= 2 else { throw missingEOI(b.count) }
            let length = Int(b[offset]) << 8 | Int(b[offset + 1])
            guard length >= 2 else {
                throw .corrupt(.jpegSegmentLength(marker: marker, offset: markerOffset, length: length))
            }
            guard b.count - offset >= length else {
                throw .truncated(.jpegSegment(marker: marker, offset: markerOffset, declared: length, available: b.count - offset))
            }
            let segment = UnsafeBufferPointer(rebasing: b[(offset + 2)..<(offset + length)])
            offset += length
            return segment
        }

        /// A frame header's fields from its segment.
        private static func frameHeader(_ segment: UnsafeBufferPointer<UInt8>, marker: UInt8, at markerOffset: Int) throws(ImageDataProblem) -> Frame {
            guard segment.count >= 6, segment.count == 6 + 3 * Int(segment[5]) else {
                throw .corrupt(.jpegFrameHeaderLength(marker: marker, offset: markerOffset, length: segment.count + 2))
            }
            var sampling: [(Int, Int)] = []
            for component in 0..<Int(segment[5]) {
                let factors = segment[7 + 3 * component]
                sampling.append((Int(factors >> 4), Int(factors & 15)))
            }
            let frameHeight = Int(segment[1]) << 8 | Int(segment[2])
            let frameWidth = Int(segment[3]) << 8 | Int(segment[4])
            return (marker, Int(segment[0]), frameHeight, frameWidth, sampling)
        }

        /// Counts a scan's entropy-coded bytes from `offset` up to the next real marker (stuffed
        /// FF 00 counted once; restart markers and fill bytes not at all); `offset` ends at that marker.
        private static func entropyCodedData(_ b: UnsafeBufferPointer<UInt8>, _ offset: inout Int,
                                             scanAt markerOffset: Int) throws(ImageDataProblem) -> Int {
            var entropy = 0
            while true {
                guard offset < b.count else {
                    throw .truncated(.jpegScan(bytes: b.count, scanOffset: markerOffset))
                }
                if b[offset] != 0xFF {
                    entropy += 1
                    offset += 1
                    continue
                }
                guard offset + 1 < b.count else {
                    offset += 1
                    continue  // reports the truncation above
                }
                let next = b[offset + 1]
                if next == 0x00 {
                    entropy += 1  // stuffed FF
                    offset += 2
                } else if (0xD0...0xD7).contains(next) {
                    offset += 2  // restart marker inside the scan
                } else if next == 0xFF {
                    offset += 1  // fill byte before a marker
                } else {
                    return entropy  // a real marker ends the scan
                }
            }
        }

        /// Refuses what libjpeg is not asked to decode: coding processes other than Huffman
        /// baseline, extended or progressive, samples of other than 8 bits, a height given later,
        /// a size past the limits, CMYK and odd component counts, and impossible sampling factors.
        private static func checkSupported(_ frame: Frame) throws(ImageDataProblem) {
            let (width, height, components) = (frame.width, frame.height, frame.sampling.count)
            guard [0xC0, 0xC1, 0xC2].contains(frame.type) else { throw .unsupported(.jpegProcess(frameMarker: frame.type)) }
            guard frame.precision == 8 else {
                throw .unsupported(.jpegPrecision(bits: frame.precision))
            }
            if height == 0 && width > 0 {
                throw .unsupported(.jpegHeightLater)
            }
            guard isWithinLimits(width: width, height: height) else {
                throw .dimensions(.jpeg, width: width, height: height, limit: maximumDimension)
            }
            switch components {
            case 1, 3: break
            default: throw .unsupported(.jpegComponents(components))
            }
            guard frame.sampling.allSatisfy({ (1...4).contains($0.0) && (1...4).contains($0.1) })
            else {
                throw .corrupt(.jpegSamplingFactor)
            }
        }

        /// Refuses a header that claims more blocks than the scan data could code: the blocks of the
        /// first component (luma, the one decoded), counted the smallest way (non-interleaved), take
        /// at least one bit each.
        private static func checkScanDataCoversBlocks(_ frame: Frame, entropy: Int) throws(ImageDataProblem) {
            let (width, height) = (frame.width, frame.height)
            let maxH = frame.sampling.map(\.0).max() ?? 1
            let maxV = frame.sampling.map(\.1).max() ?? 1
            let (h0, v0) = frame.sampling[0]
            let columns = ((width * h0 + maxH - 1) / maxH + 7) / 8
            let rows = ((height * v0 + maxV - 1) / maxV + 7) / 8
            let neededBytes = (columns * rows + 7) / 8
            guard entropy >= neededBytes else {
                throw .tooLittleData(.jpeg, width: width, height: height, bytes: entropy, needed: neededBytes)
            }
        }

        static func missingEOI(_ count: Int) -> ImageDataProblem { .truncated(.noEnd(.jpeg, bytes: count)) }
    }
}
