import LumaBase

/// The static set in front of the fixed camera, drawn from the seed: a plastered wall with a brick
/// dado, a window and a poster, a dark baseboard, a plank floor whose top edge is the *floor line*
/// balls bounce on, and (for scenes with tracked objects) a post standing on the floor in front of
/// everything but the balls.
///
/// Sizes are fractions of the frame, so a seed gives the same set at any resolution.
struct SetLayout: Sendable {
    let width: Int
    let height: Int

    /// Pixel row (continuous, top-down) of the floor line: the top edge of the floor, where a
    /// bouncing ball's lowest point touches.
    let floorY: Double
    /// Top of the brick dado; plaster above, bricks below down to the baseboard.
    let brickTop: Double
    let baseboardTop: Double
    let brickWidth: Double
    let brickHeight: Double
    let mortar: Double

    let plasterLevel: Double
    let brickLevel: Double
    let mortarLevel: Double
    let baseboardLevel: Double
    let floorLevel: Double
    let plankCount: Int
    let courtLine: (top: Double, bottom: Double)

    let window: SceneRect
    let poster: SceneRect
    /// The foreground post (occluder), or nil when the scene has no tracked objects.
    let post: SceneRect?

    /// Key for the texture lattices of this set.
    let textureKey: UInt64

    init(settings: SceneSettings, withPost: Bool) {
        var rng = SeededRandom(seed: settings.seed, stream: "set")
        let w = Double(settings.width)
        let h = Double(settings.height)
        width = settings.width
        height = settings.height
        floorY = h * rng.uniform(0.78, 0.87)
        brickTop = h * rng.uniform(0.40, 0.52)
        baseboardTop = floorY - h * rng.uniform(0.018, 0.03)
        brickWidth = w * rng.uniform(0.05, 0.075)
        brickHeight = brickWidth * rng.uniform(0.36, 0.46)
        mortar = max(1.0, brickHeight * 0.12)

        plasterLevel = rng.uniform(140, 162)
        brickLevel = rng.uniform(98, 120)
        mortarLevel = rng.uniform(162, 182)
        baseboardLevel = rng.uniform(52, 72)
        floorLevel = rng.uniform(96, 122)
        plankCount = rng.int(in: 4...7)
        let lineDepth = rng.uniform(0.35, 0.6)
        let lineTop = floorY + (h - floorY) * lineDepth
        courtLine = (lineTop, lineTop + max(1.5, (h - floorY) * 0.07))

        // Window and poster share the plaster band, on opposite halves of the wall.
        let windowOnLeft = rng.chance(0.5)
        let windowWidth = w * rng.uniform(0.14, 0.2)
        let windowLeft = windowOnLeft ? w * rng.uniform(0.05, 0.25) : w * rng.uniform(0.55, 0.95) - windowWidth
        let windowTop = h * rng.uniform(0.06, 0.1)
        let windowBottom = max(windowTop + h * 0.1, brickTop - h * rng.uniform(0.06, 0.1))
        window = SceneRect(left: windowLeft, top: windowTop, right: windowLeft + windowWidth, bottom: windowBottom)
        let posterWidth = w * rng.uniform(0.07, 0.11)
        let posterHeight = min(h * rng.uniform(0.12, 0.18), (brickTop - h * 0.1) * 0.8)
        let posterLeft = windowOnLeft ? w * rng.uniform(0.55, 0.85) : w * rng.uniform(0.08, 0.35)
        let posterTop = h * rng.uniform(0.08, 0.14)
        poster = SceneRect(left: posterLeft, top: posterTop, right: posterLeft + posterWidth, bottom: posterTop + posterHeight)

        let postWidth = w * rng.uniform(0.05, 0.07)
        let postCenter = rng.chance(0.5) ? w * rng.uniform(0.2, 0.3) : w * rng.uniform(0.7, 0.8)
        let postRect = SceneRect(
            left: postCenter - postWidth / 2, top: 0, right: postCenter + postWidth / 2, bottom: floorY + h * 0.02)
        post = withPost ? postRect : nil
        textureKey = Hash.combine(settings.seed, Hash.label("set-texture"))
    }
}
