import Foundation
@testable import HarkCatalog
import HarkGrammar
import Testing

@Suite("user vocabulary store")
struct UserVocabularyStoreTests {
    @Test("per app and type, in order, duplicates dropped after the first; set replaces the type's set")
    func setAndReplace() throws {
        let data = try temporaryDirectory()
        let store = try UserVocabularyStore(dataDirectory: data)
        try store.set(["Bobo", "Bobo the Great", "Bobo", "Little Bobo"], type: .contactName, app: "MonkeyChat")
        try store.set(["Jungle Run"], type: .workoutActivityName, app: "MonkeyFit")
        #expect(try store.vocabulary(app: "MonkeyChat") == ["contactName": ["Bobo", "Bobo the Great", "Little Bobo"]])
        try store.set(["Koko", "Bobo"], type: .contactName, app: "MonkeyChat")
        try store.set(["Apes"], type: .contactGroupName, app: "MonkeyChat")
        #expect(try store.vocabulary(app: "MonkeyChat") == ["contactName": ["Koko", "Bobo"], "contactGroupName": ["Apes"]])
        #expect(try store.all() == [
            "MonkeyChat": ["contactName": ["Koko", "Bobo"], "contactGroupName": ["Apes"]],
            "MonkeyFit": ["workoutActivityName": ["Jungle Run"]],
        ])
        // Setting no strings removes the type.
        try store.set([], type: .contactGroupName, app: "MonkeyChat")
        #expect(try store.vocabulary(app: "MonkeyChat") == ["contactName": ["Koko", "Bobo"]])
    }

    @Test("a new store over the same folder sees what was written (survives a restart); users are separate")
    func persists() throws {
        let data = try temporaryDirectory()
        try UserVocabularyStore(dataDirectory: data).set(["Bobo Jr.", "Bobo"], type: .contactName, app: "MonkeyChat")
        let reopened = try UserVocabularyStore(dataDirectory: data)
        #expect(try reopened.vocabulary(app: "MonkeyChat") == ["contactName": ["Bobo Jr.", "Bobo"]])
        #expect(try UserVocabularyStore(dataDirectory: data, user: "chimp").all().isEmpty)
        let file = data.appendingPathComponent("vocabulary/default/MonkeyChat.json")
        #expect(FileManager.default.fileExists(atPath: file.path))
        // Nothing but the file itself (and its lock file) is left behind by the atomic write.
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).sorted()
            == [".MonkeyChat.json.lock", "MonkeyChat.json"])
    }

    @Test("removeAll clears the app's vocabulary, and first-run seeding does not bring it back")
    func removeAllAndSeed() throws {
        let data = try temporaryDirectory()
        let store = try UserVocabularyStore(dataDirectory: data)
        try store.seed(["MonkeyChat": ["contactName": ["Bobo", "Bobo the Great"]]])
        #expect(try store.vocabulary(app: "MonkeyChat") == ["contactName": ["Bobo", "Bobo the Great"]])
        try store.set(["Koko"], type: .contactName, app: "MonkeyChat")
        try store.seed(["MonkeyChat": ["contactName": ["Bobo"]]])
        #expect(try store.vocabulary(app: "MonkeyChat") == ["contactName": ["Koko"]], "seeding never overwrites")
        try store.set(["Run"], type: .workoutActivityName, app: "MonkeyFit")
        try store.removeAll(app: "MonkeyChat")
        #expect(try store.vocabulary(app: "MonkeyChat").isEmpty)
        #expect(try store.vocabulary(app: "MonkeyFit") == ["workoutActivityName": ["Run"]], "other apps keep theirs")
        try UserVocabularyStore(dataDirectory: data).seed(["MonkeyChat": ["contactName": ["Bobo"]]])
        #expect(try store.vocabulary(app: "MonkeyChat").isEmpty)
    }

    @Test("strings over 1024 UTF-16 code units are rejected, and nothing is written")
    func lengthLimit() throws {
        let store = try UserVocabularyStore(dataDirectory: try temporaryDirectory())
        try store.set(["Bobo"], type: .contactName, app: "MonkeyChat")
        // 1024 units is fine; a 513th emoji (2 units each) makes 1026.
        try store.set([String(repeating: "a", count: 1024), String(repeating: "🍌", count: 512)], type: .photoTag, app: "MonkeyChat")
        let text = errorText { try store.set(["ok", String(repeating: "🍌", count: 513)], type: .contactName, app: "MonkeyChat") }
        #expect(text?.contains("contactName string 2") == true && text?.contains("1026 UTF-16 code units") == true && text?.contains("1024") == true,
                "\(text ?? "no error")")
        #expect(try store.vocabulary(app: "MonkeyChat")["contactName"] == ["Bobo"])
        #expect(errorText { try store.set(["  "], type: .contactName, app: "MonkeyChat") }?.contains("empty") == true)
    }

    @Test("unknown types are rejected, naming the valid ones")
    func unknownType() {
        let text = errorText { _ = try VocabularyStringType.named("contactNames") }
        #expect(text?.hasPrefix("unknown vocabulary type 'contactNames' (one of: contactName, contactGroupName,") == true)
        #expect(VocabularyStringType.allCases.count == 16)
        #expect((try? VocabularyStringType.named("mediaShowTitle")) == .mediaShowTitle)
    }

    @Test("app and user names cannot escape the data directory",
          arguments: ["../x", "..", ".", "a/b", "", ".hidden", "x\u{0}y", "/etc/passwd"])
    func pathEscape(name: String) throws {
        let data = try temporaryDirectory()
        let store = try UserVocabularyStore(dataDirectory: data)
        let text = errorText { try store.set(["Bobo"], type: .contactName, app: name) }
        #expect(text?.contains("is not a valid app name") == true, "\(text ?? "no error")")
        #expect(errorText { _ = try UserVocabularyStore(dataDirectory: data, user: name) }?.contains("is not a valid user name") == true)
        #expect(try store.all().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("vocabulary/x.json").path))
    }

    @Test("a corrupt file is an error naming it, and is not overwritten")
    func corrupt() throws {
        let data = try temporaryDirectory()
        let store = try UserVocabularyStore(dataDirectory: data)
        let file = store.directory.appendingPathComponent("MonkeyChat.json")
        try Data("{\"contactName\": [\"Bo".utf8).write(to: file)
        let text = errorText { try store.set(["Koko"], type: .contactName, app: "MonkeyChat") }
        #expect(text?.hasPrefix(file.path + ": corrupt vocabulary file") == true, "\(text ?? "no error")")
        #expect(try Data(contentsOf: file) == Data("{\"contactName\": [\"Bo".utf8))
    }

    @Test("the stamp changes when a file is written, so a running assistant can notice")
    func stamp() throws {
        let store = try UserVocabularyStore(dataDirectory: try temporaryDirectory())
        let before = store.stamp()
        try store.set(["Bobo"], type: .contactName, app: "MonkeyChat")
        let after = store.stamp()
        #expect(before != after)
        #expect(after.keys.sorted() == ["MonkeyChat"])
    }
}

@Suite("vocabulary in the grammar")
struct CatalogGrammarTests {
    static let workouts = """
        slot workoutName: workoutActivityName
        intent INStartWorkoutIntent:
            start [a | an] {workoutName} [workout] [in <app> | with <app>]
        """
    static let messaging = """
        slot recipients: contactName
        slot content: text
        intent INSendMessageIntent:
            send [a] message to {recipients} [on <app>] saying {content}
            <app> {recipients} {content}
        """

    static func catalog(domains: [String] = [workouts, messaging]) throws -> Catalog {
        let fit = InstalledApp(
            folder: "/apps/MonkeyFit",
            info: AppInfo(bundleName: "MonkeyFit", intentsSupported: ["INStartWorkoutIntent"]),
            vocabulary: AppIntentVocabulary(parameterVocabularies: [.init(
                parameters: [.init(intent: "INStartWorkoutIntent", name: "workoutName")],
                items: [.init(identifier: "Bananarific", synonyms: [.init(phrase: "Bananarific", pronunciation: "ba nana ri fic")])])]))
        let chat = InstalledApp(folder: "/apps/MonkeyChat",
                                info: AppInfo(bundleName: "MonkeyChat", intentsSupported: ["INSendMessageIntent"]))
        let files = try domains.enumerated().map { try GrammarParser.parse($0.element, path: "d\($0.offset).hark") }
        return Catalog(apps: [fit, chat], domains: files)
    }

    @Test("app vocabulary items reach the slot named by the parameter, as the identifier, by phrase or hint")
    func appVocabulary() throws {
        let parser = TextParser(graph: try Self.catalog().compile())
        for text in ["Start a Bananarific in MonkeyFit", "start a ba nana ri fic workout with monkey fit", "start a bananarific"] {
            let parse = try #require(parser.parse(text).first, "\(text)")
            #expect(parse.app == "MonkeyFit" && parse.intent == "INStartWorkoutIntent")
            #expect(parse.slotValues["workoutName"] == "Bananarific", "\(text)")
        }
        #expect(parser.parse("start a bananarific in monkey fit").first?.slotValues[Catalog.appSlot] == "MonkeyFit")
        #expect(parser.parse("start a bananarific").first?.slotValues[Catalog.appSlot] == nil, "no app named")
        #expect(parser.parse("start a mangotastic in monkey fit").isEmpty)
    }

    @Test("user vocabulary of the slot's type joins the app's, the user's first")
    func userVocabulary() throws {
        var catalog = try Self.catalog()
        catalog.setVocabulary(["Jungle Run"], type: "workoutActivityName", app: "MonkeyFit")
        let parser = TextParser(graph: try catalog.compile())
        #expect(parser.parse("start a jungle run in monkey fit").first?.slotValues["workoutName"] == "Jungle Run")
        #expect(parser.parse("start a bananarific in monkey fit").first?.slotValues["workoutName"] == "Bananarific")
        // Another app's vocabulary is not this app's.
        catalog.setVocabulary(["Koko"], type: "contactName", app: "MonkeyFit")
        #expect(TextParser(graph: try catalog.compile()).parse("send a message to koko on monkey chat saying hi").isEmpty)
    }

    @Test("an app with no contacts yet still compiles; contacts set later are heard, removed ones are not")
    func emptyVocabulary() throws {
        var catalog = try Self.catalog()
        #expect(TextParser(graph: try catalog.compile()).parse("send a message to koko on monkey chat saying hi").isEmpty)
        catalog.setVocabulary(["Koko"], type: "contactName", app: "MonkeyChat")
        let parse = TextParser(graph: try catalog.compile()).parse("send a message to koko on monkey chat saying hi").first
        #expect(parse?.slotValues["recipients"] == "Koko")
        catalog.removeVocabulary(app: "MonkeyChat")
        #expect(TextParser(graph: try catalog.compile()).parse("send a message to koko on monkey chat saying hi").isEmpty)
    }

    @Test("when two entries sound the same, the earlier (more important) one wins, whatever the order")
    func orderBreaksTies() throws {
        for order in [["Bobo Jr.", "Bobo Junior", "Bobo"], ["Bobo Junior", "Bobo Jr.", "Bobo"], ["bobo junior", "Bobo Jr."]] {
            var catalog = try Self.catalog()
            catalog.setVocabulary(order, type: "contactName", app: "MonkeyChat")
            let parser = TextParser(graph: try catalog.compile())
            for _ in 0..<5 {
                let parse = parser.parse("monkey chat bobo junior the bananas are great").first
                #expect(parse?.slotValues["recipients"] == order[0], "\(order)")
            }
        }
        #expect(Catalog.valueList(["Bobo Jr.", "Bobo Junior"]) == .alternatives([
            .value(spoken: .sequence([.word("bobo"), .word("junior")]), canonical: "Bobo Jr."),
        ]))
    }

    @Test("alternative names and their hints name the app anywhere in the sentence")
    func alternativeNames() throws {
        var catalog = try Self.catalog()
        catalog.apps[1].info.alternativeNames = [.init(name: "ChimpChat", pronunciationHint: "chimp chatter")]
        catalog.setVocabulary(["Bobo"], type: "contactName", app: "MonkeyChat")
        let parser = TextParser(graph: try catalog.compile())
        for text in ["send a message to Bobo on ChimpChat saying hi", "chimp chatter bobo hi there", "MonkeyChat Bobo these were great bananas"] {
            let parse = parser.parse(text).first
            #expect(parse?.app == "MonkeyChat" && parse?.slotValues[Catalog.appSlot] == "MonkeyChat", "\(text)")
        }
    }

    @Test("an app that is not installed, named where a request names its app, is read as that app: no request for an installed one; installed, it is one")
    func otherApps() throws {
        let messaging = """
            slot recipients: contactName
            slot content: text
            intent INSendMessageIntent:
                send [a] message to {recipients} [<via>] saying {content}
            """
        let common = try GrammarParser.parse("""
            rule via = (on | with) (<app> | <other_app>)
            list otherApp:
                whats app => WhatsApp
                monkey chat => MonkeyChat
            """, path: "_common.hark")
        var catalog = try Self.catalog(domains: [messaging])
        catalog.common = common
        for i in catalog.domains.indices {
            catalog.domains[i].rules.merge(common.rules) { own, _ in own }
            catalog.domains[i].lists.merge(common.lists) { own, _ in own }
        }
        catalog.setVocabulary(["Bobo"], type: "contactName", app: "MonkeyChat")
        var parser = TextParser(graph: try catalog.compile())
        let other = try #require(parser.parse("send a message to bobo on whats app saying hi").first)
        #expect(other.slotValues[Catalog.otherAppSlot] == "WhatsApp")
        #expect(other.slotValues[Catalog.appSlot] == nil)
        // An installed app is never another app: its name is its own.
        let own = try #require(parser.parse("send a message to bobo on monkey chat saying hi").first)
        #expect(own.slotValues[Catalog.appSlot] == "MonkeyChat" && own.slotValues[Catalog.otherAppSlot] == nil)
        #expect(parser.parse("send a message to bobo on monkey chat saying hi").allSatisfy { $0.slotValues[Catalog.otherAppSlot] == nil })
        // Installed under that display name, WhatsApp is the app's own.
        catalog.apps[1].info.displayName = "WhatsApp"
        parser = TextParser(graph: try catalog.compile())
        let installed = try #require(parser.parse("send a message to bobo on whats app saying hi").first)
        #expect(installed.slotValues[Catalog.appSlot] == "MonkeyChat" && installed.slotValues[Catalog.otherAppSlot] == nil)
        // Every app listed installed: the rule has nothing to hear.
        catalog.common.lists[Catalog.otherAppList] = GrammarExpression.alternatives([
            .value(spoken: .sequence([.word("monkey"), .word("chat")]), canonical: "MonkeyChat")])
        #expect(catalog.otherApps() == nil)
        #expect(TextParser(graph: try catalog.compile()).parse("send a message to bobo saying hi").first?.app == "MonkeyChat")
    }
}

@Suite("vocabulary order as a prior")
struct VocabularyPriorTests {
    /// The best prior of reaching each value's arc from the graph's start,
    /// as the recognizer's grammar weighs it: each state's arcs share its
    /// probability equally (see HarkRecognition's FSGBuilder).
    static func priors(_ strings: [String]) throws -> [String: Double] {
        var file = GrammarFile(path: "<test>")
        file.lists["contactName"] = Catalog.valueList(strings)
        file.intents = [IntentDefinition(name: "Call", sentences: [try GrammarParser.parseExpression("call {contactName}")],
                                         location: SourceLocation(file: "<test>", line: 1, column: 1))]
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "Test", grammar: file)])
        var best = [Double](repeating: 0, count: graph.stateCount)
        best[graph.start] = 1
        var result: [String: Double] = [:]
        // The graph is acyclic here; relax until nothing improves.
        var changed = true
        while changed {
            changed = false
            for state in 0..<graph.stateCount where best[state] > 0 {
                let fanOut = Double(graph.arcs[state].count + (graph.finals[state] != nil ? 1 : 0))
                for arc in graph.arcs[state] {
                    let p = best[state] / fanOut
                    if case .value(let canonical) = arc.label { result[canonical] = max(result[canonical] ?? 0, p) }
                    if p > best[arc.to] + 1e-15 {
                        best[arc.to] = p
                        changed = true
                    }
                }
            }
        }
        return result
    }

    @Test("earlier entries get a higher prior, never a lower one; the first twice the second's", arguments: [2, 3, 4, 7, 10, 33, 100])
    func ranked(count: Int) throws {
        let names = (0..<count).map { "name\($0)" }
        let priors = try Self.priors(names)
        let ordered = names.map { priors[$0] ?? 0 }
        #expect(ordered.allSatisfy { $0 > 0 }, "every entry is reachable")
        for i in 1..<count { #expect(ordered[i] <= ordered[i - 1] + 1e-12, "entry \(i) outranks entry \(i - 1): \(ordered)") }
        #expect(abs(ordered[0] / ordered[1] - 2) < 1e-9, "\(ordered.prefix(3))")
        // Gentle for long lists: the last entry is not buried (about 1/rank).
        #expect(ordered[0] / ordered[count - 1] <= Double(2 * count + 2), "\(ordered[0] / ordered[count - 1])")
    }

    @Test("the text parser reads ranked lists exactly as flat ones")
    func parserUnchanged() throws {
        var catalog = try CatalogGrammarTests.catalog()
        let contacts = (0..<20).map { "Contact \($0)" } + ["Koko", "Coco"]
        catalog.setVocabulary(contacts, type: "contactName", app: "MonkeyChat")
        let parser = TextParser(graph: try catalog.compile())
        for contact in contacts {
            let parse = parser.parse("send a message to \(contact) on monkey chat saying hi").first
            #expect(parse?.slotValues["recipients"] == contact)
        }
    }
}

@Suite("vocabulary values that would mislead or drive the terminal")
struct VocabularyCharacterTests {
    @Test("vocab set refuses control, bidi-override and zero-width characters", arguments: ["Bo\u{1B}[2Jbo", "Bo\u{202E}bo", "Bo\u{200B}bo", "Bo\nbo", "\u{FEFF}Bobo"])
    func refusedOnSet(value: String) throws {
        let store = try UserVocabularyStore(dataDirectory: try temporaryDirectory())
        let error = try #require(throws: CatalogError.self) { try store.set(["Koko", value], type: .contactName, app: "MonkeyChat") }
        #expect(error.description.hasPrefix("contactName string 2 ("), "\(error)")
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || (0x202A...0x202E).contains($0.value) || $0.value == 0x200B })
        #expect(try store.vocabulary(app: "MonkeyChat").isEmpty, "nothing is stored")
    }

    @Test("a stored file holding them is refused on load, naming the file and the entry")
    func refusedOnLoad() throws {
        let data = try temporaryDirectory()
        let store = try UserVocabularyStore(dataDirectory: data)
        try store.set(["Bobo"], type: .contactName, app: "MonkeyChat")
        let file = data.appendingPathComponent("vocabulary/default/MonkeyChat.json")
        try Data(#"{"contactName": ["Koko", "Bo\u001b]0;owned\u0007bo"]}"#.utf8).write(to: file)
        let error = try #require(throws: CatalogError.self) { try store.vocabulary(app: "MonkeyChat") }
        #expect(error.description == "\(file.path): contactName[1]: 'Bo\\x1b]0;owned\\x07bo' contains U+001B; a vocabulary value may not hold control, bidirectional-override or zero-width characters; fix or delete the file")
    }
}
