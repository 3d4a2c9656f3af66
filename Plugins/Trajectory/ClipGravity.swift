import LumaImaging

/// The clip's gravity in pixels, learnt from the flights found: the mode of their free fits'
/// vertical accelerations, each weighted by how clean and long a flight it is. A hand swinging a
/// ball, or a shadow, also curves; the clip's balls fly the longest, cleanest parabolas, and all with
/// one gravity (at one distance from the camera).
struct ClipGravity: Sendable {
    /// Width of a histogram bin in log gravity (about ±5 %).
    static let binWidth = 0.1
    /// Weight the mode's bin and its neighbours must hold before the estimate is used: about two
    /// clean flights of ten points.
    static let weightNeeded = 16.0
    /// Flights seen before the estimate is used.
    static let flightsNeeded = 3
    private var bins: [Int: Double] = [:]
    private var flights = 0
    private(set) var estimate: Double?

    /// Learns from a closed flight whose free fit falls with `plausible` gravity (for its size): the
    /// fit's gravity, weighted by the flight's length, how tightly it follows its parabola for its
    /// size (squared) and how far it travels.
    mutating func learn(_ flight: Flight, plausible: ClosedRange<Double>) {
        guard flight.count >= 8, let fit = BallisticFit(flight.points[...]), plausible.contains(fit.acceleration) else { return }
        let r = flight.radius
        let relative = fit.rms / (0.35 * r)
        let tight = 1 / (1 + relative * relative)
        let travel = min(1, fit.distanceTravelled(over: flight.points[...]) / (6 * r))
        let weight = Double(flight.count) * tight * tight * travel
        guard weight > 0 else { return }
        bins[Int((PortableMath.log(fit.acceleration) / Self.binWidth).rounded(.down)), default: 0] += weight
        flights += 1
        guard flights >= Self.flightsNeeded else { return }
        // The mode over three neighbouring bins, ties to the smaller gravity.
        var best: (bin: Int, weight: Double)?
        for bin in bins.keys.sorted() {
            let w = (bins[bin - 1] ?? 0) + bins[bin]! + (bins[bin + 1] ?? 0)
            if best == nil || w > best!.weight { best = (bin, w) }
        }
        guard let mode = best, mode.weight >= Self.weightNeeded else { return }
        // The weighted mean of log gravity over the three bins.
        var sum = 0.0, total = 0.0
        for b in (mode.bin - 1)...(mode.bin + 1) {
            guard let w = bins[b] else { continue }
            sum += w * (Double(b) + 0.5) * Self.binWidth
            total += w
        }
        estimate = PortableMath.exp(sum / total)
    }
}
