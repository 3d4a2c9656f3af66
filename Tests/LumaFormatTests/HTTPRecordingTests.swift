import Foundation
import Synchronization
import LumaFormat
import LumaTestSupport
import Testing

/// Recordings read over HTTP with range requests, from a real web server (nginx) on loopback:
/// the same frames as the file, only the bytes the reads need, a server that drops out retried,
/// and a resource replaced under the reader refused rather than mixed.
@Suite("Recordings over HTTP: range requests to a real nginx", .externalPrograms)
struct HTTPRecordingTests {
    /// Runs `body` with a served scratch folder holding one recording of many chunks (noisy
    /// 320×240, six frames a chunk): the server, the recording's path and its frames.
    static func withServed<T>(settings: String = "", _ body: (_ server: WebServer, _ path: String, _ frames: [(ticks: Int64, pixels: [UInt8])]) throws -> T) throws -> T {
        try withScratchFolder("served") { folder in
            let path = folder + "/clip.luma"
            let frames = try writeRecording(path, width: 320, height: 240, count: 90, chunkDuration: 0.2)
            return try body(try WebServer(serving: folder, settings: settings), path, frames)
        }
    }

    static func digest(of reader: RecordingReader, chunks: [ChunkEntry]) throws -> String {
        var digest = FramesDigest()
        let decoder = reader.makeDecoder()
        for c in chunks {
            let frames = try decoder.decode(c)
            for k in 0..<frames.count { frames.withFrame(k) { digest.add(ticks: frames.timestamps[k], pixels: $0) } }
        }
        return digest.finalize().hexString
    }

    @Test("a recording read over HTTP gives the file's frames, times and facts")
    func sameAsTheFile() throws {
        try Self.withServed { server, path, _ in
            let local = try RecordingReader(path: path)
            let remote = try RecordingReader(location: RecordingLocation(server.url("clip.luma")))
            #expect(remote.path == server.url("clip.luma"))
            #expect(remote.hasIndex && remote.chunks == local.chunks && remote.header == local.header)
            #expect(try Self.digest(of: remote, chunks: remote.chunks) == Self.digest(of: local, chunks: local.chunks))
            #expect(try remote.framesDigest() == local.framesDigest())
        }
    }

    @Test("opening reads the header, reference and index; then only the chunks decoded are fetched")
    func onlyWhatIsNeeded() throws {
        try Self.withServed { server, path, _ in
            let source = try HTTPByteSource(RecordingLocation(server.url("clip.luma")))
            let reader = try RecordingReader(source: source)
            #expect(reader.chunks.count >= 12)
            let opened = source.bytesFetched
            let wanted = Array(reader.chunks[5..<8])
            _ = try Self.digest(of: reader, chunks: wanted)
            let chunkBytes = wanted.reduce(UInt64(0)) { $0 + ($1.recordEnd - $1.offset) }
            // What any read needs: the header and reference records, the index and the trailer.
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! UInt64
            let indexAndTrailer = size - reader.chunks.last!.recordEnd
            let needed = chunkBytes + reader.chunks[0].offset + indexAndTrailer
            let fetched = source.bytesFetched
            #expect(Double(fetched) <= 1.1 * Double(needed),
                    "fetched \(fetched) bytes (\(opened) to open) for \(needed) bytes of records needed (\(chunkBytes) of chunks), file \(size)")
            #expect(fetched < size / 2, "fetched \(fetched) of \(size) bytes for 3 of \(reader.chunks.count) chunks")
            // The server's own count agrees with the reader's.
            #expect(try server.bodyBytesSent().bytes == Int(fetched))
        }
    }

    @Test("a server that goes away is retried with backoff, and the read completes once it is back")
    func retried() throws {
        try Self.withServed { server, path, _ in
            let retries = Mutex<[HTTPByteSource.Retry]>([])
            let source = try HTTPByteSource(RecordingLocation(server.url("clip.luma"))) { retry in
                retries.withLock { $0.append(retry) }
                // The event the test waits for: the first retry. The server comes back before the
                // next attempt (this runs on the reading thread, between attempts).
                if retry.attempt == 1 { try? server.start() }
            }
            let reader = try RecordingReader(source: source)
            server.stop()
            let local = try RecordingReader(path: path)
            #expect(try Self.digest(of: reader, chunks: reader.chunks) == Self.digest(of: local, chunks: local.chunks))
            let seen = retries.withLock { $0 }
            #expect(seen.count >= 1 && seen[0].waitSeconds == 0.25, "\(seen)")
            #expect(seen[0].description.contains(server.url("clip.luma")))
        }
    }

    @Test("a server gone for good is an error after the last attempt, naming the URL")
    func givesUp() throws {
        try Self.withServed { server, _, _ in
            let reader = try RecordingReader(location: RecordingLocation(server.url("clip.luma")))
            server.stop()
            let error = formatError { _ = try reader.makeDecoder().decode(reader.chunks[3]) }
            guard case .http(let url, .transport, let attempts) = error else {
                Issue.record("expected a connection failure over HTTP, got \(String(describing: error))")
                return
            }
            #expect(url == server.url("clip.luma"))
            #expect(attempts == HTTPByteSource.maximumAttempts)
            #expect(error?.description.contains("gave up after \(HTTPByteSource.maximumAttempts) attempts") == true, "\(String(describing: error))")
        }
    }

    @Test("a recording replaced on the server while being read is an error, never frames of both")
    func changedUnderTheReader() throws {
        try Self.withServed { server, path, _ in
            // Same bytes, a new modification time: nginx's ETag changes.
            let reader = try RecordingReader(location: RecordingLocation(server.url("clip.luma")))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: path)
            let touched = formatError { _ = try reader.makeDecoder().decode(reader.chunks[4]) }
            guard case .http(server.url("clip.luma"), .etagChanged(let was, let now), nil) = touched else {
                Issue.record("expected the ETag change to be refused, got \(String(describing: touched))")
                return
            }
            #expect(was != now && !was.isEmpty && !now.isEmpty)
            // Another length.
            let again = try RecordingReader(location: RecordingLocation(server.url("clip.luma")))
            try writeRecording(path, width: 320, height: 240, count: 60, chunkDuration: 0.2, seed: 9)
            let replaced = formatError { _ = try again.makeDecoder().decode(again.chunks[4]) }
            let newSize = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64)
            #expect(replaced == .http(url: server.url("clip.luma"), problem: .lengthChanged(was: again.fileSize, now: newSize), attempts: nil))
        }
    }

    @Test("what is not a served recording says so: 404, no byte ranges, an empty file")
    func refusals() throws {
        try Self.withServed { server, _, _ in
            let missing = formatError { _ = try RecordingReader(location: RecordingLocation(server.url("missing.luma"))) }
            #expect(missing == .http(url: server.url("missing.luma"), problem: .status(404), attempts: nil))
            #expect(missing?.description == "\(server.url("missing.luma")): HTTP 404 Not Found")
            _ = FileManager.default.createFile(atPath: server.folder + "/empty.luma", contents: Data())
            let empty = formatError { _ = try RecordingReader(location: RecordingLocation(server.url("empty.luma"))) }
            #expect(empty == .http(url: server.url("empty.luma"), problem: .empty, attempts: nil))

            try Self.withServed(settings: "max_ranges 0;") { plain, _, _ in
                let whole = formatError { _ = try RecordingReader(location: RecordingLocation(plain.url("clip.luma"))) }
                #expect(whole == .http(url: plain.url("clip.luma"), problem: .noByteRanges, attempts: nil))
            }
        }
    }

    @Test("a URL's password and a presigned URL's query (its signature) stay out of names and messages")
    func secretsKeptOut() throws {
        try Self.withServed { server, _, _ in
            let signed = server.url("clip.luma") + "?X-Amz-Signature=secret123&X-Amz-Expires=60"
            let reader = try RecordingReader(location: RecordingLocation(signed))
            #expect(reader.path == server.url("clip.luma") + "?…")
            #expect(reader.fileName == "clip.luma")
            let withPassword = server.url("clip.luma").replacingOccurrences(of: "http://", with: "http://alice:pw-S3CRET@")
            #expect(try RecordingReader(location: RecordingLocation(withPassword)).path == server.url("clip.luma"))
            let missing = formatError { _ = try RecordingReader(location: RecordingLocation(server.url("gone.luma") + "?sig=secret123")) }
            #expect(missing?.description.contains("secret123") == false)
            let refused = formatError {
                _ = try RecordingReader(location: RecordingLocation(withPassword.replacingOccurrences(of: "clip.luma", with: "gone.luma")))
            }
            #expect(refused?.description == "\(server.url("gone.luma")): HTTP 404 Not Found")
        }
    }

    @Test("bytes in memory read as a recording")
    func memory() throws {
        try Self.withServed { _, path, _ in
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let reader = try RecordingReader(source: MemoryByteSource(bytes, name: "in memory"))
            let local = try RecordingReader(path: path)
            #expect(try Self.digest(of: reader, chunks: reader.chunks) == Self.digest(of: local, chunks: local.chunks))
            let cut = formatError { _ = try RecordingReader(source: MemoryByteSource(Array(bytes.prefix(10)), name: "ten bytes")) }
            #expect(cut?.description.hasPrefix("ten bytes:") == true)
        }
    }
}
