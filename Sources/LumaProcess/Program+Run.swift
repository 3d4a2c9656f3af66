#if canImport(Glibc)
import Glibc
#endif
import LumaBase

extension Program {
    /// Runs the program to its end, giving it `input` on its standard input (none: ``standardInput``
    /// as set, `/dev/null` by default) and collecting its standard output and error.
    ///
    /// One thread does it all, polling the three pipes, so a program that writes much to one
    /// stream while Lumatrace writes to or reads another cannot deadlock on a full pipe. A program
    /// that stops reading its input early is not an error: its end says how it went.
    public func run(input: [UInt8]? = nil) throws(ProgramError) -> ProgramOutput {
        var program = self
        program.standardOutput = .pipe
        program.standardError = .pipe
        if input != nil { program.standardInput = .pipe }
        let running = try program.start()
        var pipes: [(pipe: ProgramPipe, bytes: [UInt8])] = [running.standardOutput!, running.standardError!].map { ($0, []) }
        let pending = input ?? []
        var written = 0
        let writer = running.standardInput
        writer?.setNonBlocking()
        if pending.isEmpty { writer?.close() }
        for (pipe, _) in pipes { pipe.setNonBlocking() }

        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while pipes.contains(where: { !$0.pipe.isClosed }) || !(writer?.isClosed ?? true) {
            var requests: [pollfd] = pipes.filter { !$0.pipe.isClosed }.map { pollfd(fd: $0.pipe.fileDescriptor, events: Int16(POLLIN), revents: 0) }
            if let writer, !writer.isClosed { requests.append(pollfd(fd: writer.fileDescriptor, events: Int16(POLLOUT), revents: 0)) }
            if poll(&requests, nfds_t(requests.count), -1) < 0 {
                guard errno == EINTR else { throw .systemCall(program: running.executable, SystemCallError(.poll, errno: errno)) }
                continue
            }
            if let writer, !writer.isClosed {
                do throws(ProgramError) {
                    written += try writer.write(pending, from: written)
                    if written == pending.count { writer.close() }
                } catch where error.errno == EPIPE {
                    writer.close()  // it stopped reading: what it did instead is in its output and its end
                }
            }
            for index in pipes.indices where !pipes[index].pipe.isClosed {
                switch try pipes[index].pipe.read(into: chunk) {
                case nil: continue
                case 0?: pipes[index].pipe.close()
                case let count?: pipes[index].bytes += chunk[..<count]
                }
            }
        }
        return ProgramOutput(termination: try running.wait(), standardOutput: pipes[0].bytes, standardError: pipes[1].bytes)
    }
}

/// What a program that ran to its end did: how it ended and everything it wrote.
public struct ProgramOutput: Equatable, Sendable {
    public var termination: Termination
    public var standardOutput: [UInt8]
    public var standardError: [UInt8]

    public init(termination: Termination, standardOutput: [UInt8], standardError: [UInt8]) {
        self.termination = termination
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Standard output as UTF-8 text (invalid bytes replaced).
    public var standardOutputText: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as UTF-8 text (invalid bytes replaced).
    public var standardErrorText: String { String(decoding: standardError, as: UTF8.self) }
}
