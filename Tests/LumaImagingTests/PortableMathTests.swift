import Foundation
import LumaImaging
import Testing

/// The libm-free functions behind every golden log and synthetic scene, checked against values
/// known in closed form (or, where there is none, against the platform's libm, whose last bit may
/// differ but not more), and for the exact results the code relies on.
@Suite("PortableMath: exp, log, sin, cos, atan, the normal quantile; one π")
struct PortableMathTests {
    /// Whether `got` is within `relative` of `want` (absolute near 0).
    static func near(_ got: Double, _ want: Double, relative: Double = 1e-15) -> Bool {
        abs(got - want) <= relative * max(abs(want), 1)
    }

    @Test("π is Double.pi, and ln 2 · log₂ e is 1")
    func constants() {
        #expect(PortableMath.pi == Double.pi)
        #expect(PortableMath.ln2 == M_LN2)
        #expect(Self.near(PortableMath.ln2 * PortableMath.log2e, 1))
    }

    @Test("exp: exact at 0 and ln 2, e to 1e-15, limits at both ends")
    func exponential() {
        #expect(PortableMath.exp(0.0) == 1)
        #expect(PortableMath.exp(-0.0) == 1)
        #expect(PortableMath.exp(PortableMath.ln2) == 2)
        #expect(abs(PortableMath.exp(1.0) - M_E) <= 1e-15 * M_E)
        #expect(abs(PortableMath.exp(-1.0) - 1 / M_E) <= 1e-15 / M_E)
        #expect(abs(PortableMath.exp(10.0) - 22_026.465_794_806_718) <= 1e-15 * 22_026.5)
        #expect(abs(PortableMath.exp(-10.0) - 4.539_992_976_248_485e-5) <= 1e-15 * 4.54e-5)
        #expect(abs(PortableMath.exp(700.0) - 1.014_232_054_735_004_5e304) <= 1e-15 * 1.02e304)
        // The argument reduction keeps its accuracy over the whole range.
        for x in stride(from: -700.0, through: 700.0, by: 0.37) {
            #expect(abs(PortableMath.exp(x) - Foundation.exp(x)) <= 1e-15 * Foundation.exp(x), "exp(\(x))")
        }
        #expect(PortableMath.exp(-740.0) == Double(bitPattern: 0x55), "subnormal results are still right (4.2e-322)")
        #expect(PortableMath.exp(-746.0) == 0)
        #expect(PortableMath.exp(710.0) == .infinity)
        #expect(PortableMath.exp(Double.nan).isNaN)
    }

    @Test("exp in single precision: within 2e-7 of the true value over the kernels' range, exactly 1 at 0, never above 1 below 0")
    func singlePrecisionExponential() {
        for i in 0...2000 {
            let x = Float(-Double(i) / 25)  // 0 ... −80
            let want = Float(Foundation.exp(Double(x)))
            let got = PortableMath.exp(x)
            #expect(abs(got - want) <= 2e-7 * want + Float.leastNormalMagnitude, "exp(\(x)) = \(got), want \(want)")
            #expect(got <= 1, "a Gaussian kernel value stays at most 1")
        }
        #expect(PortableMath.exp(Float(0)) == 1)
        #expect(PortableMath.exp(Float(-0.0)) == 1, "the label's peak (distance 0) is exactly 1")
        #expect(PortableMath.exp(Float(1)) == Float(M_E))
        #expect(PortableMath.exp(Float(-100)) == 0)
        #expect(PortableMath.exp(Float(89)) == .infinity)
    }

    @Test("log: exact at 1 and 2, e to 1e-15, and the edges of its domain")
    func logarithm() {
        #expect(PortableMath.log(1) == 0)
        #expect(PortableMath.log(2) == PortableMath.ln2)
        #expect(Self.near(PortableMath.log(M_E), 1))
        #expect(Self.near(PortableMath.log(10), M_LN10))
        #expect(Self.near(PortableMath.log(1e-300), Foundation.log(1e-300)))
        #expect(Self.near(PortableMath.log(PortableMath.exp(3.25)), 3.25))
        #expect(PortableMath.log(0) == -.infinity)
        #expect(PortableMath.log(.infinity) == .infinity)
        #expect(PortableMath.log(-1).isNaN)
    }

    @Test("sin and cos at every multiple of π/6 from −2π to 2π, within 1e-15 of the closed form")
    func sineAndCosine() {
        let half = 0.5, root3 = 3.0.squareRoot() / 2
        // sin(kπ/6) for k = 0...11; cos(kπ/6) = sin((k + 3)π/6).
        let sines = [0, half, root3, 1, root3, half, 0, -half, -root3, -1, -root3, -half]
        for k in -12...12 {
            let x = Double(k) * PortableMath.pi / 6
            let i = ((k % 12) + 12) % 12
            #expect(abs(PortableMath.sin(x) - sines[i]) <= 1e-15, "sin(\(k)π/6) = \(PortableMath.sin(x))")
            #expect(abs(PortableMath.cos(x) - sines[(i + 3) % 12]) <= 1e-15, "cos(\(k)π/6) = \(PortableMath.cos(x))")
        }
        #expect(PortableMath.sin(0) == 0, "exactly 0 at 0: a resting oscillation starts where it is")
        #expect(PortableMath.sin(-0.0) == 0)
        #expect(Self.near(PortableMath.sin(1e6), Foundation.sin(1e6), relative: 1e-9), "large arguments are reduced")
        #expect(PortableMath.sin(.infinity).isNaN)
        #expect(PortableMath.cos(.nan).isNaN)
    }

    @Test("atan and atan2: exact at the usual angles, the right quadrant everywhere")
    func inverseTangent() {
        let pi = PortableMath.pi
        #expect(PortableMath.atan(0) == 0)
        #expect(PortableMath.atan(1) == pi / 4)
        #expect(PortableMath.atan(3.0.squareRoot()) == pi / 3)
        #expect(PortableMath.atan(.infinity) == pi / 2)
        #expect(PortableMath.atan(-.infinity) == -pi / 2)
        #expect(Self.near(PortableMath.atan(1e-3), Foundation.atan(1e-3)))
        #expect(Self.near(PortableMath.atan(-40), Foundation.atan(-40)))
        #expect(PortableMath.atan2(0, 0) == 0)
        #expect(PortableMath.atan2(0, 1) == 0)
        #expect(PortableMath.atan2(1, 0) == pi / 2)
        #expect(PortableMath.atan2(-1, 0) == -pi / 2)
        #expect(PortableMath.atan2(0, -1) == pi)
        #expect(PortableMath.atan2(1, -1) == 3 * pi / 4)
        #expect(PortableMath.atan2(-1, -1) == -3 * pi / 4)
        #expect(PortableMath.atan2(-1, 1) == -pi / 4)
    }

    @Test("the normal quantile: 0 at the median, the textbook quantiles to Acklam's 1.2e-9")
    func normalQuantile() {
        #expect(PortableMath.inverseNormalCDF(0.5) == 0)
        #expect(Self.near(PortableMath.inverseNormalCDF(0.975), 1.959_963_984_540_054, relative: 1.2e-9))
        #expect(Self.near(PortableMath.inverseNormalCDF(0.841_344_746_068_542_9), 1, relative: 1.2e-9))
        #expect(Self.near(PortableMath.inverseNormalCDF(0.01), -2.326_347_874_040_841, relative: 1.2e-9))
        #expect(Self.near(PortableMath.inverseNormalCDF(1e-6), -4.753_424_308_822_899, relative: 1.2e-9))
        #expect(PortableMath.inverseNormalCDF(0.25) == -PortableMath.inverseNormalCDF(0.75), "symmetric where 1 − p is exact")
    }
}
