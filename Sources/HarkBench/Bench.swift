import Foundation
import Hark
import HarkAudio
import HarkGrammar
import Synchronization

/// How one utterance came out.
public struct UtteranceResult: Sendable, Codable {
    public var audio: String
    /// The manifest's `set` (e.g. "core", "domains"), when it gives one.
    public var set: String?
    /// The words spoken, when labelled.
    public var expectedText: String?
    public var expectedIntent: String?
    public var expectedSlots: [String: String]
    public var heard: String
    public var intent: String?
    public var slots: [String: String]
    /// Intent right and every labelled slot exactly right (trimmed); for
    /// out-of-grammar audio, rejected.
    public var accepted: Bool
    public var intentCorrect: Bool
    /// Word edits against the reference text, and its length.
    public var wordErrors: Int
    public var referenceWords: Int
    public var audioSeconds: Double
    public var decodeSeconds: Double
    /// From having all the audio to having the intent.
    public var latencySeconds: Double
    /// Slots given, slots labelled, and slots given with the labelled value
    /// (for slot precision, recall and F1; in-grammar utterances only).
    public var slotsGiven = 0
    public var slotsLabelled = 0
    public var slotsRight = 0
    /// How the assistant answered: "notUnderstood", "whichApp" (it asked
    /// which app), or the handler's response code.
    public var code: String?
    /// The recognizer's confidence in what it heard, 0...1 (0 when rejected).
    public var confidence: Double = 0
    /// The words heard, with their confidence (empty when rejected).
    public var words: [TimedWord] = []
    /// Streaming (`hark bench --streaming`): how the utterance was heard live.
    public var streamed: Streamed?
    /// Why the recognizer heard no request, and the reading it cleared
    /// (nil when it heard one): what a change to rejection would let through.
    public var rejection: HeardRejection?

    /// How one utterance came out when fed through the live loop in real-time-sized pieces.
    public struct Streamed: Sendable, Codable {
        /// From the arrival of the last audio the endpointer needed to the intent being ready.
        public var finalizeSeconds: Double
        /// From the end of the speech (the last word's end in the recognizer's
        /// alignment, or the endpointer's end of speech when that is sooner)
        /// to the intent being ready, with the audio arriving in real time.
        public var endOfSpeechSeconds: Double
        /// From the end of the speech to the first sample of the spoken answer.
        public var answerSeconds: Double?
        /// Ended by grammar-aware endpointing.
        public var endedEarly: Bool
        /// Utterances the endpointer found in the recording (more than one:
        /// a pause cut it, or a sound beside it was taken for speech; the
        /// first in which words were heard is scored); 0 when none was answered.
        public var utterances: Int

        enum CodingKeys: String, CodingKey {
            case finalizeSeconds = "finalize_seconds", endOfSpeechSeconds = "end_of_speech_seconds"
            case answerSeconds = "answer_seconds", endedEarly = "ended_early", utterances
        }
    }

    public init(audio: String, expectedIntent: String?, expectedSlots: [String: String], heard: String,
                intent: String?, slots: [String: String], accepted: Bool, intentCorrect: Bool,
                wordErrors: Int = 0, referenceWords: Int = 0, audioSeconds: Double = 0, decodeSeconds: Double = 0,
                latencySeconds: Double = 0) {
        self.audio = audio
        self.expectedIntent = expectedIntent
        self.expectedSlots = expectedSlots
        self.heard = heard
        self.intent = intent
        self.slots = slots
        self.accepted = accepted
        self.intentCorrect = intentCorrect
        self.wordErrors = wordErrors
        self.referenceWords = referenceWords
        self.audioSeconds = audioSeconds
        self.decodeSeconds = decodeSeconds
        self.latencySeconds = latencySeconds
    }

    enum CodingKeys: String, CodingKey {
        case audio, set, heard, intent, slots, accepted, code, confidence
        case expectedText = "expected_text", expectedIntent = "expected_intent", expectedSlots = "expected_slots"
        case intentCorrect = "intent_correct", wordErrors = "word_errors", referenceWords = "reference_words"
        case audioSeconds = "audio_seconds", decodeSeconds = "decode_seconds", latencySeconds = "latency_seconds"
        case slotsGiven = "slots_given", slotsLabelled = "slots_labelled", slotsRight = "slots_right"
        case streamed, words, rejection
    }
}

/// The figures of a benchmark run.
public struct BenchReport: Sendable, Encodable {
    public struct Latency: Sendable, Codable { public var p50: Double; public var p95: Double }

    /// Figures over a subset of the utterances: one intent, or one manifest `set`.
    public struct Group: Sendable, Encodable, Equatable {
        public var utterances: Int
        /// Utterances accepted (command acceptance), and their share.
        public var accepted: Int
        public var commandAcceptance: Double
        public var intentAccuracy: Double
        public var wer: Double?

        enum CodingKeys: String, CodingKey {
            case utterances, accepted, wer
            case commandAcceptance = "command_acceptance", intentAccuracy = "intent_accuracy"
        }

        public init(_ results: [UtteranceResult]) {
            utterances = results.count
            accepted = results.filter(\.accepted).count
            commandAcceptance = Double(accepted) / Double(max(1, results.count))
            intentAccuracy = Double(results.filter(\.intentCorrect).count) / Double(max(1, results.count))
            let words = results.reduce(0) { $0 + $1.referenceWords }
            wer = words == 0 ? nil : Double(results.reduce(0) { $0 + $1.wordErrors }) / Double(words)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(utterances, forKey: .utterances)
            try c.encode(accepted, forKey: .accepted)
            try c.encode(commandAcceptance, forKey: .commandAcceptance)
            try c.encode(intentAccuracy, forKey: .intentAccuracy)
            try c.encode(wer, forKey: .wer)
        }
    }

    /// What produced the report: written first, so a report always says
    /// which build, machine and settings it came from.
    public var settings: BenchSettings?
    /// True when the run was interrupted (SIGINT, SIGTERM): the figures are
    /// over the utterances decoded so far.
    public var partial = false

    public var utterances: Int
    public var commandAcceptance: Double
    public var intentAccuracy: Double
    /// nil when no utterance has reference text (labels give no transcripts).
    public var wer: Double?
    /// Utterances with reference text heard with any word wrong, over those with text.
    public var ser: Double?
    /// Over in-grammar utterances: slots given with the labelled value over
    /// slots given, over slots labelled, and their harmonic mean.
    public var slotPrecision: Double
    public var slotRecall: Double
    public var slotF1: Double
    /// Out-of-grammar utterances given an intent, over all out-of-grammar utterances.
    public var falseAcceptRate: Double?
    public var rtf: Double
    public var latencyMs: Latency
    /// The process's peak resident memory so far, in MiB.
    public var peakRssMb: Double = Bench.peakResidentMegabytes()
    /// `--streaming`: how quickly answers came, live.
    public var streaming: Streaming?

    /// Latencies of the live loop (`hark bench --streaming`), over the
    /// utterances it heard.
    public struct Streaming: Sendable, Encodable {
        /// From the arrival of the last audio the endpointer needed to the intent being ready.
        public var finalizeMs: Latency
        /// From the end of the speech to the intent being ready.
        public var endOfSpeechMs: Latency
        /// From the end of the speech to the first sample of the spoken answer.
        public var firstAnswerSampleMs: Latency?
        /// Utterances ended by grammar-aware endpointing, over those heard.
        public var endedEarly: Double
        /// Recordings heard as more than one utterance (a pause, or a sound beside the speech).
        public var cut: Int
        /// Recordings in which no utterance was answered (none found, or no word heard in any).
        public var unheard: Int

        enum CodingKeys: String, CodingKey {
            case finalizeMs = "finalize_ms", endOfSpeechMs = "end_of_speech_ms", firstAnswerSampleMs = "first_answer_sample_ms"
            case endedEarly = "ended_early", cut, unheard
        }

        init?(_ results: [UtteranceResult]) {
            let streamed = results.compactMap(\.streamed)
            guard !streamed.isEmpty else { return nil }
            let heard = streamed.filter { $0.utterances > 0 }
            func latency(_ values: [Double]) -> Latency {
                let sorted = values.sorted()
                func at(_ p: Double) -> Double {
                    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))] * 1000
                }
                return Latency(p50: at(0.5), p95: at(0.95))
            }
            finalizeMs = latency(heard.map(\.finalizeSeconds))
            endOfSpeechMs = latency(heard.map(\.endOfSpeechSeconds))
            let answers = heard.compactMap(\.answerSeconds)
            firstAnswerSampleMs = answers.isEmpty ? nil : latency(answers)
            endedEarly = heard.isEmpty ? 0 : Double(heard.filter(\.endedEarly).count) / Double(heard.count)
            cut = streamed.filter { $0.utterances > 1 }.count
            unheard = streamed.count - heard.count
        }
    }
    /// One entry per noise condition when noise is mixed (clean first).
    public var bySnr: [Condition] = []
    public var errors: [UtteranceResult]
    /// Every utterance of the clean run, in manifest order.
    public var results: [UtteranceResult] = []
    /// Figures per expected intent ("reject" for out-of-grammar audio) and
    /// per manifest `set` ("none" for utterances without one).
    public var byIntent: [String: Group] = [:]
    public var bySet: [String: Group] = [:]
    /// The stock decoder's figures on the same audio (`--baseline`).
    public var baseline: Baseline?
    /// How well the confidence predicts a right reading: utterances that
    /// were heard as something (not rejected), by confidence, with the
    /// share read right (in grammar, accepted; out of grammar, never).
    public var calibration: [CalibrationBin] = []

    /// One band of confidence.
    public struct CalibrationBin: Sendable, Encodable, Equatable {
        public var low: Double
        public var high: Double
        public var utterances: Int
        public var right: Int
        public var meanConfidence: Double

        enum CodingKeys: String, CodingKey {
            case low, high, utterances, right
            case meanConfidence = "mean_confidence"
        }
    }

    /// `results` heard as something, in ten bands of confidence.
    public static func calibration(of results: [UtteranceResult]) -> [CalibrationBin] {
        let heard = results.filter { $0.code != "notUnderstood" && !$0.heard.isEmpty }
        return (0..<10).compactMap { band in
            let low = Double(band) / 10, high = Double(band + 1) / 10
            let inBand = heard.filter { $0.confidence >= low && ($0.confidence < high || (band == 9 && $0.confidence <= 1)) }
            guard !inBand.isEmpty else { return nil }
            return CalibrationBin(low: low, high: high, utterances: inBand.count,
                                  right: inBand.filter { $0.expectedIntent != nil && $0.accepted }.count,
                                  meanConfidence: inBand.map(\.confidence).reduce(0, +) / Double(inBand.count))
        }
    }

    /// A peer's figures beside Hark's.
    public struct Baseline: Sendable, Encodable {
        public var name: String
        public var commandAcceptance: Double
        public var intentAccuracy: Double
        public var wer: Double?
        public var falseAcceptRate: Double?
        public var rtf: Double
        /// Hark's command acceptance minus the peer's, in percentage points.
        public var accuracyDifference: Double
        /// The peer's real-time factor over Hark's: how many times faster Hark decodes.
        public var speedRatio: Double
        public var bySnr: [Condition] = []
        public var errors: [UtteranceResult] = []

        enum CodingKeys: String, CodingKey {
            case name, wer, rtf, errors
            case commandAcceptance = "command_acceptance", intentAccuracy = "intent_accuracy"
            case accuracyDifference = "accuracy_difference", speedRatio = "speed_ratio", bySnr = "by_snr"
            case falseAcceptRate = "false_accept_rate"
        }

        public init(name: String, peer: BenchReport, hark: BenchReport) {
            self.name = name
            commandAcceptance = peer.commandAcceptance
            intentAccuracy = peer.intentAccuracy
            wer = peer.wer
            falseAcceptRate = peer.falseAcceptRate
            rtf = peer.rtf
            accuracyDifference = (hark.commandAcceptance - peer.commandAcceptance) * 100
            speedRatio = hark.rtf > 0 ? peer.rtf / hark.rtf : 0
            errors = peer.errors
        }
    }

    /// The figures of one noise condition.
    public struct Condition: Sendable, Encodable {
        /// nil for the clean audio.
        public var snrDb: Double?
        public var commandAcceptance: Double
        public var intentAccuracy: Double
        public var wer: Double?
        public var falseAcceptRate: Double?
        public var rtf: Double
        /// The utterances not accepted in this condition, expected versus got.
        public var errors: [UtteranceResult]
        /// Every utterance of this condition.
        public var results: [UtteranceResult] = []

        enum CodingKeys: String, CodingKey {
            case wer, rtf, errors, results
            case snrDb = "snr_db", commandAcceptance = "command_acceptance", intentAccuracy = "intent_accuracy"
            case falseAcceptRate = "false_accept_rate"
        }
    }

    /// This report's figures as one condition.
    public func condition(snr: Double?) -> Condition {
        Condition(snrDb: snr, commandAcceptance: commandAcceptance, intentAccuracy: intentAccuracy, wer: wer,
                  falseAcceptRate: falseAcceptRate, rtf: rtf, errors: errors, results: results)
    }

    enum CodingKeys: String, CodingKey {
        case utterances, wer, ser, rtf, errors
        case commandAcceptance = "command_acceptance", intentAccuracy = "intent_accuracy"
        case slotPrecision = "slot_precision", slotRecall = "slot_recall", slotF1 = "slot_f1"
        case falseAcceptRate = "false_accept_rate", latencyMs = "latency_ms"
        case peakRssMb = "peak_rss_mb", bySnr = "by_snr", baseline, streaming
        case settings, partial, results, byIntent = "by_intent", bySet = "by_set", calibration
    }

    /// Every key is written, a figure that does not apply as null (a report
    /// reader should not have to guess whether a key was forgotten).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(settings, forKey: .settings)
        try c.encode(partial, forKey: .partial)
        try c.encode(utterances, forKey: .utterances)
        try c.encode(commandAcceptance, forKey: .commandAcceptance)
        try c.encode(intentAccuracy, forKey: .intentAccuracy)
        try c.encode(slotPrecision, forKey: .slotPrecision)
        try c.encode(slotRecall, forKey: .slotRecall)
        try c.encode(slotF1, forKey: .slotF1)
        try c.encode(wer, forKey: .wer)
        try c.encode(ser, forKey: .ser)
        try c.encode(falseAcceptRate, forKey: .falseAcceptRate)
        try c.encode(rtf, forKey: .rtf)
        try c.encode(latencyMs, forKey: .latencyMs)
        try c.encode(peakRssMb, forKey: .peakRssMb)
        try c.encode(streaming, forKey: .streaming)
        try c.encode(bySnr, forKey: .bySnr)
        try c.encode(errors, forKey: .errors)
        try c.encodeIfPresent(baseline, forKey: .baseline)
        try c.encode(byIntent, forKey: .byIntent)
        try c.encode(bySet, forKey: .bySet)
        try c.encode(calibration, forKey: .calibration)
        try c.encode(results, forKey: .results)
    }

    /// The report as a Markdown table.
    public var markdown: String {
        func pct(_ x: Double) -> String { String(format: "%.1f%%", x * 100) }
        var lines = [
            "| measure | value |", "|---|---|",
            "| utterances | \(utterances) |",
            "| command acceptance | \(pct(commandAcceptance)) |",
            "| intent accuracy | \(pct(intentAccuracy)) |",
        ]
        lines.append("| slot precision / recall / F1 | \(pct(slotPrecision)) / \(pct(slotRecall)) / \(pct(slotF1)) |")
        if let wer { lines.append("| word error rate | \(pct(wer)) |") }
        if let ser { lines.append("| sentence error rate | \(pct(ser)) |") }
        if let falseAcceptRate { lines.append("| false accepts (out of grammar) | \(pct(falseAcceptRate)) |") }
        lines += [
            "| decoding real-time factor | \(String(format: "%.3f", rtf)) |",
            "| latency p50 / p95 | \(String(format: "%.0f / %.0f ms", latencyMs.p50, latencyMs.p95)) |",
            "| peak resident memory | \(String(format: "%.0f MiB", peakRssMb)) |",
        ]
        if let streaming {
            func ms(_ l: Latency) -> String { String(format: "%.0f / %.0f ms", l.p50, l.p95) }
            lines += [
                "| streaming: finalize p50 / p95 (last audio needed → intent) | \(ms(streaming.finalizeMs)) |",
                "| streaming: end of speech → intent p50 / p95 | \(ms(streaming.endOfSpeechMs)) |",
            ]
            if let answer = streaming.firstAnswerSampleMs { lines.append("| streaming: end of speech → first answer sample p50 / p95 | \(ms(answer)) |") }
            lines.append("| streaming: ended by grammar-aware endpointing | \(pct(streaming.endedEarly)) |")
            lines.append("| streaming: recordings heard as several utterances / with none answered | \(streaming.cut) / \(streaming.unheard) |")
        }
        if !bySnr.isEmpty {
            lines += ["", "| SNR | command acceptance | intent accuracy | word error rate | real-time factor |", "|---|---|---|---|---|"]
            for c in bySnr {
                lines.append("| \(c.snrDb.map { String(format: "%g dB", $0) } ?? "clean") | \(pct(c.commandAcceptance)) | \(pct(c.intentAccuracy)) | \(c.wer.map(pct) ?? "–") | \(String(format: "%.3f", c.rtf)) |")
            }
            let noisy = bySnr.filter { $0.snrDb != nil }
            if !noisy.isEmpty {
                lines.append("| average of the noisy | \(pct(noisy.map(\.commandAcceptance).reduce(0, +) / Double(noisy.count))) | | | |")
            }
        }
        if let baseline {
            func pctOrDash(_ x: Double?) -> String { x.map(pct) ?? "–" }
            lines += ["", "| beside \(baseline.name) | Hark | stock | difference |", "|---|---|---|---|",
                      "| command acceptance | \(pct(commandAcceptance)) | \(pct(baseline.commandAcceptance)) | \(String(format: "%+.1f points", baseline.accuracyDifference)) |",
                      "| intent accuracy | \(pct(intentAccuracy)) | \(pct(baseline.intentAccuracy)) | \(String(format: "%+.1f points", (intentAccuracy - baseline.intentAccuracy) * 100)) |",
                      "| word error rate | \(pctOrDash(wer)) | \(pctOrDash(baseline.wer)) | |",
                      "| false accepts (out of grammar) | \(pctOrDash(falseAcceptRate)) | \(pctOrDash(baseline.falseAcceptRate)) | |",
                      "| decoding real-time factor | \(String(format: "%.3f", rtf)) | \(String(format: "%.3f", baseline.rtf)) | Hark \(String(format: "%.1f", baseline.speedRatio))× as fast |"]
            if !baseline.bySnr.isEmpty {
                lines += ["", "| SNR | Hark command acceptance | stock command acceptance |", "|---|---|---|"]
                for (hark, stock) in zip(bySnr, baseline.bySnr) {
                    lines.append("| \(hark.snrDb.map { String(format: "%g dB", $0) } ?? "clean") | \(pct(hark.commandAcceptance)) | \(pct(stock.commandAcceptance)) |")
                }
                let noisy = zip(bySnr, baseline.bySnr).filter { $0.0.snrDb != nil }
                if !noisy.isEmpty {
                    let n = Double(noisy.count)
                    lines.append("| average of the noisy | \(pct(noisy.map(\.0.commandAcceptance).reduce(0, +) / n)) | \(pct(noisy.map(\.1.commandAcceptance).reduce(0, +) / n)) |")
                }
            }
        }
        if !calibration.isEmpty {
            lines += ["", "| confidence | utterances heard | read right | mean confidence |", "|---|---|---|---|"]
            for bin in calibration {
                lines.append("| \(String(format: "%.1f–%.1f", bin.low, bin.high)) | \(bin.utterances) | \(pct(Double(bin.right) / Double(bin.utterances))) | \(String(format: "%.2f", bin.meanConfidence)) |")
            }
        }
        let noisyErrors = bySnr.filter { $0.snrDb != nil }.map(\.errors.count).reduce(0, +)
        if noisyErrors > 0 {
            lines += ["", "\(noisyErrors) errors with noise mixed: listed per SNR in report.json (`by_snr[].errors`) with --report."]
        }
        if !errors.isEmpty {
            lines += ["", bySnr.isEmpty ? "Errors (expected → got):" : "Errors on the clean audio (expected → got):", ""]
            for e in errors {
                let expected = ([e.expectedIntent ?? "reject"] + e.expectedSlots.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
                let got = ([e.intent ?? (e.code == "whichApp" ? "asked which app" : "reject")] + e.slots.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
                lines.append("- `\(URL(fileURLWithPath: e.audio).lastPathComponent)`: \(expected) → \(got) (heard \"\(e.heard)\")")
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// Runs labelled utterances through the whole pipeline and scores them.
public enum Bench {
    /// Runs `utterances` through the whole pipeline and scores them.
    ///
    /// Each conversation (and each lone utterance) starts afresh: a new
    /// assistant over a new, empty data directory, so the apps begin with
    /// their initial data and nothing one utterance did (a list made, a
    /// message sent, vocabulary learnt) changes how another is heard or
    /// resolved. That is what lets `jobs` workers share the conversations out
    /// without changing any figure but the timings. A new assistant over the
    /// same apps reuses its decoder's search, so starting afresh is cheap.
    ///
    /// - Parameters:
    ///   - jobs: Conversations decoded at once; `makeAssistant` is called
    ///     with the worker's number (0..<jobs), so each worker can have its
    ///     own decoder.
    ///   - makeAssistant: A new assistant for `worker`, keeping the apps'
    ///     data in the given directory.
    ///   - progress: called after each utterance with (done, total).
    /// - Throws: the first audio or recognition error, naming the file.
    public static func run(_ utterances: [LabelledUtterance], jobs: Int = 1,
                           makeAssistant: @escaping @Sendable (_ worker: Int, _ dataDirectory: URL) throws -> Assistant,
                           noise: NoiseMixer? = nil, snr: Double? = nil, streaming: StreamingSettings? = nil,
                           progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
                           onResult: @escaping @Sendable (UtteranceResult) -> Void = { _ in }) async throws -> BenchReport {
        let groups = conversations(utterances)
        let root = Scratch.make("data")
        defer { Scratch.remove(root) }
        let next = Counter(), done = Counter()
        let total = utterances.count
        let workers = max(1, min(jobs, groups.count))
        let scored = try await withThrowingTaskGroup(of: [(Int, [UtteranceResult])].self) { tasks in
            for worker in 0..<workers {
                tasks.addTask {
                    var mine: [(Int, [UtteranceResult])] = []
                    while true {
                        let index = next.take()
                        guard index < groups.count else { break }
                        let results = try await Scratch.using {
                            let data = root.appendingPathComponent("conversation-\(index)")
                            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
                            defer { try? FileManager.default.removeItem(at: data) }
                            let assistant = try makeAssistant(worker, data)
                            // A stream adapts the recognizer to the speaker and
                            // microphone, and the worker's last recording was
                            // someone else's: each conversation is heard as by
                            // a session that has heard its speaker before (or,
                            // cold, as by a `hark listen` just started), so the
                            // figures do not depend on the order or --jobs.
                            let turns = groups[index].sorted(by: { ($0.turn ?? 0) < ($1.turn ?? 0) })
                            if let streaming, let first = turns.first {
                                await assistant.resetAdaptation()
                                if !streaming.coldStart {
                                    try await assistant.adaptListening(to: audio(first.audio, noise: noise, snr: snr))
                                }
                            }
                            var results: [UtteranceResult] = []
                            for u in turns {
                                let result: UtteranceResult
                                if let streaming {
                                    result = try await streamed(u, assistant: assistant, noise: noise, snr: snr, settings: streaming)
                                } else {
                                    let samples = try audio(u.audio, noise: noise, snr: snr)
                                    let started = ContinuousClock.now
                                    let turn = try await assistant.hear(samples)
                                    let latency = (ContinuousClock.now - started) / .seconds(1)
                                    result = score(u, turn, latency: latency)
                                }
                                // As the live loop does once it has answered
                                // (outside the latency, as there).
                                await assistant.settle()
                                results.append(result)
                                onResult(result)
                                progress(done.take() + 1, total)
                            }
                            return results
                        }
                        mine.append((index, results))
                    }
                    return mine
                }
            }
            var all: [(Int, [UtteranceResult])] = []
            for try await part in tasks { all += part }
            return all
        }
        return report(scored.sorted { $0.0 < $1.0 }.flatMap { $0.1 })
    }

    /// How `--streaming` feeds the audio.
    public struct StreamingSettings: Sendable {
        /// The endpointer (with grammar-aware endpointing unless its
        /// ``EndpointerConfiguration/completeSentenceSilence`` is nil).
        public var endpointer: EndpointerConfiguration
        /// Samples per piece fed (320: 20 ms, a microphone period).
        public var chunk: Int
        /// Synthesises the answer, to time the first sample of it; nil leaves that out.
        public var synthesizer: (any SpeechSynthesizer)?
        /// Each conversation is heard as by a `hark listen` just started
        /// (the model's starting cepstral mean), not as by a session that has
        /// heard its speaker before (the mean of their first recording).
        public var coldStart: Bool

        public init(endpointer: EndpointerConfiguration = EndpointerConfiguration(), chunk: Int = 320,
                    synthesizer: (any SpeechSynthesizer)? = nil, coldStart: Bool = false) {
            self.endpointer = endpointer
            self.chunk = chunk
            self.synthesizer = synthesizer
            self.coldStart = coldStart
        }
    }

    /// Feeds one recording through the live loop (``LiveHearing``) in
    /// pieces of `settings.chunk` samples, as a microphone would, with a
    /// second of silence after it so the endpointer can end it, and scores
    /// the first utterance heard. The decoder keeps up with the audio (its
    /// real-time factor is far below 1), so the times after the last piece
    /// are those a live listener waits.
    static func streamed(_ u: LabelledUtterance, assistant: Assistant, noise: NoiseMixer?, snr: Double?,
                         settings: StreamingSettings) async throws -> UtteranceResult {
        let samples = try untrimmedAudio(u.audio, noise: noise, snr: snr, silenceAfter: 1)
        // As `hark listen` hears an open microphone: a clatter or a breath
        // the endpointer took for speech, in which no word was heard, goes
        // unanswered, and the request after it is the answer scored.
        let live = LiveHearing(assistant: assistant, configuration: settings.endpointer, passingUnheard: true)
        var heard: [HeardUtterance] = []
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + max(1, settings.chunk))
            heard += try await live.process(Array(samples[start..<end]))
            start = end
        }
        heard += try await live.finish()
        // The first utterance answered (one in which words were heard).
        guard let first = heard.first(where: { $0.turn != nil }), let turn = first.turn else {
            var result = score(u, Turn(heard: "", confidence: 0, app: nil, intent: nil, slots: [:], speech: "", code: "notUnderstood",
                                       prompt: false, audioSeconds: 0, decodeSeconds: 0), latency: 0)
            result.streamed = UtteranceResult.Streamed(finalizeSeconds: 0, endOfSpeechSeconds: 0, endedEarly: false, utterances: 0)
            return result
        }
        // The last word's end in the recognizer's alignment, unless the
        // endpointer heard the speech end sooner (pocketsphinx's frame
        // times can run late after a pause it dropped as silence).
        let aligned = turn.words.last.map { first.utterance.startTime + $0.end } ?? .infinity
        let speechEnd = min(aligned, first.utterance.speechEndTime)
        let endOfSpeech = max(0, first.endpointTime - speechEnd) + first.finalizeSeconds
        var answer: Double?
        if let synthesizer = settings.synthesizer, !turn.speech.isEmpty {
            let started = ContinuousClock.now
            _ = try synthesizer.synthesize(turn.speech)
            answer = endOfSpeech + (ContinuousClock.now - started) / .seconds(1)
        }
        var result = score(u, turn, latency: first.finalizeSeconds)
        result.streamed = UtteranceResult.Streamed(finalizeSeconds: first.finalizeSeconds, endOfSpeechSeconds: endOfSpeech, answerSeconds: answer,
                                   endedEarly: first.endedEarly, utterances: heard.count)
        return result
    }

    /// Scores a stock decoder on the same utterances: it decodes every
    /// utterance's audio (untrimmed, as a microphone gives it) in one run,
    /// and each conversation's transcripts are read by a text-only assistant
    /// over fresh data, exactly as Hark's own transcripts are parsed.
    public static func baseline(_ utterances: [LabelledUtterance], stock: StockPocketSphinx, jobs: Int = 1,
                                makeReader: (_ dataDirectory: URL) throws -> Assistant,
                                noise: NoiseMixer? = nil, snr: Double? = nil) async throws -> BenchReport {
        let groups = conversations(utterances)
        let ordered = groups.flatMap { $0.sorted { ($0.turn ?? 0) < ($1.turn ?? 0) } }
        let audio = try ordered.map { try untrimmedAudio($0.audio, noise: noise, snr: snr) }
        let output = try stock.decode(audio, jobs: jobs)
        let root = Scratch.make("baseline")
        defer { Scratch.remove(root) }
        var results: [UtteranceResult] = []
        var index = 0
        for (g, group) in groups.enumerated() {
            let data = root.appendingPathComponent("conversation-\(g)")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            let reader = try makeReader(data)
            for u in group.sorted(by: { ($0.turn ?? 0) < ($1.turn ?? 0) }) {
                var turn = await reader.read(output.transcripts[index])
                turn.heard = output.transcripts[index]
                turn.audioSeconds = Double(audio[index].count) / 16_000
                turn.decodeSeconds = turn.audioSeconds * output.realTimeFactor
                results.append(score(u, turn, latency: 0))
                index += 1
            }
        }
        return report(results)
    }

    /// The utterance's samples before trimming, as a microphone gives them:
    /// the file's, or with noise mixed in, and `silenceAfter` seconds of
    /// silence after them (the noise goes on over it).
    static func untrimmedAudio(_ path: String, noise: NoiseMixer?, snr: Double?, silenceAfter: Double = 0) throws -> [Int16] {
        let rate = PCMAudio.recognitionRate
        let clean = try WAVReader.readForRecognition(contentsOf: path).samples + [Float](repeating: 0, count: Int(Double(rate) * silenceAfter))
        let mixed = noise.flatMap { noise in snr.map { noise.mix(clean, snr: $0, key: URL(fileURLWithPath: path).lastPathComponent) } } ?? clean
        return PCMAudio(samples: mixed, sampleRate: rate).int16Samples()
    }

    /// The utterances as conversations, in order: the turns of one
    /// conversation together, a lone utterance on its own.
    static func conversations(_ utterances: [LabelledUtterance]) -> [[LabelledUtterance]] {
        var groups: [[LabelledUtterance]] = []
        var byConversation: [String: Int] = [:]
        for u in utterances {
            if let c = u.conversation, let index = byConversation[c] {
                groups[index].append(u)
            } else {
                if let c = u.conversation { byConversation[c] = groups.count }
                groups.append([u])
            }
        }
        return groups
    }

    /// The utterance's samples as the recognizer gets them: with noise
    /// mixed in when asked (before the endpointer, as a microphone would
    /// hear it), then trimmed to the speech.
    static func audio(_ path: String, noise: NoiseMixer?, snr: Double?) throws -> [Int16] {
        guard let noise, let snr else { return try TurnAudio.read(path: path) }
        let clean = try WAVReader.readForRecognition(contentsOf: path)
        let mixed = PCMAudio(samples: noise.mix(clean.samples, snr: snr, key: URL(fileURLWithPath: path).lastPathComponent),
                             sampleRate: PCMAudio.recognitionRate)
        return try TurnAudio.samples(of: mixed)
    }

    /// Peak resident memory of this process so far, in MiB.
    public static func peakResidentMegabytes() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Double(usage.ru_maxrss) / 1024 // kilobytes on Linux
    }

    static func score(_ u: LabelledUtterance, _ turn: Turn, latency: Double) -> UtteranceResult {
        let answer = Answer(app: turn.app, intent: turn.intent, slots: turn.slots, spokenSlots: turn.spokenSlots, code: turn.code)
        let judgement = judge(u, answer)
        let reference = u.text.map(WordErrorRate.words) ?? []
        let given = u.intent != nil && answer.isAnswer ? turn.slots : [:]
        var result = UtteranceResult(
            audio: u.audio, expectedIntent: u.intent, expectedSlots: u.slots, heard: turn.heard,
            intent: answer.isAnswer ? turn.intent : nil, slots: turn.slots, accepted: judgement.accepted,
            intentCorrect: judgement.intentCorrect,
            wordErrors: u.text == nil ? 0 : WordErrorRate.edits(reference, WordErrorRate.words(turn.heard)),
            referenceWords: reference.count, audioSeconds: turn.audioSeconds, decodeSeconds: turn.decodeSeconds,
            latencySeconds: latency)
        if u.intent != nil {
            result.slotsGiven = given.count
            result.slotsLabelled = u.slots.count
            result.slotsRight = u.slots.filter { name, label in
                given[name].map { SlotValue.matches(label: label, value: $0, spoken: answer.spokenSlots[name]) } ?? false
            }.count
        }
        result.code = answer.code
        result.confidence = turn.confidence
        result.words = turn.words
        result.rejection = turn.rejection
        result.set = u.set
        result.expectedText = u.text
        return result
    }

    /// What the assistant made of an utterance, as far as scoring goes.
    public struct Answer: Sendable, Equatable {
        public var app: String?
        public var intent: String?
        public var slots: [String: String]
        /// The words said for each slot (``Turn/spokenSlots``).
        public var spokenSlots: [String: String]
        /// The turn's response code (`success`, `unsupported`, `notUnderstood`, ...).
        public var code: String

        public init(app: String?, intent: String?, slots: [String: String] = [:], spokenSlots: [String: String] = [:], code: String) {
            self.app = app
            self.intent = intent
            self.slots = slots
            self.spokenSlots = spokenSlots
            self.code = code
        }

        /// Whether the assistant settled on an app and intent. Not
        /// understanding, or asking which app, is no answer. An app without a
        /// handler for the intent (`unsupported`) still answered: the
        /// intent and slots are what speech-to-intent is judged on.
        public var isAnswer: Bool {
            app != nil && intent != nil && code != "notUnderstood" && code != "whichApp"
        }
    }

    /// How one answer is judged.
    public struct Judgement: Sendable, Equatable {
        /// In-grammar: "command acceptance" — the intent is right and every
        /// labelled slot is there with the labelled value
        /// (``SlotValue/matches(label:value:spoken:)``); extra slots do not
        /// count against it; no answer is an error. Out-of-grammar: the
        /// utterance was rejected.
        public var accepted: Bool
        /// In-grammar: the intent (and app, when labelled) is right.
        /// Out-of-grammar: rejected.
        public var intentCorrect: Bool

        public init(accepted: Bool, intentCorrect: Bool) {
            self.accepted = accepted
            self.intentCorrect = intentCorrect
        }
    }

    /// Judges `answer` against the labels of `u`.
    public static func judge(_ u: LabelledUtterance, _ answer: Answer) -> Judgement {
        guard let expectedIntent = u.intent else {
            let rejected = answer.code == "notUnderstood"
            return Judgement(accepted: rejected, intentCorrect: rejected)
        }
        let intentCorrect = answer.isAnswer && answer.intent == expectedIntent && (u.app == nil || answer.app == u.app)
        let slotsCorrect = u.slots.allSatisfy { name, label in
            answer.slots[name].map { SlotValue.matches(label: label, value: $0, spoken: answer.spokenSlots[name]) } ?? false
        }
        return Judgement(accepted: intentCorrect && slotsCorrect, intentCorrect: intentCorrect)
    }

    /// The figures of scored results.
    public static func report(_ results: [UtteranceResult]) -> BenchReport {
        let n = Double(max(1, results.count))
        let inGrammar = results.filter { $0.expectedIntent != nil }
        let outOfGrammar = results.filter { $0.expectedIntent == nil }
        let latencies = results.map(\.latencySeconds).sorted()
        func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            return latencies[min(latencies.count - 1, Int((p * Double(latencies.count - 1)).rounded()))] * 1000
        }
        let audio = results.reduce(0) { $0 + $1.audioSeconds }
        let words = results.reduce(0) { $0 + $1.referenceWords }
        let withText = results.filter { $0.referenceWords > 0 }
        let given = Double(results.reduce(0) { $0 + $1.slotsGiven })
        let labelled = Double(results.reduce(0) { $0 + $1.slotsLabelled })
        let right = Double(results.reduce(0) { $0 + $1.slotsRight })
        let precision = given > 0 ? right / given : (labelled > 0 ? 0 : 1)
        let recall = labelled > 0 ? right / labelled : 1
        var report = BenchReport(
            utterances: results.count,
            commandAcceptance: Double(inGrammar.filter(\.accepted).count) / Double(max(1, inGrammar.count)),
            intentAccuracy: Double(results.filter(\.intentCorrect).count) / n,
            wer: words == 0 ? nil : Double(results.reduce(0) { $0 + $1.wordErrors }) / Double(words),
            ser: withText.isEmpty ? nil : Double(withText.filter { $0.wordErrors > 0 }.count) / Double(withText.count),
            slotPrecision: precision, slotRecall: recall,
            slotF1: precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0,
            falseAcceptRate: outOfGrammar.isEmpty ? nil
                : Double(outOfGrammar.filter { !$0.accepted }.count) / Double(outOfGrammar.count),
            rtf: audio > 0 ? results.reduce(0) { $0 + $1.decodeSeconds } / audio : 0,
            latencyMs: .init(p50: percentile(0.5), p95: percentile(0.95)),
            errors: results.filter { !$0.accepted },
            results: results,
            byIntent: Dictionary(grouping: results, by: { $0.expectedIntent ?? "reject" }).mapValues { BenchReport.Group($0) },
            bySet: Dictionary(grouping: results, by: { $0.set ?? "none" }).mapValues { BenchReport.Group($0) },
            calibration: BenchReport.calibration(of: results))
        report.streaming = BenchReport.Streaming(results)
        return report
    }
}

/// The temporary folders a benchmark makes (`$TMPDIR/hark-bench-*`), known
/// so that an interrupted run can remove them before it exits.
public enum Scratch {
    private static let made = Mutex<Set<String>>([])
    /// Whether the process is exiting, and how many workers are writing in
    /// the folders now.
    private static let activity = Mutex<(closed: Bool, active: Int)>((false, 0))

    /// Runs `body`, which writes in the folders, unless the process is
    /// exiting: then it waits for the exit instead, so that nothing is
    /// written after ``removeAll(waitingUpTo:)`` removed the folders.
    public static func using<T>(_ body: () async throws -> T) async rethrows -> T {
        while !activity.withLock({ a in a.closed ? false : { a.active += 1; return true }() }) {
            try? await Task.sleep(for: .seconds(3600))
        }
        defer { activity.withLock { $0.active -= 1 } }
        return try await body()
    }

    /// A new, empty folder `hark-bench-<what>-<uuid>` in the temporary directory.
    public static func make(_ what: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hark-bench-\(what)-\(UUID().uuidString)")
        made.withLock { _ = $0.insert(url.path) }
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes a folder ``make(_:)`` made.
    public static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
        made.withLock { _ = $0.remove(url.path) }
    }

    /// Removes every folder still there (on an interrupt): first lets the
    /// workers in ``using(_:)`` finish (at most `limit`), and lets no other
    /// start.
    public static func removeAll(waitingUpTo limit: Duration = .seconds(60)) {
        let deadline = ContinuousClock.now + limit
        activity.withLock { $0.closed = true }
        while activity.withLock({ $0.active }) > 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        for path in made.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
        made.withLock { $0.removeAll() }
    }
}

/// A count shared by the bench's workers.
private final class Counter: Sendable {
    private let value = Mutex(0)
    /// The count before this call; counts one.
    func take() -> Int { value.withLock { v in defer { v += 1 }; return v } }
}

/// Word error rate: word-level edit distance over the reference length.
public enum WordErrorRate {
    /// The words as the grammar spells them ("MonkeyChat" → "monkey chat"),
    /// so a written reference and a recognised transcript compare fairly.
    public static func words(_ text: String) -> [String] {
        SpokenForm.words(of: text)
    }

    /// Substitutions + insertions + deletions turning `reference` into `hypothesis`.
    public static func edits(_ reference: [String], _ hypothesis: [String]) -> Int {
        var row = Array(0...hypothesis.count)
        for (i, r) in reference.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, h) in hypothesis.enumerated() {
                let above = row[j + 1]
                row[j + 1] = min(above + 1, row[j] + 1, diagonal + (r == h ? 0 : 1))
                diagonal = above
            }
        }
        return row[hypothesis.count]
    }
}
