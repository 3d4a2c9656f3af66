import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine

/// A small line-and-point chart as inline SVG (no scripts, no external files): axes with a few
/// labelled ticks, then series of points and polylines in data coordinates.
public struct SVGPlot {
    public struct Series {
        public var color: RGBImage.Color
        public var points: [(x: Double, y: Double)]
        /// Drawn as a line (`true`) or as dots.
        public var line: Bool
        public var label: String?
        /// A text beside each dot, in `points` order (dots only).
        public var pointLabels: [String]?

        public init(color: RGBImage.Color, points: [(x: Double, y: Double)], line: Bool, label: String? = nil, pointLabels: [String]? = nil) {
            self.color = color
            self.points = points
            self.line = line
            self.label = label
            self.pointLabels = pointLabels
        }
    }

    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var series: [Series] = []
    public var width = 520.0
    public var height = 260.0
    /// Fixed y range (e.g. 0...1 for confidence); otherwise from the data.
    public var yRange: ClosedRange<Double>?
    /// Fixed x range (e.g. the whole recording's time); otherwise from the data.
    public var xRange: ClosedRange<Double>?

    public init(title: String, xLabel: String, yLabel: String, yRange: ClosedRange<Double>? = nil) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.yRange = yRange
    }

    public var svg: String {
        let all = series.flatMap(\.points).filter { $0.x.isFinite && $0.y.isFinite }
        let (left, right, top, bottom) = (56.0, 12.0, 28.0, 40.0)
        let x0 = xRange?.lowerBound ?? all.map(\.x).min() ?? 0, x1 = max(xRange?.upperBound ?? all.map(\.x).max() ?? 1, x0 + 1e-9)
        let yr = yRange ?? ((all.map(\.y).min() ?? 0)...max(all.map(\.y).max() ?? 1, (all.map(\.y).min() ?? 0) + 1e-9))
        func px(_ x: Double) -> Double { left + (x - x0) / (x1 - x0) * (width - left - right) }
        func py(_ y: Double) -> Double { height - bottom - (y - yr.lowerBound) / (yr.upperBound - yr.lowerBound) * (height - top - bottom) }
        func n(_ v: Double) -> String { DecimalText.fixed(v, 1) }
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"11\">"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
        out += "<text x=\"\(n(width / 2))\" y=\"16\" text-anchor=\"middle\" font-size=\"13\">\(escapeHTML(title))</text>"
        out += "<line x1=\"\(n(left))\" y1=\"\(n(height - bottom))\" x2=\"\(n(width - right))\" y2=\"\(n(height - bottom))\" stroke=\"#444\"/>"
        out += "<line x1=\"\(n(left))\" y1=\"\(n(top))\" x2=\"\(n(left))\" y2=\"\(n(height - bottom))\" stroke=\"#444\"/>"
        for tick in Self.ticks(x0...x1) {
            out += "<text x=\"\(n(px(tick.value)))\" y=\"\(n(height - bottom + 14))\" text-anchor=\"middle\">\(tick.label)</text>"
        }
        for tick in Self.ticks(yr) {
            out += "<text x=\"\(n(left - 4))\" y=\"\(n(py(tick.value) + 4))\" text-anchor=\"end\">\(tick.label)</text>"
            out += "<line x1=\"\(n(left))\" y1=\"\(n(py(tick.value)))\" x2=\"\(n(width - right))\" y2=\"\(n(py(tick.value)))\" stroke=\"#eee\"/>"
        }
        out += "<text x=\"\(n(width / 2))\" y=\"\(n(height - 6))\" text-anchor=\"middle\">\(escapeHTML(xLabel))</text>"
        out += "<text x=\"12\" y=\"\(n(height / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 12 \(n(height / 2)))\">\(escapeHTML(yLabel))</text>"
        for s in series {
            let color = "rgb(\(s.color.r),\(s.color.g),\(s.color.b))"
            let points = s.points.filter { $0.x.isFinite && $0.y.isFinite }
            if let labels = s.pointLabels, !s.line {
                for (p, text) in zip(s.points, labels) where p.x.isFinite && p.y.isFinite && yr.contains(p.y) {
                    out += "<text x=\"\(n(px(p.x) + 4))\" y=\"\(n(py(p.y) - 4))\" font-size=\"9\" fill=\"#333\">\(escapeHTML(text))</text>"
                }
            }
            if s.line {
                out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\""
                out += points.map { "\(n(px($0.x))),\(n(py(min(max($0.y, yr.lowerBound), yr.upperBound))))" }.joined(separator: " ") + "\"/>"
            } else {
                for p in points where yr.contains(p.y) { out += "<circle cx=\"\(n(px(p.x)))\" cy=\"\(n(py(p.y)))\" r=\"2.5\" fill=\"\(color)\"/>" }
            }
        }
        return out + "</svg>"
    }
}

extension SVGPlot {
    /// Labelled ticks on `range`: multiples of a round step (1, 2 or 5 × 10ⁿ) giving three to ten
    /// ticks, each printed with as many decimals as the step needs, so no two labels are the same.
    /// A range narrower than 10⁻⁶ gets one tick at its middle.
    public static func ticks(_ range: ClosedRange<Double>) -> [(value: Double, label: String)] {
        let span = range.upperBound - range.lowerBound
        guard span.isFinite, range.lowerBound.isFinite else { return [] }
        guard span >= 1e-6 else {
            let middle = (range.lowerBound + range.upperBound) / 2
            return [(middle, DecimalText.fixed(middle, 6))]
        }
        let magnitude = (span / 4).magnitudeOfTen
        let step = [1.0, 2, 5, 10].map { $0 * magnitude.value }.first { span / $0 <= 5 } ?? 10 * magnitude.value
        let decimals = max(0, -(step == 10 * magnitude.value ? magnitude.exponent + 1 : magnitude.exponent))
        var out: [(value: Double, label: String)] = []
        var k = (range.lowerBound / step).rounded(.up)
        while k * step <= range.upperBound + step * 1e-9 {
            let value = k * step
            out.append((value, DecimalText.fixed(value == 0 ? 0 : value, decimals)))
            k += 1
        }
        return out
    }
}

private extension Double {
    /// The power of ten at or below this positive number: `(10ⁿ, n)`.
    var magnitudeOfTen: (value: Double, exponent: Int) {
        let exponent = Int(log10(self).rounded(.down))
        return (pow(10, Double(exponent)), exponent)
    }
}

/// Text made safe to put inside HTML or SVG: `&`, `<`, `>` and `"` as entities, control characters
/// other than newline and tab written visibly (`\u{1B}`, ``ControlCharacters``), never raw.
public func escapeHTML(_ text: String) -> String {
    var out = ""
    for c in ControlCharacters.escaped(text, keeping: ["\n", "\t"]).unicodeScalars {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        default: out.unicodeScalars.append(c)
        }
    }
    return out
}
