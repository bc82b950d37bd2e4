import Foundation
import Hark
@testable import HarkBench
import HarkRecognition
import HarkTestSupport
import Testing

typealias BenchAnswer = Bench.Answer

private let order = LabelledUtterance(
    audio: "/a/x.wav", intent: "orderDrink",
    slots: ["coffeeDrink": "americano", "milkAmount": " milk", "size": "twelve ounce"])

@Suite("bench: labels and scoring")
struct BenchTests {
    @Test("labels load in file order, resolved against the audio folder, values as written")
    func loadLabels() throws {
        let dir = try temporaryDirectory()
        let labels = dir.appendingPathComponent("labels.json")
        try Data("""
            {
              "b.wav": {"intent": "orderDrink", "slots": {"coffeeDrink": "latte", "milkAmount": " milk"}},
              "a.wav": {"intent": "orderDrink", "slots": {}},
              "c.wav": {"intent": "orderDrink"},
              "/abs/d.wav": {"intent": null}
            }
            """.utf8).write(to: labels)
        let utterances = try Labels.load(labels.path, audioDirectory: "/clips")
        #expect(utterances.map(\.audio) == ["/abs/d.wav", "/clips/a.wav", "/clips/b.wav", "/clips/c.wav"])
        #expect(utterances[2].intent == "orderDrink")
        #expect(utterances[2].slots == ["coffeeDrink": "latte", "milkAmount": " milk"])
        #expect(utterances[3].slots == [:])
        #expect(utterances[0].intent == nil)
        #expect(utterances.allSatisfy { $0.app == nil && $0.text == nil })
    }

    @Test("the default audio folder is the labels' audio/ folder when there is one")
    func defaultAudioDirectory() throws {
        let dir = try temporaryDirectory()
        let labels = dir.appendingPathComponent("labels.json").path
        #expect(Labels.defaultAudioDirectory(for: labels) == dir.path)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("audio"), withIntermediateDirectories: true)
        #expect(Labels.defaultAudioDirectory(for: labels) == dir.appendingPathComponent("audio").path)
    }

    @Test("bad label files are errors naming the file",
          arguments: ["not json", "[1, 2]", "{\"a.wav\": {\"intent\": 3}}", "{\"a.wav\": {\"slots\": {\"size\": 12}}}", "{}"])
    func badLabels(text: String) throws {
        let path = try temporaryDirectory().appendingPathComponent("labels.json")
        try Data(text.utf8).write(to: path)
        let error = #expect(throws: BenchError.self) {
            try Labels.load(path.path, audioDirectory: "/clips")
        }
        #expect(error.map { "\($0)".hasPrefix(path.path + ":") } == true, "\(String(describing: error))")
    }

    @Test("command acceptance: right intent and every labelled slot, trimmed; extra slots are fine")
    func accepts() {
        let exact = BenchAnswer(app: "Barista", intent: "orderDrink",
                           slots: ["coffeeDrink": "americano", "milkAmount": "milk", "size": "twelve ounce"], code: "unsupported")
        #expect(Bench.judge(order, exact) == .init(accepted: true, intentCorrect: true))
        var extra = exact
        extra.slots["roast"] = "dark roast"
        #expect(Bench.judge(order, extra).accepted)
        var padded = exact
        padded.slots["size"] = "twelve ounce "
        #expect(Bench.judge(order, padded).accepted)
        var handled = exact
        handled.code = "success"
        #expect(Bench.judge(order, handled).accepted)
    }

    @Test("command acceptance rejects a wrong or missing slot, a wrong intent and no answer",
          arguments: [
              BenchAnswer(app: "Barista", intent: "orderDrink", slots: ["coffeeDrink": "americano", "milkAmount": "milk"], code: "unsupported"),
              BenchAnswer(app: "Barista", intent: "orderDrink",
                     slots: ["coffeeDrink": "americano", "milkAmount": "soy milk", "size": "twelve ounce"], code: "unsupported"),
              BenchAnswer(app: "Barista", intent: "orderDrink",
                     slots: ["coffeeDrink": "americano", "milkAmount": "milk", "size": "twelve"], code: "unsupported"),
              BenchAnswer(app: "Barista", intent: "orderDrink", slots: ["coffeeDrink": "americano", "milkAmount": "milk"],
                     spokenSlots: ["size": "twelve ounce"], code: "unsupported"),
              BenchAnswer(app: "Barista", intent: "cancelOrder",
                     slots: ["coffeeDrink": "americano", "milkAmount": "milk", "size": "twelve ounce"], code: "unsupported"),
              BenchAnswer(app: nil, intent: nil, code: "notUnderstood"),
              BenchAnswer(app: nil, intent: "orderDrink",
                     slots: ["coffeeDrink": "americano", "milkAmount": "milk", "size": "twelve ounce"], code: "whichApp"),
          ])
    func rejects(answer: BenchAnswer) {
        #expect(!Bench.judge(order, answer).accepted)
    }

    @Test("a value is judged as words said: its case and punctuation, or the words said for a resolved value, do not count against it")
    func valuesAsSaid() {
        let payment = LabelledUtterance(audio: "/a/pay.wav", intent: "INSendPaymentIntent",
                                        slots: ["payee": "Bobo Jr.", "currencyAmount": "twenty dollars", "note": "i'm sorry"])
        let resolved = BenchAnswer(app: "MonkeyPay", intent: "INSendPaymentIntent",
                                   slots: ["payee": "Bobo Jr.", "currencyAmount": "20 USD", "note": "I'm sorry"],
                                   spokenSlots: ["payee": "Bobo Jr.", "currencyAmount": "twenty dollars", "note": "I'm sorry"],
                                   code: "prompt")
        #expect(Bench.judge(payment, resolved).accepted)
        var unsaid = resolved
        unsaid.spokenSlots = [:]
        // An amount resolved whole is the amount the words say: "20 USD" is
        // "twenty dollars" (a typed "$12.50" resolves so, with no words said).
        #expect(Bench.judge(payment, unsaid).accepted, "20 USD is the amount twenty dollars")
        #expect(!SlotValue.matches(label: "twenty dollars", value: "25 USD") && !SlotValue.matches(label: "twenty dollars", value: "20 EUR"))
        #expect(SlotValue.matches(label: "twelve dollars fifty", value: "12.50 USD") && SlotValue.matches(label: "$45", value: "forty five dollars"))
        var misheard = resolved
        misheard.spokenSlots["currencyAmount"] = "twenty five dollars"
        misheard.slots["currencyAmount"] = "25 USD"
        #expect(!Bench.judge(payment, misheard).accepted)
        var wrongNote = resolved
        wrongNote.slots["note"] = "I'm sore"
        wrongNote.spokenSlots["note"] = "I'm sore"
        #expect(!Bench.judge(payment, wrongNote).accepted)
        #expect(SlotValue.matches(label: "banana-car", value: "Banana Car"))
        #expect(SlotValue.matches(label: "Bobo Jr.", value: "bobo jr"))
        #expect(!SlotValue.matches(label: "Bobo Jr.", value: "Bobo"))
        #expect(!SlotValue.matches(label: "Bobo", value: "Kiki", spoken: nil))
        // Scored the same way: a slot said right counts as right.
        let turn = Turn(heard: "send bobo junior twenty dollars for i'm sorry on monkey pay", confidence: 0.9, app: "MonkeyPay",
                        intent: "INSendPaymentIntent", slots: resolved.slots, speech: "", code: "prompt", prompt: true,
                        audioSeconds: 2, decodeSeconds: 0.1)
        #expect(Bench.score(payment, turn, latency: 0.1).slotsRight == 3, "the amount resolved is the amount said")
        var said = turn
        said.spokenSlots = resolved.spokenSlots
        #expect(Bench.score(payment, said, latency: 0.1).slotsRight == 3)
        #expect(Bench.score(payment, said, latency: 0.1).accepted)
    }

    @Test("the intent counts even when a slot is wrong; a labelled app must match")
    func intentCorrect() {
        let wrongSlot = BenchAnswer(app: "Barista", intent: "orderDrink", slots: ["coffeeDrink": "latte"], code: "unsupported")
        #expect(Bench.judge(order, wrongSlot) == .init(accepted: false, intentCorrect: true))
        var withApp = order
        withApp.app = "MonkeyChat"
        let answer = BenchAnswer(app: "Barista", intent: "orderDrink",
                            slots: ["coffeeDrink": "americano", "milkAmount": "milk", "size": "twelve ounce"], code: "unsupported")
        #expect(Bench.judge(withApp, answer) == .init(accepted: false, intentCorrect: false))
    }

    @Test("out-of-grammar audio is accepted only when rejected")
    func outOfGrammar() {
        let noise = LabelledUtterance(audio: "/a/noise.wav", intent: nil)
        #expect(Bench.judge(noise, BenchAnswer(app: nil, intent: nil, code: "notUnderstood")).accepted)
        #expect(!Bench.judge(noise, BenchAnswer(app: "Barista", intent: "orderDrink", code: "unsupported")).accepted)
    }

    @Test("the report's figures")
    func report() {
        func result(_ accepted: Bool, intent: Bool, expected: String? = "orderDrink", seconds: Double) -> UtteranceResult {
            UtteranceResult(audio: "/a/\(seconds).wav", expectedIntent: expected, expectedSlots: [:], heard: "",
                            intent: intent ? expected : nil, slots: [:], accepted: accepted, intentCorrect: intent,
                            audioSeconds: 2, decodeSeconds: 0.5, latencySeconds: seconds)
        }
        let report = Bench.report([
            result(true, intent: true, seconds: 0.1), result(false, intent: true, seconds: 0.2),
            result(false, intent: false, seconds: 0.3), result(true, intent: true, seconds: 0.4),
        ])
        #expect(report.utterances == 4)
        #expect(report.commandAcceptance == 0.5)
        #expect(report.intentAccuracy == 0.75)
        #expect(report.rtf == 0.25)
        #expect(report.wer == nil)
        #expect(report.falseAcceptRate == nil)
        #expect(report.errors.count == 2)
        #expect(!report.markdown.contains("word error rate"))
        #expect(report.markdown.contains("| command acceptance | 50.0% |"))
    }

    @Test("slot precision, recall and F1, sentence errors, and false accepts on out-of-grammar audio")
    func slotAndRejectionFigures() throws {
        let order = LabelledUtterance(audio: "/a/1.wav", text: "a large latte", intent: "orderDrink",
                                      slots: ["size": "large", "coffeeDrink": "latte"])
        let noise = LabelledUtterance(audio: "/a/2.wav", intent: nil)
        func turn(_ heard: String, intent: String?, slots: [String: String], code: String) -> Turn {
            Turn(heard: heard, confidence: 1, app: intent == nil ? nil : "Barista", intent: intent, slots: slots,
                 speech: "", code: code, prompt: false, audioSeconds: 1, decodeSeconds: 0.1)
        }
        // One slot right, one wrong, one extra: precision 1/3, recall 1/2; one word wrong.
        let heard = Bench.score(order, turn("a large mocha", intent: "orderDrink",
                                            slots: ["size": "large", "coffeeDrink": "mocha", "shots": "2"], code: "unsupported"), latency: 0.1)
        let rejected = Bench.score(noise, turn("", intent: nil, slots: [:], code: "notUnderstood"), latency: 0.1)
        let accepted = Bench.score(noise, turn("a latte", intent: "orderDrink", slots: ["coffeeDrink": "latte"], code: "unsupported"), latency: 0.1)
        let report = Bench.report([heard, rejected, accepted])
        #expect(abs(report.slotPrecision - 1.0 / 3) < 1e-9)
        #expect(report.slotRecall == 0.5)
        #expect(abs(report.slotF1 - 0.4) < 1e-9)
        #expect(report.ser == 1.0)
        #expect(report.falseAcceptRate == 0.5)
        #expect(report.commandAcceptance == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(Bench.report([heard]))) as? [String: Any])
        #expect(json["false_accept_rate"] is NSNull, "a figure that does not apply is null, not missing")
        #expect(json["slot_f1"] as? Double == 0.4)
    }

    @Test("a recording the recognizer heard as no request keeps why and the reading it cleared in report.json")
    func rejectionInResults() throws {
        let order = LabelledUtterance(audio: "/a/1.wav", text: "a large latte", intent: "orderDrink", slots: ["size": "large"])
        var turn = Turn(heard: "", confidence: 0, app: nil, intent: nil, slots: [:], speech: "Sorry, I didn't understand that.",
                        code: "notUnderstood", prompt: false, audioSeconds: 1, decodeSeconds: 0.1)
        turn.rejection = HeardRejection(Rejection(.unsure(confidence: 0.12, floor: 0.3), reading: "a large latte"))
        let result = Bench.score(order, turn, latency: 0.1)
        #expect(result.rejection?.reason == "unsure" && result.rejection?.reading == "a large latte")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(result)) as? [String: Any])
        let rejection = try #require(json["rejection"] as? [String: Any])
        #expect(rejection["reason"] as? String == "unsure")
        #expect(rejection["reading"] as? String == "a large latte")
        // A recording heard as a request has none.
        let heard = Bench.score(order, Turn(heard: "a large latte", confidence: 0.9, app: "Barista", intent: "orderDrink",
                                            slots: ["size": "large"], speech: "", code: "unsupported", prompt: false,
                                            audioSeconds: 1, decodeSeconds: 0.1), latency: 0.1)
        #expect(heard.rejection == nil)
    }

    @Test("asking which app counts as a false accept on out-of-grammar audio and is listed as such, not as a rejection")
    func whichAppOnOutOfGrammar() {
        let noise = LabelledUtterance(audio: "/a/oog.wav", intent: nil)
        let asked = Bench.score(noise, Turn(heard: "add how many moons", confidence: 1, app: nil, intent: "INAddTasksIntent",
                                            slots: ["taskTitles": "how many moons"], speech: "Which app?", code: "whichApp",
                                            prompt: true, audioSeconds: 1, decodeSeconds: 0.1), latency: 0.1)
        #expect(!asked.accepted)
        let report = Bench.report([asked])
        #expect(report.falseAcceptRate == 1)
        #expect(report.markdown.contains("`oog.wav`: reject → asked which app taskTitles=how many moons"))
    }

    @Test("word edits: substitutions, insertions and deletions")
    func wordEdits() {
        #expect(WordErrorRate.edits(["a", "b", "c"], ["a", "b", "c"]) == 0)
        #expect(WordErrorRate.edits(["a", "b", "c"], ["a", "x", "c", "d"]) == 2)
        #expect(WordErrorRate.edits(["a", "b", "c"], []) == 3)
        #expect(WordErrorRate.edits([], ["a"]) == 1)
        #expect(WordErrorRate.edits(["i'd", "like", "a", "latte"], ["i", "like", "latte"]) == 2)
        #expect(WordErrorRate.words("I'd like a MonkeyChat latte") == ["i'd", "like", "a", "monkey", "chat", "latte"])
    }
}

@Suite("hark import and bench on the command line", .serialized)
struct ImportCommandTests {
    @Test("import rhino writes NAME.hark and Info.plist that load as an app")
    func importRhino() throws {
        let dir = try temporaryDirectory()
        let yaml = dir.appendingPathComponent("ctx.yaml")
        try Data("""
            context:
              expressions:
                orderDrink:
                  - "[can I get, I'd like] [a, an] $coffeeDrink:coffeeDrink"
              slots:
                coffeeDrink: ["latte", "iced coffee"]
            """.utf8).write(to: yaml)
        let out = dir.appendingPathComponent("apps/Cafe").path
        let result = try runHark(["import", "rhino", yaml.path, "--out", out])
        #expect(result.status == 0, "\(result.err)")
        let grammar = try String(contentsOfFile: out + "/Cafe.hark", encoding: .utf8)
        #expect(grammar.contains("(can i get | i'd like) (a | an) {coffeeDrink}"))
        let plist = try #require(try PropertyListSerialization.propertyList(
            from: Data(contentsOf: URL(fileURLWithPath: out + "/Info.plist")), format: nil) as? [String: Any])
        #expect(plist["CFBundleName"] as? String == "Cafe")
        #expect(plist["CFBundleDisplayName"] as? String == "Cafe")
        #expect(plist["IntentsSupported"] as? [String] == ["orderDrink"])
        // Each imported intent is declared with its slots as parameters and a question for each.
        let declared = try #require((plist["HarkIntents"] as? [String: Any])?["orderDrink"] as? [String: Any])
        let parameters = try #require(declared["Parameters"] as? [[String: Any]])
        #expect(parameters.map { $0["Name"] as? String } == ["coffeeDrink"])
        #expect(parameters.first?["Prompt"] as? String == "What coffee drink would you like?")
        #expect(parameters.first?["Required"] as? Bool == false)
        // And the app loads, and its intent is heard.
        let turn = try runHark(["converse", "--json", "--apps", dir.appendingPathComponent("apps").path], stdin: {
            let input = dir.appendingPathComponent("in.txt")
            try? "can I get a latte\n".write(to: input, atomically: true, encoding: .utf8)
            return input.path
        }())
        #expect(turn.out.contains(#""intent":"orderDrink""#), "\(turn.err)")

        // --name overrides the folder's name.
        let named = try runHark(["import", "rhino", yaml.path, "--out", out, "--name", "Coffee"])
        #expect(named.status == 0, "\(named.err)")
        #expect(FileManager.default.fileExists(atPath: out + "/Coffee.hark"))
    }

    @Test("import rhino reports bad YAML as one line naming file:line")
    func importRhinoError() throws {
        let dir = try temporaryDirectory()
        let yaml = dir.appendingPathComponent("bad.yaml")
        try Data("context:\n  expressions:\n    go:\n      - \"go home\n".utf8).write(to: yaml)
        let result = try runHark(["import", "rhino", yaml.path, "--out", dir.appendingPathComponent("apps/Bad").path])
        #expect(result.status != 0)
        #expect(result.err.hasPrefix("hark: error: \(yaml.path):4:"), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("apps/Bad").path))
    }

    @Test("bench takes exactly one of MANIFEST, --labels and --typed")
    func benchArguments() throws {
        let neither = try runHark(["bench"])
        #expect(neither.status != 0)
        #expect(neither.err.contains("give a MANIFEST.jsonl, --labels labels.json or --typed requests.jsonl"))
        let both = try runHark(["bench", "m.jsonl", "--labels", "l.json"])
        #expect(both.status != 0)
        #expect(both.err.contains("give one of a MANIFEST.jsonl, --labels and --typed, not several"))
        let typedToo = try runHark(["bench", "--labels", "l.json", "--typed", "t.jsonl"])
        #expect(typedToo.status != 0)
        #expect(typedToo.err.contains("not several"))
        let audioDirAlone = try runHark(["bench", "m.jsonl", "--audio-dir", "/tmp"])
        #expect(audioDirAlone.status != 0)
        #expect(audioDirAlone.err.contains("--audio-dir goes with --labels"))
    }
}

@Suite("bench: noise mixing")
struct NoiseMixerTests {
    /// A 440 Hz tone of `count` samples, and noise from a fixed generator.
    static let speech: [Float] = (0..<20_000).map { Float(sin(Double($0) * 2 * .pi * 440 / 16_000)) * 0.3 }
    static let noise: [Float] = {
        var generator = SplitMix64(seed: 7)
        return (0..<100_000).map { _ in Float(Double(generator.next() % 2001) / 1000 - 1) * 0.1 }
    }()

    @Test("the scaled noise has the asked SNR by peak frame energy, and the sum peaks at half scale", arguments: [24.0, 12.0, 6.0, 0.0])
    func snrDefinition(snr: Double) throws {
        let mixer = try NoiseMixer(noise: Self.noise)
        let mixed = mixer.mix(Self.speech, snr: snr, key: "a.wav")
        try #require(mixed.count == Self.speech.count)
        #expect(abs(mixed.map(abs).max()! - 0.5) < 1e-6)
        // The noise part of `mixed`, in the mix's scale, at the tone's gain in `mixed`.
        let mixGain = estimateGain(mixed: mixed)
        let residue = zip(mixed, Self.speech).map { Float(Double($0) - mixGain * Double($1)) }
        let measured = 10 * log10(NoiseMixer.peakFrameEnergy(Self.speech.map { Float(Double($0) * mixGain) }) / NoiseMixer.peakFrameEnergy(residue))
        #expect(abs(measured - snr) < 0.2, "asked \(snr) dB, measured \(measured) dB")
    }

    /// The tone's gain in the mix, by least squares (noise is uncorrelated with the tone).
    func estimateGain(mixed: [Float]) -> Double {
        let dot = zip(mixed, Self.speech).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
        let norm = Self.speech.reduce(0.0) { $0 + Double($1) * Double($1) }
        return dot / norm
    }

    @Test("the same seed and file name mix the same audio; another name takes another excerpt")
    func deterministic() throws {
        let a = try NoiseMixer(noise: Self.noise, seed: 1234), b = try NoiseMixer(noise: Self.noise, seed: 1234)
        #expect(a.mix(Self.speech, snr: 12, key: "x.wav") == b.mix(Self.speech, snr: 12, key: "x.wav"))
        #expect(a.mix(Self.speech, snr: 12, key: "x.wav") != a.mix(Self.speech, snr: 12, key: "y.wav"))
        // A known first value pins the generator across machines and Swift versions.
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xe220_a839_7b1d_cdaf)
    }

    @Test("silent noise is a clear error")
    func silentNoise() {
        #expect(throws: BenchError.self) { try NoiseMixer(noise: [Float](repeating: 0, count: 4096)) }
    }
}

@Suite("bench: the command", .serialized)
struct BenchCommandTests {
    @Test("--noise --snr writes report.json with by_snr and peak memory, the SVG plot, and holds a floor")
    func noisyReport() throws {
        let dir = try temporaryDirectory("bench-cli")
        let noise = dir.appendingPathComponent("pink.wav").path
        try run("/usr/bin/sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", noise, "synth", "5", "pinknoise"])
        let lines = try String(contentsOf: Repo.fixtures.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
            .split(separator: "\n").filter { $0.contains("flite-rms/monkeychat-send-bobo-bananas.wav") || $0.contains("flite-rms/monkeychat-little-bobo.wav") }
        try #require(lines.count == 2)
        let manifest = dir.appendingPathComponent("manifest.jsonl")
        try Data(lines.map { $0.replacingOccurrences(of: #""audio": ""#, with: #""audio": "\#(Repo.fixtures.path)/"#)
            .replacingOccurrences(of: #""audio":""#, with: #""audio":"\#(Repo.fixtures.path)/"#) }.joined(separator: "\n").utf8).write(to: manifest)
        let report = dir.appendingPathComponent("report").path
        let result = try runHark(["bench", manifest.path, "--noise", noise, "--snr", "18,0", "--report", report])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("| 18 dB |") && result.out.contains("| 0 dB |") && result.out.contains("| clean |"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/report.json"))) as? [String: Any])
        for key in ["utterances", "command_acceptance", "intent_accuracy", "wer", "rtf", "latency_ms", "peak_rss_mb", "by_snr", "errors"] {
            #expect(json[key] != nil, "report.json lacks \(key)")
        }
        let bySnr = try #require(json["by_snr"] as? [[String: Any]])
        #expect(bySnr.count == 3)
        // Each condition lists its own errors, expected versus got; at 0 dB SNR
        // of pink noise the two fixtures are not both heard right.
        let zeroDb = try #require(bySnr.last?["errors"] as? [[String: Any]])
        #expect(!zeroDb.isEmpty && zeroDb.allSatisfy { $0["expected_intent"] != nil && $0["heard"] != nil && $0["audio"] != nil })
        #expect((json["peak_rss_mb"] as? Double ?? 0) > 10)
        // What produced it, every utterance, and the figures per intent and per set.
        let settings = try #require(json["settings"] as? [String: Any])
        #expect(settings["version"] as? String == HarkVersion.number)
        #expect(settings["noise"] as? String == noise && settings["snrs"] as? [Double] == [18, 0] && settings["seed"] as? Int == 1234)
        for key in ["date", "host", "decoder_options", "denoise", "rejection", "model"] { #expect(settings[key] != nil, "settings lack \(key)") }
        #expect(json["partial"] as? Bool == false)
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.count == 2 && results.allSatisfy { $0["audio"] != nil && $0["heard"] != nil && $0["accepted"] != nil && $0["decode_seconds"] != nil })
        #expect((json["by_intent"] as? [String: Any])?["INSendMessageIntent"] != nil)
        #expect(((json["by_set"] as? [String: [String: Any]])?["core"]?["utterances"] as? Int) == 2)
        let svgPath = report + "/accuracy-vs-snr.svg"
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("command acceptance") && svg.contains("18 dB"))
        #expect(svg.contains("signal-to-noise ratio (pink.wav)"), "the x axis names the noise file")
        try render(svgPath)
        let floor = try runHark(["bench", manifest.path, "--min-command-acceptance", "101"])
        #expect(floor.status != 0 && floor.err.contains("below the floor"), "\(floor.err)")
    }

    @Test("--jobs 2 gives every figure --jobs 1 gives but the timings")
    func jobs() throws {
        let dir = try temporaryDirectory("bench-jobs")
        let lines = try String(contentsOf: Repo.fixtures.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
            .split(separator: "\n").filter { $0.contains("flite-slt/") && $0.contains(#""set": "core""#) }
        try #require(lines.count >= 4)
        let manifest = dir.appendingPathComponent("manifest.jsonl")
        try Data(lines.map { $0.replacingOccurrences(of: #""audio": ""#, with: #""audio": "\#(Repo.fixtures.path)/"#) }
            .joined(separator: "\n").utf8).write(to: manifest)
        func figures(_ jobs: String) throws -> [String: String] {
            let report = dir.appendingPathComponent("report-\(jobs)").path
            let result = try runHark(["bench", manifest.path, "--jobs", jobs, "--report", report])
            #expect(result.status == 0, "\(result.err)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/report.json"))) as? [String: Any])
            let errors = (json["errors"] as? [[String: Any]] ?? []).map { "\($0["audio"] ?? "") \($0["heard"] ?? "")" }
            var kept = json.filter { ["command_acceptance", "intent_accuracy", "wer", "ser", "slot_f1", "utterances"].contains($0.key) }
                .mapValues { "\($0)" }
            kept["errors"] = errors.joined(separator: "|")
            return kept
        }
        let one = try figures("1"), two = try figures("2")
        #expect(one["utterances"] == "\(lines.count)")
        #expect(one == two)
        let zero = try runHark(["bench", manifest.path, "--jobs", "0"])
        #expect(zero.status != 0 && zero.err.contains("--jobs takes 1 to 64"), "\(zero.err)")
    }

    @Test("--streaming: --jobs 2 gives every figure --jobs 1 gives but the timings, though each worker's decoder heard other voices before")
    func streamingJobs() throws {
        let dir = try temporaryDirectory("bench-streaming-jobs")
        // Four voices, one after another: a worker's running mean carried
        // from one voice to the next made the figures depend on the order.
        let voices = ["espeak-us/", "flite-slt/", "flite-rms/", "espeak-gb/"]
        let lines = try String(contentsOf: Repo.fixtures.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
            .split(separator: "\n").filter { $0.contains(#""set": "core""#) }
        let chosen = voices.flatMap { voice in lines.filter { $0.contains(voice) }.prefix(2) }
        try #require(chosen.count == 8)
        let manifest = dir.appendingPathComponent("manifest.jsonl")
        try Data(chosen.map { $0.replacingOccurrences(of: #""audio": ""#, with: #""audio": "\#(Repo.fixtures.path)/"#) }
            .joined(separator: "\n").utf8).write(to: manifest)
        func results(_ jobs: String, _ extra: [String] = []) throws -> (figures: [String], settings: String) {
            let report = dir.appendingPathComponent("report-\(jobs)\(extra.joined())").path
            let result = try runHark(["bench", manifest.path, "--streaming", "--jobs", jobs, "--report", report] + extra)
            #expect(result.status == 0, "\(result.err)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/report.json"))) as? [String: Any])
            let each = (json["results"] as? [[String: Any]] ?? []).map { "\($0["audio"] ?? "") \($0["heard"] ?? "") \($0["confidence"] ?? "")" }
            let settings = (json["settings"] as? [String: Any])?["streaming"] as? String ?? "(none)"
            return (each.sorted(), settings)
        }
        let one = try results("1"), two = try results("2")
        #expect(one.figures.count == 8)
        #expect(one.figures == two.figures)
        #expect(one.settings == "adapted")
        #expect(try results("1", ["--cold-start"]).settings == "cold start")
        let misuse = try runHark(["bench", manifest.path, "--cold-start"])
        #expect(misuse.status != 0 && misuse.err.contains("--cold-start goes with --streaming"), "\(misuse.err)")
    }

    @Test("--baseline pocketsphinx: stock pocketsphinx_batch decodes the same audio with the JSGF export; both columns and the ratios")
    func baseline() throws {
        let dir = try temporaryDirectory("bench-baseline")
        let order = dir.appendingPathComponent("order.wav").path
        try run("/usr/bin/flite", ["-voice", "awb", "-t", "Make me a small cappuccino", "-o", order])
        let outOfGrammar = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0870.wav"
        let manifest = dir.appendingPathComponent("manifest.jsonl")
        try Data("""
            {"audio": "\(order)", "text": "make me a small cappuccino", "intent": "orderDrink", "slots": {"size": "small", "coffeeDrink": "cappuccino"}}
            {"audio": "\(outOfGrammar)", "intent": null}
            """.utf8).write(to: manifest)
        let report = dir.appendingPathComponent("report").path
        let result = try runHark(["bench", manifest.path, "--apps", Repo.root.appendingPathComponent("models/benchmark-apps").path,
                                  "--baseline", "pocketsphinx", "--report", report])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("| beside stock pocketsphinx_batch (JSGF) | Hark | stock | difference |"), "\(result.out)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/report.json"))) as? [String: Any])
        let stock = try #require(json["baseline"] as? [String: Any])
        for key in ["command_acceptance", "intent_accuracy", "wer", "false_accept_rate", "rtf", "accuracy_difference", "speed_ratio"] {
            #expect(stock[key] != nil, "baseline lacks \(key)")
        }
        // Hark rejects the out-of-grammar clip and takes the order.
        #expect(json["false_accept_rate"] as? Double == 0)
        #expect(json["command_acceptance"] as? Double == 1)
        // The difference is Hark's acceptance minus the stock one, in points; the speed ratio is stock RTF over Hark's.
        let stockAcceptance = try #require(stock["command_acceptance"] as? Double)
        #expect(abs((stock["accuracy_difference"] as? Double ?? .nan) - (1 - stockAcceptance) * 100) < 1e-9)
        let harkRTF = try #require(json["rtf"] as? Double), stockRTF = try #require(stock["rtf"] as? Double)
        #expect(stockRTF > 0 && abs((stock["speed_ratio"] as? Double ?? .nan) - stockRTF / harkRTF) < 1e-9)
        let unknown = try runHark(["bench", manifest.path, "--baseline", "kaldi"])
        #expect(unknown.status != 0 && unknown.err.contains("'kaldi'") && unknown.err.contains("'pocketsphinx'"), "\(unknown.err)")
    }

    @Test("SIGINT writes the partial report of what was decoded, removes the temporary files and exits 130")
    func interrupted() throws {
        let dir = try temporaryDirectory("bench-interrupt")
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let report = dir.appendingPathComponent("report")
        let err = dir.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let errHandle = try FileHandle(forWritingTo: err)
        defer { try? errHandle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Repo.hark)
        process.arguments = ["bench", Repo.fixtures.appendingPathComponent("manifest.jsonl").path, "--report", report.path]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp.path // its temporary files, and only its, are here
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errHandle
        try process.run()
        // Wait (no time limit on the decoding) for the first utterance's progress line.
        while process.isRunning, !((try? String(contentsOf: err, encoding: .utf8)) ?? "").contains("clean: 1/") {
            Thread.sleep(forTimeInterval: 0.2)
        }
        try #require(process.isRunning, "hark bench ended before it was interrupted: \((try? String(contentsOf: err, encoding: .utf8)) ?? "")")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: tmp.path)).filter { $0.hasPrefix("hark-bench-") }.isEmpty,
                "a running bench keeps its conversations' data in hark-bench-* folders")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = try String(contentsOf: err, encoding: .utf8)
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(!stderr.contains("\r"), "no carriage returns when standard error is not a terminal")
        #expect(stderr.contains("elapsed"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("report.json"))) as? [String: Any])
        #expect(json["partial"] as? Bool == true)
        let decoded = try #require(json["utterances"] as? Int)
        #expect(decoded >= 1 && decoded < 133)
        #expect((json["results"] as? [Any])?.count == decoded)
        #expect(((json["settings"] as? [String: Any])?["version"] as? String) == HarkVersion.number)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("hark-bench-") }.isEmpty,
                "temporary files left behind")
    }

    @Test("the SVG plots the baseline dashed, keeps the legend right of the data, and renders")
    func plot() throws {
        func condition(_ snr: Double?, _ acceptance: Double) -> BenchReport.Condition {
            BenchReport.Condition(snrDb: snr, commandAcceptance: acceptance, intentAccuracy: acceptance + 0.05, wer: nil,
                                  falseAcceptRate: nil, rtf: 0.1, errors: [])
        }
        let hark = [condition(nil, 0.9), condition(12, 0.8), condition(6, 0.6)]
        let stock = [condition(nil, 0.7), condition(12, 0.5), condition(6, 0.3)]
        let svg = AccuracyPlot.svg(hark, title: "t", noise: "kitchen-noise.wav", baseline: (name: "stock pocketsphinx", conditions: stock))
        #expect(svg.contains("signal-to-noise ratio (kitchen-noise.wav)"))
        #expect(svg.contains("stroke-dasharray") && svg.contains("stock pocketsphinx"))
        // Every data point lies left of the legend box.
        func numbers(_ attribute: String) -> [Double] {
            svg.components(separatedBy: "\(attribute)=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
        }
        let legendX = try #require(svg.components(separatedBy: "\n").first { $0.hasPrefix("<rect x=") && $0.contains("stroke=\"#999\"") }
            .flatMap { Double($0.dropFirst("<rect x=\"".count).prefix { $0 != "\"" }) })
        let pointsX = numbers("cx")
        #expect(pointsX.count == 9 && pointsX.allSatisfy { $0 < legendX })
        let path = try temporaryDirectory("plot").appendingPathComponent("plot.svg").path
        try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
        try render(path)
    }
}

/// Renders an SVG with rsvg-convert (librsvg2-bin, installed by
/// `scripts/setup.sh --test`): it must parse and give a non-empty PNG.
func render(_ svg: String) throws {
    let png = svg + ".png"
    let result = try ProcessRunner.run("/usr/bin/rsvg-convert", ["-o", png, svg])
    #expect(result.status == 0, "rsvg-convert could not render \(svg): \(result.err)")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
    #expect(bytes.count > 1000 && bytes.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
}
