/// What a synthetic scene contains. Every kind is filmed by a fixed camera over a static textured
/// background with per-pixel sensor noise.
public enum SceneKind: String, CaseIterable, Sendable {
    /// 3–6 balls thrown on parabolas under gravity: they bounce on the floor line, leave the frame,
    /// and come in at different times. Truth: `ballSegments`.
    case balls
    /// 3–4 textured rectangles moving on smooth curved paths: one changes scale, one passes behind
    /// a static post, two cross each other. Truth: `objectTracks`.
    case tracking
    /// Things that change pixels but are neither thrown balls nor tracked objects: a large slow
    /// soft-edged mover, a flickering light and a global brightness drift. Truth: empty, so every
    /// detection is a false positive.
    case distractors
    /// Balls, tracked objects and distractors together.
    case mixed
    /// 3–5 thrown balls with what real throws bring along: each ball's soft shadow on the wall
    /// behind it (a darker, larger, blurred disc that follows the same parabola) and the hand that
    /// throws it (see `BallCompanions`). Truth: `ballSegments`; a path on a shadow or a hand is false.
    case crowded

    var hasBalls: Bool { self == .balls || self == .mixed || self == .crowded }
    var hasCompanions: Bool { self == .crowded }
    var hasObjects: Bool { self == .tracking || self == .mixed }
    var hasDistractors: Bool { self == .distractors || self == .mixed }
}
