import LumaTruth

// Ball truth: which frames show which flight segment, and how each segment ends.

extension Ball {
    /// The ball's flight segments as the recording sees them.
    ///
    /// A segment is a maximal run of consecutive frames in which the ball flies along one arc with
    /// its centre inside the frame. It ends with:
    /// - `"end"` if its last point is the last frame of the recording, or the ball comes to rest;
    /// - `"exit"` if the centre is outside the frame at the next frame (or the ball lands outside);
    /// - `"bounce"` if the arc ends on the floor inside the frame and another arc follows.
    func segments(frameCount: Int, framesPerSecond: Double, width: Int, height: Int) -> [BallSegment] {
        guard let first = arcs.first, let last = arcs.last else { return [] }
        let w = Double(width), h = Double(height)
        let truthPoints = TruthPoints(frameWidth: width, frameHeight: height)
        // Only frames during the flight can hold points; a frame range keeps this independent of
        // the recording length.
        let firstFrame = max(0, Int((first.start * framesPerSecond).rounded(.down)))
        let lastTime = last.end * framesPerSecond
        let lastFrame = min(frameCount - 1, lastTime.isFinite ? Int(lastTime.rounded(.up)) : frameCount - 1)
        guard firstFrame <= lastFrame else { return [] }

        var result: [BallSegment] = []
        var open: (arc: Int, lastFrame: Int, points: [[Double]])?

        func close(_ segment: (arc: Int, lastFrame: Int, points: [[Double]])) {
            let end: String
            let arc = arcs[segment.arc]
            if segment.lastFrame == frameCount - 1 {
                end = "end"
            } else if Double(segment.lastFrame + 1) / framesPerSecond < arc.end {
                end = "exit"  // still on this arc at the next frame, but outside the frame
            } else {
                let landing = arc.position(at: arc.end, gravity: gravity)
                if landing.x < 0 || landing.x >= w {
                    end = "exit"
                } else if segment.arc + 1 < arcs.count {
                    end = "bounce"
                } else {
                    end = "end"  // the ball comes to rest
                }
            }
            let index = result.count + 1
            result.append(BallSegment(id: "\(id).\(index)", ball: id, end: end, points: segment.points))
        }

        for frame in firstFrame...lastFrame {
            let t = Double(frame) / framesPerSecond
            if case .flying(let arc, let x, let y) = state(at: t), x >= 0, x < w, y >= 0, y < h {
                let point = truthPoints.ball(frame: frame, pixelX: x, pixelY: y, radius: radius)
                if var segment = open, segment.arc == arc, segment.lastFrame == frame - 1 {
                    segment.points.append(point)
                    segment.lastFrame = frame
                    open = segment
                } else {
                    if let segment = open { close(segment) }
                    open = (arc, frame, [point])
                }
            } else if let segment = open {
                close(segment)
                open = nil
            }
        }
        if let segment = open { close(segment) }
        return result
    }
}
