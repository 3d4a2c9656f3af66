import CKissFFT
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A complex number in single precision, laid out like KissFFT's `kiss_fft_cpx` (real, imaginary).
public struct ComplexFloat: Equatable, Sendable {
    public var re: Float
    public var im: Float

    @inline(__always) public init(_ re: Float, _ im: Float = 0) {
        self.re = re
        self.im = im
    }

    public static let zero = ComplexFloat(0, 0)
}

/// The two-dimensional discrete Fourier transform of one fixed size, by KissFFT (BSD licence,
/// Debian's `libkissfft-dev`), in single precision.
///
/// Plans are made once, at init; a transform allocates nothing. Neither direction is scaled: an
/// inverse after a forward transform multiplies by `width × height` (``inverseScale`` undoes it).
/// Planes are row-major, `height` rows of `width` values. KissFFT handles any size, but sizes whose
/// prime factors are 2, 3 and 5 are fastest (``goodSize(atLeast:)``).
///
/// The plans are read-only once made, so one instance may be used from several threads at once.
public final class FourierTransform2D: @unchecked Sendable {
    public let width: Int
    public let height: Int
    private let forwardPlan: kiss_fftnd_cfg
    private let inversePlan: kiss_fftnd_cfg

    /// `1 / (width × height)`: the factor that makes an inverse transform undo a forward one.
    public var inverseScale: Float { 1 / Float(width * height) }

    /// Plans transforms of `width × height` planes (each side 1...4096).
    public init(width: Int, height: Int) {
        precondition((1...4096).contains(width) && (1...4096).contains(height), "FFT sides are 1...4096")
        self.width = width
        self.height = height
        var dims: [Int32] = [Int32(height), Int32(width)]
        forwardPlan = kiss_fftnd_alloc(&dims, 2, 0, nil, nil)!
        inversePlan = kiss_fftnd_alloc(&dims, 2, 1, nil, nil)!
    }

    deinit {
        free(UnsafeMutableRawPointer(forwardPlan))
        free(UnsafeMutableRawPointer(inversePlan))
    }

    /// `output = DFT(input)`; both hold `width × height` values and must not overlap.
    public func forward(_ input: UnsafeBufferPointer<ComplexFloat>, into output: UnsafeMutableBufferPointer<ComplexFloat>) {
        run(forwardPlan, input, output)
    }

    /// `output = width × height × inverse DFT(input)`; both hold `width × height` values and must
    /// not overlap.
    public func inverse(_ input: UnsafeBufferPointer<ComplexFloat>, into output: UnsafeMutableBufferPointer<ComplexFloat>) {
        run(inversePlan, input, output)
    }

    private func run(_ plan: kiss_fftnd_cfg, _ input: UnsafeBufferPointer<ComplexFloat>,
                     _ output: UnsafeMutableBufferPointer<ComplexFloat>) {
        let n = width * height
        precondition(input.count >= n && output.count >= n, "planes hold width × height values")
        UnsafeRawPointer(input.baseAddress!).withMemoryRebound(to: kiss_fft_cpx.self, capacity: n) { i in
            UnsafeMutableRawPointer(output.baseAddress!).withMemoryRebound(to: kiss_fft_cpx.self, capacity: n) { o in
                kiss_fftnd(plan, i, o)
            }
        }
    }

    /// The smallest size ≥ `n` whose only prime factors are 2, 3 and 5.
    public static func goodSize(atLeast n: Int) -> Int {
        var m = max(1, n)
        while true {
            var r = m
            for p in [2, 3, 5] { while r % p == 0 { r /= p } }
            if r == 1 { return m }
            m += 1
        }
    }
}
