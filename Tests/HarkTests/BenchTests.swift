import Foundation
import HarkBench
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
                     slots: ["coffeeDrink": "Americano", "milkAmount": "milk", "size": "twelve ounce"], code: "unsupported"),
              BenchAnswer(app: "Barista", intent: "cancelOrder",
                     slots: ["coffeeDrink": "americano", "milkAmount": "milk", "size": "twelve ounce"], code: "unsupported"),
              BenchAnswer(app: nil, intent: nil, code: "notUnderstood"),
              BenchAnswer(app: nil, intent: "orderDrink",
                     slots: ["coffeeDrink": "americano", "milkAmount": "milk", "size": "twelve ounce"], code: "whichApp"),
          ])
    func rejects(answer: BenchAnswer) {
        #expect(!Bench.judge(order, answer).accepted)
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

    @Test("bench takes exactly one of MANIFEST and --labels")
    func benchArguments() throws {
        let neither = try runHark(["bench"])
        #expect(neither.status != 0)
        #expect(neither.err.contains("give a MANIFEST.jsonl or --labels"))
        let both = try runHark(["bench", "m.jsonl", "--labels", "l.json"])
        #expect(both.status != 0)
        #expect(both.err.contains("not both"))
        let audioDirAlone = try runHark(["bench", "m.jsonl", "--audio-dir", "/tmp"])
        #expect(audioDirAlone.status != 0)
        #expect(audioDirAlone.err.contains("--audio-dir goes with --labels"))
    }
}
