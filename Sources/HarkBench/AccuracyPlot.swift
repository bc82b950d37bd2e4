import Foundation

/// `accuracy-vs-snr.svg`: command acceptance (and intent accuracy) against
/// SNR, noisiest on the left, clean on the right.
public enum AccuracyPlot {
    /// An SVG document for `conditions` (clean, if present, is drawn at the right end).
    public static func svg(_ conditions: [BenchReport.Condition], title: String) -> String {
        let width = 640.0, height = 400.0, left = 70.0, right = 30.0, top = 50.0, bottom = 60.0
        let plotW = width - left - right, plotH = height - top - bottom
        // Noisy first (low SNR left), clean last.
        let points = conditions.sorted { ($0.snrDb ?? .infinity) < ($1.snrDb ?? .infinity) }
        let labels = points.map { $0.snrDb.map { String(format: "%g dB", $0) } ?? "clean" }
        let lowest: Double = points.flatMap { [$0.commandAcceptance, $0.intentAccuracy] }.min() ?? 0
        let floorPct: Double = max(0, (lowest * 10).rounded(.down) * 10 - 10)
        func x(_ i: Int) -> Double { points.count == 1 ? left + plotW / 2 : left + plotW * Double(i) / Double(points.count - 1) }
        func y(_ fraction: Double) -> Double { top + plotH * (1 - (fraction * 100 - floorPct) / (100 - floorPct)) }
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        var svg = [
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" font-family="sans-serif" font-size="13">"##,
            ##"<rect width="100%" height="100%" fill="white"/>"##,
            ##"<text x="\##(width / 2)" y="28" text-anchor="middle" font-size="16">\##(escape(title))</text>"##,
        ]
        var tick = floorPct
        while tick <= 100 {
            let ty = y(tick / 100)
            svg.append(##"<line x1="\##(left)" y1="\##(ty)" x2="\##(width - right)" y2="\##(ty)" stroke="#ddd"/>"##)
            svg.append(##"<text x="\##(left - 8)" y="\##(ty + 4)" text-anchor="end">\##(Int(tick))%</text>"##)
            tick += 10
        }
        for (i, label) in labels.enumerated() {
            svg.append(##"<text x="\##(x(i))" y="\##(height - bottom + 20)" text-anchor="middle">\##(label)</text>"##)
        }
        svg.append(##"<text x="\##(left + plotW / 2)" y="\##(height - 15)" text-anchor="middle">signal-to-noise ratio (kitchen noise)</text>"##)
        svg.append(##"<text x="18" y="\##(top + plotH / 2)" text-anchor="middle" transform="rotate(-90 18 \##(top + plotH / 2))">accuracy</text>"##)
        svg.append(##"<line x1="\##(left)" y1="\##(top + plotH)" x2="\##(width - right)" y2="\##(top + plotH)" stroke="black"/>"##)
        svg.append(##"<line x1="\##(left)" y1="\##(top)" x2="\##(left)" y2="\##(top + plotH)" stroke="black"/>"##)
        for (series, color, value) in [("command acceptance", "#1f77b4", \BenchReport.Condition.commandAcceptance),
                                       ("intent accuracy", "#ff7f0e", \BenchReport.Condition.intentAccuracy)] {
            let path = points.enumerated().map { "\(x($0.offset)),\(y($0.element[keyPath: value]))" }.joined(separator: " ")
            svg.append(##"<polyline points="\##(path)" fill="none" stroke="\##(color)" stroke-width="2.5"/>"##)
            for (i, p) in points.enumerated() {
                svg.append(##"<circle cx="\##(x(i))" cy="\##(y(p[keyPath: value]))" r="4" fill="\##(color)"><title>\##(series) \##(labels[i]): \##(String(format: "%.1f%%", p[keyPath: value] * 100))</title></circle>"##)
            }
        }
        svg.append(##"<rect x="\##(left + 12)" y="\##(top + plotH - 52)" width="190" height="44" fill="white" stroke="#999"/>"##)
        svg.append(##"<line x1="\##(left + 22)" y1="\##(top + plotH - 36)" x2="\##(left + 46)" y2="\##(top + plotH - 36)" stroke="#1f77b4" stroke-width="2.5"/><text x="\##(left + 52)" y="\##(top + plotH - 32)">command acceptance</text>"##)
        svg.append(##"<line x1="\##(left + 22)" y1="\##(top + plotH - 18)" x2="\##(left + 46)" y2="\##(top + plotH - 18)" stroke="#ff7f0e" stroke-width="2.5"/><text x="\##(left + 52)" y="\##(top + plotH - 14)">intent accuracy</text>"##)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }
}
