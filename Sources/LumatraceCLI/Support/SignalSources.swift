import Foundation

/// SIGINT and SIGTERM handed to a handler on a dispatch queue instead of ending the process, until
/// ``restore()``.
///
/// Ready when `init` returns: it waits until each signal source is registered. On Linux that is
/// when libdispatch installs its own handler (which hands every signal to the source, whichever
/// thread it lands on); until then a signal would find the disposition set here, and an ignored
/// signal is lost, leaving a process that waits on a FIFO deaf to Ctrl-C. So the signals are
/// ignored only where the sources need it (Darwin, whose kqueue sees ignored signals) and the
/// sources are not reported ready before they are.
final class SignalSources: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    /// `handler` runs for each signal that arrives, with its name ("SIGINT", "SIGTERM").
    init(_ handler: @escaping (_ name: String) -> Void) {
        let registered = DispatchSemaphore(value: 0)
        for (sig, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            #if canImport(Darwin)
            signal(sig, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { handler(name) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            sources.append(source)
        }
        for _ in sources { registered.wait() }
    }

    /// Stops listening: the signals end the process again.
    func restore() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
