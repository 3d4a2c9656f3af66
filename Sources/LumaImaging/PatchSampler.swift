/// Cuts a patch out of a frame at any centre and scale, resampled to a fixed size: how a tracker
/// looks at its target at the same resolution whatever the target's size in the frame.
public enum PatchSampler {
    /// Fills `output` (`outputWidth × outputHeight` values, row-major) with the frame area of
    /// `sourceWidth × sourceHeight` pixels centred on (`centreX`, `centreY`) (continuous pixel
    /// coordinates: the first pixel's centre is 0.5), bilinearly interpolated. Outside the frame,
    /// the nearest edge pixel is repeated.
    public static func sample(_ image: GrayImage,
                              centreX: Double, centreY: Double, sourceWidth: Double, sourceHeight: Double,
                              into output: UnsafeMutableBufferPointer<Float>, outputWidth: Int, outputHeight: Int) {
        let (frame, width, height) = (image.pixels, image.width, image.height)
        precondition(width > 0 && height > 0, "the frame is not empty")
        precondition(output.count >= outputWidth * outputHeight, "the output holds outputWidth × outputHeight values")
        let stepX = sourceWidth / Double(outputWidth), stepY = sourceHeight / Double(outputHeight)
        // Source position of output pixel (i, j)'s centre, in pixel-index coordinates (centres at integers).
        let x0 = centreX - sourceWidth / 2 + stepX / 2 - 0.5
        let y0 = centreY - sourceHeight / 2 + stepY / 2 - 0.5
        let maxX = width - 1, maxY = height - 1
        // Columns are the same on every row: work them out once (on the stack: no allocation).
        withUnsafeTemporaryAllocation(of: (left: Int, right: Int, weight: Float).self, capacity: outputWidth) { cols in
            for i in 0..<outputWidth {
                let x = min(max(x0 + Double(i) * stepX, 0), Double(maxX))
                let left = Int(x)
                cols[i] = (left, min(left + 1, maxX), Float(x - Double(left)))
            }
            let f = frame.baseAddress!
            let out = output.baseAddress!
            for j in 0..<outputHeight {
                let y = min(max(y0 + Double(j) * stepY, 0), Double(maxY))
                let top = Int(y)
                let wy = Float(y - Double(top))
                let upper = f + top * width, lower = f + min(top + 1, maxY) * width
                let row = out + j * outputWidth
                for i in 0..<outputWidth {
                    let c = cols[i]
                    let a = Float(upper[c.left]) + (Float(upper[c.right]) - Float(upper[c.left])) * c.weight
                    let b = Float(lower[c.left]) + (Float(lower[c.right]) - Float(lower[c.left])) * c.weight
                    row[i] = a + (b - a) * wy
                }
            }
        }
    }
}
