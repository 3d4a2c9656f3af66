/// Rewrites the index of a recording that was never closed (the recorder was killed, the disk
/// filled) or whose chunks are damaged, so it opens directly again.
///
/// Every chunk that decodes intact is kept, byte for byte, at its place; an incomplete chunk at the
/// end is cut off; damaged chunks are left out of the new index (their frames become a logged gap).
public enum RecordingRecovery {
    public struct Report: Sendable, Equatable {
        /// The file needed nothing: it has a valid index and every chunk decodes.
        public var wasIntact: Bool
        public var framesKept: Int
        public var chunksKept: Int
        /// Damage left out of the new index, including an incomplete tail.
        public var damage: [RecordingDamage]
        /// Bytes removed from the end (an incomplete chunk, the old index and trailer).
        public var bytesCut: UInt64
        public var fileSize: UInt64
    }

    /// Recovers `path` in place, or into `output` when given (the input is then left untouched).
    public static func recover(_ path: String, output: String? = nil, overwrite: Bool = false) throws(LumaFormatError) -> Report {
        let reader = try RecordingReader(path: path)
        let damage = reader.verify()
        let decoder = reader.makeDecoder()
        var kept: [ChunkEntry] = []
        var digest = FramesDigest()
        for c in reader.chunks {
            guard let frames = try? decoder.decode(c) else { continue }
            for k in 0..<frames.count { frames.withFrame(k) { digest.add(ticks: frames.timestamps[k], pixels: $0) } }
            decoder.recycle(frames)
            kept.append(c)
        }
        if reader.hasIndex && damage.isEmpty && output == nil {
            return Report(wasIntact: true, framesKept: reader.frameCount, chunksKept: kept.count, damage: [], bytesCut: 0, fileSize: reader.fileSize)
        }
        // Everything up to the end of the last intact chunk stays as it is; with no intact chunk,
        // everything after the header and the intact reference copies goes.
        let cut = kept.last?.recordEnd ?? reader.chunksStart
        let index = RecordingIndex(frameCount: kept.last.map { $0.firstFrame + $0.frameCount } ?? 0, chunks: kept, framesDigest: digest.finalize())
        var tail = RecordLayout.envelope(.index, fields: index.serialized(), payloadLength: 0)
        tail += Trailer.bytes(indexOffset: cut)

        let target: FileHandleIO
        if let output {
            target = try FileHandleIO.create(output, exclusive: !overwrite)
            var copied: UInt64 = 0
            let block = 8 << 20
            while copied < cut {
                let n = Int(min(UInt64(block), cut - copied))
                try target.write(try reader.file.read(at: copied, count: n))
                copied += UInt64(n)
            }
        } else {
            target = try FileHandleIO.openForUpdate(path)
            try target.truncate(to: cut)
            try target.seek(to: cut)
        }
        try target.write(tail)
        try target.sync()
        return Report(wasIntact: false, framesKept: kept.reduce(0) { $0 + $1.frameCount }, chunksKept: kept.count, damage: damage,
                      bytesCut: reader.fileSize - cut, fileSize: cut + UInt64(tail.count))
    }
}
