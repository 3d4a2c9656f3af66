import LumaAnalysis
import Testing

/// Pixels run down from the top-left corner; Vision's normalized coordinates run up from the
/// bottom-left. Every conversion is on `NormalizedRect` and `NormalizedPoint`.
@Suite("Normalized coordinates: the one y flip between pixels and Vision's lower-left origin")
struct NormalizedCoordinatesTests {
    @Test("a frame's corners: pixel (0, 0) is normalized (0, 1), pixel (W, H) is (0, 0)'s opposite (1, 0)")
    func corners() {
        #expect(NormalizedPoint(pixelX: 0, pixelY: 0, frameWidth: 320, frameHeight: 180) == NormalizedPoint(x: 0, y: 1))
        #expect(NormalizedPoint(pixelX: 320, pixelY: 180, frameWidth: 320, frameHeight: 180) == NormalizedPoint(x: 1, y: 0))
        #expect(NormalizedPoint(pixelX: 80, pixelY: 45, frameWidth: 320, frameHeight: 180).array == [0.25, 0.75])
        let back = NormalizedPoint(x: 0.25, y: 0.75).pixel(frameWidth: 320, frameHeight: 180)
        #expect(back.x == 80 && back.y == 45)
    }

    @Test("a rectangle's y is its lower edge: the pixel box's bottom, flipped")
    func rectangles() {
        let box = NormalizedRect(pixelLeft: 32, top: 18, width: 64, height: 36, frameWidth: 320, frameHeight: 180)
        #expect(box.array == [0.1, 1 - 54.0 / 180, 0.2, 0.2])
        let edges = NormalizedRect(pixelLeft: 32, top: 18, right: 96, bottom: 54, frameWidth: 320, frameHeight: 180)
        #expect(edges == box, "edges and origin-and-size give the same rectangle")
        let b = box.pixelBox(frameWidth: 320, frameHeight: 180)
        #expect(abs(b.left - 32) < 1e-12 && abs(b.top - 18) < 1e-12 && abs(b.width - 64) < 1e-12 && abs(b.height - 36) < 1e-12)
        let covering = box.pixelBounds(width: 320, height: 180)
        #expect(covering.x0 <= 32 && covering.y0 <= 18 && covering.x1 >= 96 && covering.y1 >= 54, "\(covering) covers the box")
        let exact = NormalizedRect(pixelLeft: 32, top: 16, width: 64, height: 32, frameWidth: 256, frameHeight: 128)
        #expect(exact.array == [0.125, 0.625, 0.25, 0.25])
        #expect(exact.pixelBounds(width: 256, height: 128) == (32, 16, 96, 48), "where the fractions are exact, the very same pixels")
    }

    @Test("whole-pixel boxes convert with integer numerators, exactly where a decimal can be")
    func wholePixels() {
        let box = NormalizedRect(pixelColumn: 32, row: 18, width: 32, height: 36, frameWidth: 320, frameHeight: 180)
        #expect(box == NormalizedRect(x: 0.1, y: 0.7, width: 0.1, height: 0.2))
    }

    @Test("the whole pixels covering a rectangle: never empty, always inside the frame")
    func pixelBounds() {
        #expect(NormalizedRect.full.pixelBounds(width: 640, height: 360) == (0, 0, 640, 360))
        #expect(NormalizedRect(x: 0, y: 0.5, width: 1, height: 0.5).pixelBounds(width: 640, height: 360) == (0, 0, 640, 180), "the top half")
        #expect(NormalizedRect(x: 0.999, y: 0, width: 0.0001, height: 0.0001).pixelBounds(width: 10, height: 10) == (9, 9, 10, 10))
    }

    @Test("displacements and velocities flip their sign in y but take no offset")
    func displacements() {
        let v = NormalizedPoint(pixelDisplacementX: 32, y: -90, frameWidth: 320, frameHeight: 180)
        #expect(v == NormalizedPoint(x: 0.1, y: 0.5), "moving up the frame (y down) is moving up (y up)")
        #expect(NormalizedRect.normalizedY(pixelY: 45, frameHeight: 180) == 0.75)
        #expect(NormalizedRect.pixelY(normalizedY: 0.75, frameHeight: 180) == 45)
    }
}
