/// The draw to keep when a scene's random choices must obey rules (a bounce and an exit in the
/// frames, a crossing that shows): draw attempt 0, 1, 2, … of the seed until one breaks no rule,
/// and if none does within `maximumAttempts`, keep the first with the fewest broken rules.
/// Attempts are numbered, so the same seed always keeps the same draw.
struct FewestViolations<Value> {
    let value: Value
    /// Which attempt was kept (0 = the first draw).
    let attempt: Int
    /// Rules it still breaks (0 unless no attempt obeyed them all).
    let violations: Int

    /// Keeps the best of `draw(attempt)`, which returns a draw and how many rules it breaks.
    init(maximumAttempts: Int, _ draw: (_ attempt: Int) -> (value: Value, violations: Int)) {
        var chosen = draw(0)
        var attempt = 0
        var next = 1
        while chosen.violations > 0, next < maximumAttempts {
            let candidate = draw(next)
            if candidate.violations < chosen.violations { (chosen, attempt) = (candidate, next) }
            next += 1
        }
        (value, self.attempt, violations) = (chosen.value, attempt, chosen.violations)
    }
}
