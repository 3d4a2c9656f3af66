/// Counted nouns in messages: "1 frame", "2 frames", "1 chunk".
public enum Plural {
    /// `n` and `noun`, with `plural` (or `noun` + "s") unless `n` is 1.
    public static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
    }
}
