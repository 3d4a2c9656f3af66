import LumaBase
import LumaTruth

/// Writes the human-readable `GroundTruth.notes`: how the scene was made and what is in it.
enum Notes {
    /// `value` with exactly `decimals` decimals: LumaBase's ``DecimalText``, as every report prints numbers.
    private static func fixed(_ value: Double, _ decimals: Int) -> String { DecimalText.fixed(value, decimals) }

    /// `+12` / `-7`.
    static func signed(_ value: Double) -> String {
        let text = fixed(value, 0)
        return value >= 0 ? "+" + text : text
    }

    static func describe(
        kind: SceneKind, settings: SceneSettings, layout: SetLayout, throwsInfo: BallThrows?,
        cast: ObjectCast?, distractors: Distractors?, companions: BallCompanions? = nil
    ) -> String {
        let w = Double(settings.width), h = Double(settings.height)
        var lines: [String] = []
        lines.append(
            "LumaSynth synthetic scene '\(kind.rawValue)', seed \(settings.seed): \(settings.width)x\(settings.height) px, "
                + "\(settings.framesPerSecond) fps, \(settings.frameCount) frames (\(fixed(settings.duration, 3)) s), "
                + "sensor noise sigma \(fixed(settings.noise, 2)) grey levels (Gaussian, independent per pixel and frame).")
        lines.append(
            "Fixed camera. Static background: plastered wall with brick dado, window and poster, baseboard, plank floor; "
                + "floor line (where balls bounce) at pixel row \(fixed(layout.floorY, 2)), normalized y "
                + "\(fixed(1 - layout.floorY / h, 6)).")
        if let post = layout.post {
            lines.append(
                "Static post in front of tracked objects: pixels x \(fixed(post.left, 1))...\(fixed(post.right, 1)), "
                    + "rows 0...\(fixed(post.bottom, 1)).")
        }
        if let throwsInfo { lines += balls(throwsInfo, width: w) }
        if let companions { lines.append(companionsLine(companions)) }
        if let cast { lines += objects(cast) }
        if let distractors { lines.append(distractorsLine(distractors)) }
        lines.append(
            "Truth coordinates: normalized, lower-left origin (Apple Vision); x = px/width, y = 1 - py/height; "
                + "ball radius / width; boxes [x, y, w, h] with (x, y) the lower-left corner; 6 decimals.")
        return lines.joined(separator: "\n")
    }

    /// The balls' lines: gravity and the draw, then one line per ball.
    private static func balls(_ throwsInfo: BallThrows, width w: Double) -> [String] {
        var lines: [String] = []
        var text =
            "Balls: gravity \(fixed(throwsInfo.gravity, 1)) px/s^2 downward (scene about "
            + "\(fixed(throwsInfo.sceneMetres, 1)) m wide), draw attempt \(throwsInfo.attempt)"
        if throwsInfo.violations > 0 {
            text += " (recording too short for every rule: \(throwsInfo.violations) violation points)"
        }
        lines.append(text + ".")
        for ball in throwsInfo.balls {
            let rest: String
            switch ball.after {
            case .rests(let x, _): rest = "comes to rest at x \(fixed(x / w, 3))"
            case .gone: rest = "lands outside the frame"
            }
            lines.append(
                "  \(ball.id): radius \(fixed(ball.radius, 2)) px (\(fixed(ball.radius / w, 4)) of width), contrast "
                    + "\(signed(ball.contrast)) grey levels, restitution \(fixed(ball.restitution, 2)), thrown at "
                    + "t \(fixed(ball.launchTime, 3)) s, \(ball.arcs.count) arc(s), then \(rest).")
        }
        return lines
    }

    /// The line on what is drawn with the balls but not in the truth: shadows and hands.
    private static func companionsLine(_ companions: BallCompanions) -> String {
        (
            "Not in the truth: each flying ball's shadow on the wall (radius \(fixed(companions.shadowScale, 2))x the ball's, "
                + "edge blurred over \(fixed(companions.shadowBlur, 2)) radii, wall darkened by \(fixed(100 * companions.shadowDepth, 0))%, "
                + "offset \(fixed(companions.shadowOffsetX, 2)), \(fixed(companions.shadowOffsetY, 2)) radii (x right, y down)), "
                + "and for each throw from inside the frame a hand (ellipse 2.2 x 1.5 radii, \(signed(companions.handContrast)) grey levels "
                + "from the wall) carrying the ball into the throw over the last \(fixed(BallCompanions.handTime, 2)) s and falling back after.")
    }

    /// The tracked objects' lines: the draw, one line per object, and what occluded means.
    private static func objects(_ cast: ObjectCast) -> [String] {
        var lines: [String] = []
        var header = "Tracked objects (textured rectangles, translation and scale only; draw attempt \(cast.attempt)"
        if cast.violations > 0 {
            header += "; recording too short to show every event: \(cast.violations) violation points"
        }
        lines.append(header + "):")
        for object in cast.objects {
            lines.append(
                "  \(object.id): \(object.texture.pattern.rawValue), \(fixed(object.baseWidth, 1))x"
                    + "\(fixed(object.baseHeight, 1)) px, depth \(object.depth), \(object.role).")
        }
        lines.append("  occluded = frames where more than 30% of the box is hidden (post, nearer object or ball).")
        return lines
    }

    /// The line on the distractors, which are not in the truth.
    private static func distractorsLine(_ d: Distractors) -> String {
        (
            "Distractors (deliberately NOT in the truth; analyzers should report nothing for them): slow soft "
                + (d.moverContrast < 0 ? "shadow" : "glow")
                + " \(fixed(2 * d.moverRadiusX, 0)) px wide, contrast \(signed(d.moverContrast)), drifting "
                + "\(fixed(d.moverSpeed, 1)) px/s; flickering lamp patch at pixels "
                + "(\(fixed(d.lamp.left, 0)), \(fixed(d.lamp.top, 0)))-(\(fixed(d.lamp.right, 0)), \(fixed(d.lamp.bottom, 0))), "
                + "gain +\(fixed(d.lampBaseGain * 100, 0))% +/- \(fixed(d.lampSwing * 100, 0))% at "
                + "\(fixed(d.lampFrequency, 2)) Hz with flutter; global brightness drift +/- "
                + "\(fixed(d.driftAmplitude * 100, 1))% over \(fixed(d.driftPeriod, 1)) s.")
    }
}
