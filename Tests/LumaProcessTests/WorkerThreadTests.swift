import Foundation
import LumaProcess
import Synchronization
import Testing

@Suite("Worker threads: named, joined or detached")
struct WorkerThreadTests {
    @Test("join waits for the closure to return; the thread carries its name (15 bytes of it)")
    func joined() throws {
        let seen = Mutex<(name: String, finished: Bool)>(("", false))
        let worker = WorkerThread.start("lumatrace test worker") {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
            seen.withLock { $0 = (name.trimmingCharacters(in: .newlines), true) }
        }
        #expect(worker.name == "lumatrace test worker")
        worker.join()
        #expect(seen.withLock { $0.finished })
        #expect(seen.withLock { $0.name } == "lumatrace test ")
    }

    @Test("a detached thread runs on its own, and says when it is done")
    func detached() {
        let done = DispatchSemaphore(value: 0)
        let ran = Mutex(false)
        WorkerThread.detach("detached test") {
            ran.withLock { $0 = true }
            done.signal()
        }
        done.wait()
        #expect(ran.withLock { $0 })
    }
}
