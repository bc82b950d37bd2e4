import Foundation

/// `accuracy-vs-snr.svg`: command acceptance (and intent accuracy) against
/// SNR, noisiest on the left, clean on the right; a baseline's command
/// acceptance dashed beside Hark's. The legend stands to the right of the
/// plot, outside the data.
public enum AccuracyPlot {
    /// An SVG document for `conditions` (clean, if present, is drawn at the right end).
    ///
    /// - Parameters:
    ///   - noise: what was mixed in, for the x axis (the noise file's name).
    ///   - baseline: a peer's name and its conditions (the same SNRs), plotted dashed.
    public static func svg(_ conditions: [BenchReport.Condition], title: String, noise: String = "noise",
                           baseline: (name: String, conditions: [BenchReport.Condition])? = nil) -> String {
        let legendW = 230.0
        let width = 640.0 + legendW, height = 400.0, left = 70.0, right = 30.0 + legendW, top = 50.0, bottom = 60.0
        let plotW = width - left - right, plotH = height - top - bottom
        // Noisy first (low SNR left), clean last.
        func ordered(_ c: [BenchReport.Condition]) -> [BenchReport.Condition] {
            c.sorted { ($0.snrDb ?? .infinity) < ($1.snrDb ?? .infinity) }
        }
        let points = ordered(conditions)
        let peer = baseline.map { ordered($0.conditions) } ?? []
        let labels = points.map { $0.snrDb.map { String(format: "%g dB", $0) } ?? "clean" }
        let lowest: Double = (points.flatMap { [$0.commandAcceptance, $0.intentAccuracy] } + peer.map(\.commandAcceptance)).min() ?? 0
        let floorPct: Double = max(0, (lowest * 10).rounded(.down) * 10 - 10)
        func x(_ i: Int) -> Double { points.count == 1 ? left + plotW / 2 : left + plotW * Double(i) / Double(points.count - 1) }
        func y(_ fraction: Double) -> Double { top + plotH * (1 - (fraction * 100 - floorPct) / (100 - floorPct)) }
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        var svg = [
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" font-family="sans-serif" font-size="13">"##,
            ##"<rect width="100%" height="100%" fill="white"/>"##,
            ##"<text x="\##(left + plotW / 2)" y="28" text-anchor="middle" font-size="16">\##(escape(title))</text>"##,
        ]
        var tick = floorPct
        while tick <= 100 {
            let ty = y(tick / 100)
            svg.append(##"<line x1="\##(left)" y1="\##(ty)" x2="\##(left + plotW)" y2="\##(ty)" stroke="#ddd"/>"##)
            svg.append(##"<text x="\##(left - 8)" y="\##(ty + 4)" text-anchor="end">\##(Int(tick))%</text>"##)
            tick += 10
        }
        for (i, label) in labels.enumerated() {
            svg.append(##"<text x="\##(x(i))" y="\##(height - bottom + 20)" text-anchor="middle">\##(label)</text>"##)
        }
        svg.append(##"<text x="\##(left + plotW / 2)" y="\##(height - 15)" text-anchor="middle">signal-to-noise ratio (\##(escape(noise)))</text>"##)
        svg.append(##"<text x="18" y="\##(top + plotH / 2)" text-anchor="middle" transform="rotate(-90 18 \##(top + plotH / 2))">accuracy</text>"##)
        svg.append(##"<line x1="\##(left)" y1="\##(top + plotH)" x2="\##(left + plotW)" y2="\##(top + plotH)" stroke="black"/>"##)
        svg.append(##"<line x1="\##(left)" y1="\##(top)" x2="\##(left)" y2="\##(top + plotH)" stroke="black"/>"##)
        var series: [(name: String, color: String, dash: String?, points: [BenchReport.Condition], value: KeyPath<BenchReport.Condition, Double>)] = [
            ("Hark command acceptance", "#1f77b4", nil, points, \.commandAcceptance),
            ("Hark intent accuracy", "#ff7f0e", nil, points, \.intentAccuracy),
        ]
        if let baseline, !peer.isEmpty {
            series.append(("\(baseline.name) command acceptance", "#2ca02c", "6 4", peer, \.commandAcceptance))
        }
        for s in series {
            let path = s.points.prefix(points.count).enumerated().map { "\(x($0.offset)),\(y($0.element[keyPath: s.value]))" }.joined(separator: " ")
            let dash = s.dash.map { ##" stroke-dasharray="\##($0)""## } ?? ""
            svg.append(##"<polyline points="\##(path)" fill="none" stroke="\##(s.color)" stroke-width="2.5"\##(dash)/>"##)
            for (i, p) in s.points.prefix(points.count).enumerated() {
                svg.append(##"<circle cx="\##(x(i))" cy="\##(y(p[keyPath: s.value]))" r="4" fill="\##(s.color)"><title>\##(escape(s.name)) \##(labels[i]): \##(String(format: "%.1f%%", p[keyPath: s.value] * 100))</title></circle>"##)
            }
        }
        // The legend, right of the plot area.
        let lx = left + plotW + 20, ly = top
        svg.append(##"<rect x="\##(lx)" y="\##(ly)" width="\##(legendW - 30)" height="\##(Double(series.count) * 36 + 12)" fill="white" stroke="#999"/>"##)
        for (i, s) in series.enumerated() {
            let rowY = ly + 22 + Double(i) * 36
            let dash = s.dash.map { ##" stroke-dasharray="\##($0)""## } ?? ""
            svg.append(##"<line x1="\##(lx + 10)" y1="\##(rowY)" x2="\##(lx + 34)" y2="\##(rowY)" stroke="\##(s.color)" stroke-width="2.5"\##(dash)/>"##)
            let words = s.name.split(separator: " ")
            // Two lines when the name is long: the legend box is narrow.
            let cut = words.count > 2 ? words.count - 2 : words.count
            let first = words.prefix(cut).joined(separator: " "), second = words.dropFirst(cut).joined(separator: " ")
            svg.append(##"<text x="\##(lx + 40)" y="\##(rowY + 4)">\##(escape(first))</text>"##)
            if !second.isEmpty {
                svg.append(##"<text x="\##(lx + 40)" y="\##(rowY + 19)">\##(escape(second))</text>"##)
            }
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }
}
