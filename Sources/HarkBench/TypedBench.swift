import Foundation
import Hark
import HarkGrammar

/// One labelled typed request of a development set (`models/dev/requests.jsonl`):
/// what a person typed or said, and where it should go — or, with no
/// `intent`, a sentence no installed app should act on.
public struct TypedRequest: Sendable, Codable, Equatable {
    public var text: String
    public var app: String?
    /// nil: out of domain; "not understood" is the only right answer.
    public var intent: String?
    public var slots: [String: String]
    /// A group of requests (e.g. "messaging", "out-of-domain").
    public var set: String?

    public init(text: String, app: String? = nil, intent: String?, slots: [String: String] = [:], set: String? = nil) {
        self.text = text
        self.app = app
        self.intent = intent
        self.slots = slots
        self.set = set
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        text = try c.decode(String.self, forKey: .text)
        app = try c.decodeIfPresent(String.self, forKey: .app)
        intent = try c.decodeIfPresent(String.self, forKey: .intent)
        slots = try c.decodeIfPresent([String: String].self, forKey: .slots) ?? [:]
        set = try c.decodeIfPresent(String.self, forKey: .set)
    }
}

/// `hark bench --typed`: how much of a development set of natural requests
/// the grammars understand, and how often a sentence meant for nobody
/// becomes an action. Reads every request as a new one, without running
/// handlers, so the figures depend on the grammars and routing only.
public enum TypedBench {
    /// One request's outcome.
    public struct Result: Sendable, Encodable, Equatable {
        public var text: String
        public var set: String?
        public var expectedApp: String?
        public var expectedIntent: String?
        public var expectedSlots: [String: String]
        /// `understood`, `whichApp` or `notUnderstood`.
        public var outcome: String
        public var app: String?
        public var intent: String?
        public var slots: [String: String]
        /// In domain: app (when labelled), intent and every labelled slot right.
        /// Out of domain: not understood.
        public var correct: Bool
        /// In domain: the app and intent are right (values may not be).
        public var intentCorrect: Bool
        /// Out of domain: it became an action or a "Which app?" question.
        public var falseAction: Bool
    }

    /// The figures of a run.
    public struct Report: Sendable, Encodable {
        public struct Group: Sendable, Encodable, Equatable {
            public var requests: Int
            public var correct: Int
            public var rate: Double
        }
        /// What was read with what (file, apps, domains, version).
        public var settings: [String: String] = [:]
        /// The size of the compiled intent graph the requests were read with.
        public struct GraphSize: Sendable, Encodable, Equatable {
            public var states: Int
            public var arcs: Int
            public var freeTextArcs: Int
            public init(states: Int, arcs: Int, freeTextArcs: Int) {
                self.states = states
                self.arcs = arcs
                self.freeTextArcs = freeTextArcs
            }
        }
        public var graph: GraphSize?
        public var requests: Int
        public var inDomain: Int
        /// Fraction of in-domain requests read exactly right (app, intent, values).
        public var coverage: Double
        /// Fraction of in-domain requests reaching the right app and intent.
        public var intentAccuracy: Double
        public var outOfDomain: Int
        /// Fraction of out-of-domain sentences that became an action or a question.
        public var falseActionRate: Double
        public var bySet: [String: Group]
        public var byIntent: [String: Group]
        public var results: [Result]

        /// A short Markdown summary, misses last.
        public var markdown: String {
            func pct(_ x: Double) -> String { String(format: "%.1f%%", x * 100) }
            var lines = ["| typed requests | \(requests) |", "|---|---|",
                         "| in domain, read exactly right (app, intent, values) | \(pct(coverage)) of \(inDomain) |",
                         "| in domain, right app and intent | \(pct(intentAccuracy)) |",
                         "| out of domain, false actions or \"Which app?\" | \(pct(falseActionRate)) of \(outOfDomain) |"]
            if let graph {
                lines.append("| intent graph (states / arcs / free-text arcs) | \(graph.states) / \(graph.arcs) / \(graph.freeTextArcs) |")
            }
            if !bySet.isEmpty {
                lines += ["", "| set | requests | right |", "|---|---|---|"]
                for (name, group) in bySet.sorted(by: { $0.key < $1.key }) {
                    lines.append("| \(name) | \(group.requests) | \(pct(group.rate)) |")
                }
            }
            let misses = results.filter { !$0.correct }
            if !misses.isEmpty {
                lines += ["", "Misses (\(misses.count)):"]
                for miss in misses {
                    let expected = miss.expectedIntent.map { "\(miss.expectedApp ?? "?") \($0) \(Self.show(miss.expectedSlots))" } ?? "not understood"
                    let got = miss.outcome == "understood"
                        ? "\(miss.app ?? "?") \(miss.intent ?? "?") \(Self.show(miss.slots))"
                        : miss.outcome + (miss.intent.map { " (\($0))" } ?? "")
                    lines.append("- \"\(miss.text)\": expected \(expected); got \(got)")
                }
            }
            return lines.joined(separator: "\n")
        }

        static func show(_ slots: [String: String]) -> String {
            "{" + slots.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }

    /// Reads a JSON Lines file of ``TypedRequest``s; `#` lines are comments.
    ///
    /// - Throws: ``BenchError`` naming the file and line at fault.
    public static func load(_ path: String) throws -> [TypedRequest] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchError("\(path): cannot read the typed requests")
        }
        var requests: [TypedRequest] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            do {
                requests.append(try JSONDecoder().decode(TypedRequest.self, from: Data(trimmed.utf8)))
            } catch {
                throw BenchError("\(path):\(number + 1): not a typed request ({\"text\": ..., \"app\": ..., \"intent\": ... or null, \"slots\": {...}}): \(error)")
            }
        }
        if requests.isEmpty { throw BenchError("\(path): no requests") }
        return requests
    }

    /// Scores the readings (``Assistant/reading(of:)``) of `requests`, in order.
    public static func run(_ requests: [TypedRequest], readings: [TextReading]) -> Report {
        report(zip(requests, readings).map { score($0, $1) })
    }

    /// Judges one reading against its labels.
    public static func score(_ request: TypedRequest, _ reading: TextReading) -> Result {
        var result = Result(text: request.text, set: request.set, expectedApp: request.app, expectedIntent: request.intent,
                            expectedSlots: request.slots, outcome: "notUnderstood", app: nil, intent: nil, slots: [:],
                            correct: false, intentCorrect: false, falseAction: false)
        switch reading {
        case .notUnderstood:
            break
        case .understood(let app, let intent, let slots):
            (result.outcome, result.app, result.intent, result.slots) = ("understood", app, intent, slots)
        case .whichApp(let intent, _):
            (result.outcome, result.intent) = ("whichApp", intent)
        }
        guard let expected = request.intent else {
            result.falseAction = result.outcome != "notUnderstood"
            result.correct = !result.falseAction
            return result
        }
        // Values are compared as words, as they would be said: the case,
        // punctuation and spelling of free text as typed ("buy iPhone case",
        // "at six?") against a label written either way.
        result.intentCorrect = result.outcome == "understood" && result.intent == expected
            && (request.app == nil || result.app == request.app)
        result.correct = result.intentCorrect
            && request.slots.allSatisfy { name, label in result.slots[name].map { SlotValue.matches(label: label, value: $0) } ?? false }
        return result
    }

    static func report(_ results: [Result]) -> Report {
        let inDomain = results.filter { $0.expectedIntent != nil }
        let outOfDomain = results.filter { $0.expectedIntent == nil }
        func rate(_ n: Int, _ d: Int) -> Double { d == 0 ? 0 : Double(n) / Double(d) }
        func groups(_ key: (Result) -> String?) -> [String: Report.Group] {
            Dictionary(grouping: results.filter { key($0) != nil }, by: { key($0)! }).mapValues { members in
                let right = members.filter(\.correct).count
                return Report.Group(requests: members.count, correct: right, rate: rate(right, members.count))
            }
        }
        return Report(
            requests: results.count, inDomain: inDomain.count,
            coverage: rate(inDomain.filter(\.correct).count, inDomain.count),
            intentAccuracy: rate(inDomain.filter(\.intentCorrect).count, inDomain.count),
            outOfDomain: outOfDomain.count, falseActionRate: rate(outOfDomain.filter(\.falseAction).count, outOfDomain.count),
            bySet: groups(\.set), byIntent: groups { $0.expectedIntent ?? "none" }, results: results)
    }
}
