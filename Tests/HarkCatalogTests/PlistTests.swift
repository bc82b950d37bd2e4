import Foundation
import HarkCatalog
import Testing
import HarkTestSupport

/// The checkout's `models/` folder.
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let apps = root.appendingPathComponent("models/apps").path
    static let domains = root.appendingPathComponent("models/domains").path
}

/// A fresh temporary folder.
func temporaryDirectory(_ name: String = #function) throws -> URL {
    try Scratch.directory("catalog-tests-" + name)
}

/// Writes `plist` (a property-list value) to `url` in `format`.
func writePlist(_ plist: Any, to url: URL, format: PropertyListSerialization.PropertyListFormat = .xml) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0).write(to: url)
}

/// The error `body` throws, as text.
func errorText(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(error)"
    }
}

@Suite("Info.plist")
struct InfoPlistTests {
    static var full: [String: Any] { [
        "CFBundleName": "ListOMat",
        "CFBundleDisplayName": "List-o-Mat",
        "INAlternativeAppNames": [
            ["INAlternativeAppName": "ListOMat", "INAlternativeAppNamePronunciationHint": "list oh mat"],
            ["INAlternativeAppName": "Lister"],
        ],
        "NSSiriUsageDescription": "List-o-Mat reads your lists.",
        "IntentsSupported": ["INAddTasksIntent", "INSearchForNotebookItemsIntent"],
        "IntentsRestrictedWhileLocked": ["INAddTasksIntent"],
        "HarkDefaultApp": true,
    ] }

    @Test("every key is read, from an XML and from a binary plist alike",
          arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func readsEveryKey(format: PropertyListSerialization.PropertyListFormat) throws {
        let url = try temporaryDirectory().appendingPathComponent("Info.plist")
        try writePlist(Self.full, to: url, format: format)
        if format == .binary { #expect(try Data(contentsOf: url).starts(with: Array("bplist".utf8))) }
        let info = try AppInfo(contentsOf: url.path)
        #expect(info.bundleName == "ListOMat")
        #expect(info.displayName == "List-o-Mat")
        #expect(info.alternativeNames == [.init(name: "ListOMat", pronunciationHint: "list oh mat"), .init(name: "Lister", pronunciationHint: nil)])
        #expect(info.usageDescription == "List-o-Mat reads your lists.")
        #expect(info.intentsSupported == ["INAddTasksIntent", "INSearchForNotebookItemsIntent"])
        #expect(info.intentsRestrictedWhileLocked == ["INAddTasksIntent"])
        #expect(info.isDefaultApp)
    }

    @Test("a binary plist declaring a dictionary of 2^63-1 pairs is read without a trap")
    func hugeDeclaredLength() throws {
        // Found by the plist fuzzer: the nesting check doubled the length into
        // a reference count and overflowed. Made by scripts/make-malformed.py;
        // Foundation then reads the file leniently, ignoring the broken entry.
        let path = Repo.root.appendingPathComponent("Tests/Malformed/apps-huge-length-binary-plist/Broken/Info.plist").path
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).starts(with: Array("bplist00".utf8)))
        #expect(try AppInfo(contentsOf: path).bundleName == "Huge")
    }

    @Test("intents are also read where iOS puts them: NSExtension → NSExtensionAttributes")
    func extensionAttributes() throws {
        let url = try temporaryDirectory().appendingPathComponent("Info.plist")
        try writePlist([
            "CFBundleName": "MonkeyChat",
            "NSExtension": ["NSExtensionAttributes": [
                "IntentsSupported": ["INSendMessageIntent"], "IntentsRestrictedWhileLocked": ["INSendMessageIntent"],
            ]],
        ], to: url)
        let info = try AppInfo(contentsOf: url.path)
        #expect(info.displayName == "MonkeyChat", "the display name defaults to the bundle name")
        #expect(info.intentsSupported == ["INSendMessageIntent"])
        #expect(info.intentsRestrictedWhileLocked == ["INSendMessageIntent"])
        #expect(!info.isDefaultApp)
    }

    @Test("intents given both at the top level and in the extension's attributes: both lists count")
    func intentsInBothPlaces() throws {
        let url = try temporaryDirectory().appendingPathComponent("Info.plist")
        try writePlist([
            "CFBundleName": "MonkeyPay",
            "IntentsSupported": ["INSendPaymentIntent"],
            "IntentsRestrictedWhileLocked": ["INSearchForAccountsIntent"],
            "NSExtension": ["NSExtensionAttributes": [
                "IntentsSupported": ["INSearchForAccountsIntent", "INSendPaymentIntent"],
                "IntentsRestrictedWhileLocked": ["INRequestPaymentIntent", "INSearchForAccountsIntent"],
            ]],
        ], to: url)
        let info = try AppInfo(contentsOf: url.path)
        #expect(info.intentsSupported == ["INSendPaymentIntent", "INSearchForAccountsIntent"])
        #expect(info.intentsRestrictedWhileLocked == ["INSearchForAccountsIntent", "INRequestPaymentIntent"],
                "a restriction in the extension's attributes holds even when the top level has a list of its own")
    }

    @Test("a fourth alternative name is an error naming it and the key path")
    func fourthAlternativeName() throws {
        let url = try temporaryDirectory().appendingPathComponent("Info.plist")
        try writePlist([
            "CFBundleName": "TasksNotes",
            "INAlternativeAppNames": ["MonkeyNotes", "MonkeyTodo", "Notey", "Tasky"].map { ["INAlternativeAppName": $0] },
        ], to: url)
        let text = errorText { _ = try AppInfo(contentsOf: url.path) }
        #expect(text?.hasPrefix(url.path + ": INAlternativeAppNames[3]: 'Tasky'") == true, "\(text ?? "no error")")
    }

    @Test("a wrong type or missing key names the file and the key path", arguments: [
        PlistCase(["CFBundleDisplayName": "X"], "CFBundleName: required key is missing"),
        PlistCase(["CFBundleName": 3], "CFBundleName: expected a string"),
        PlistCase(["CFBundleName": "X", "INAlternativeAppNames": [["INAlternativeAppName": "A"], ["INAlternativeAppNamePronunciationHint": "b"]]], "INAlternativeAppNames[1].INAlternativeAppName: required key is missing"),
        PlistCase(["CFBundleName": "X", "NSExtension": ["NSExtensionAttributes": ["IntentsSupported": "INSendMessageIntent"]]], "NSExtension.NSExtensionAttributes.IntentsSupported: expected an array"),
        PlistCase(["CFBundleName": "X", "HarkDefaultApp": "yes"], "HarkDefaultApp: expected a boolean"),
    ])
    func keyPathErrors(case: PlistCase) throws {
        let (plist, expected) = (`case`.plist, `case`.expected)
        let url = try temporaryDirectory().appendingPathComponent("Info.plist")
        try writePlist(plist, to: url)
        let text = errorText { _ = try AppInfo(contentsOf: url.path) }
        #expect(text?.hasPrefix("\(url.path): \(expected)") == true, "\(text ?? "no error")")
    }

    @Test("a file that is not a plist, or missing, is a one-line error naming it")
    func notAPlist() throws {
        let url = try temporaryDirectory().appendingPathComponent("Info.plist")
        try Data("<plist><dict><key>CFBundleName</key>".utf8).write(to: url)
        let text = errorText { _ = try AppInfo(contentsOf: url.path) }
        #expect(text?.hasPrefix(url.path + ": not a valid property list") == true, "\(text ?? "no error")")
        let missing = errorText { _ = try AppInfo(contentsOf: url.path + ".missing") }
        #expect(missing == url.path + ".missing: cannot read the file")
    }
}

@Suite("InfoPlist.strings")
struct InfoPlistStringsTests {
    @Test("localised names replace the display and alternative names and hints; the bundle name stays")
    func localises() throws {
        let folder = try temporaryDirectory()
        try writePlist([
            "CFBundleName": "ListOMat", "CFBundleDisplayName": "List-o-Mat",
            "INAlternativeAppNames": [
                ["INAlternativeAppName": "ListOMat", "INAlternativeAppNamePronunciationHint": "list oh mat"],
                ["INAlternativeAppName": "Lister"],
            ],
        ], to: folder.appendingPathComponent("Info.plist"))
        let strings = """
            /* French names */
            CFBundleDisplayName = "Liste-o-Matic";
            "ListOMat" = "ListeOMatic";
            "list oh mat" = "liste oh matic";
            "INAlternativeAppNames[1].INAlternativeAppName" = "Listeur";
            """
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("fr.lproj"), withIntermediateDirectories: true)
        // Xcode writes strings files as UTF-16; both encodings are read.
        try strings.data(using: .utf16)!.write(to: folder.appendingPathComponent("fr.lproj/InfoPlist.strings"))
        let app = try Catalog.loadApp(folder: folder.path, language: "fr")
        #expect(app.name == "ListOMat")
        #expect(app.info.displayName == "Liste-o-Matic")
        #expect(app.info.alternativeNames == [.init(name: "ListeOMatic", pronunciationHint: "liste oh matic"), .init(name: "Listeur")])
        #expect(app.spokenNames.contains(["liste", "oh", "matic"]))
        // No en.lproj: the Info.plist names as written.
        let english = try Catalog.loadApp(folder: folder.path, language: "en")
        #expect(english.info.displayName == "List-o-Mat")
        #expect(english.spokenNames == [["list", "o", "mat"], ["list", "oh", "mat"], ["lister"]])
    }

    @Test("a malformed strings file is an error naming it")
    func malformed() throws {
        let folder = try temporaryDirectory()
        try writePlist(["CFBundleName": "X"], to: folder.appendingPathComponent("Info.plist"))
        let path = folder.appendingPathComponent("en.lproj/InfoPlist.strings")
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("\"CFBundleDisplayName\" = \"unterminated;\n".utf8).write(to: path)
        let text = errorText { _ = try Catalog.loadApp(folder: folder.path) }
        #expect(text?.hasPrefix(path.path + ": not a valid strings file") == true, "\(text ?? "no error")")
    }
}

@Suite("AppIntentVocabulary.plist")
struct AppIntentVocabularyTests {
    static var monkeyFit: [String: Any] { [
        "ParameterVocabularies": [[
            "ParameterNames": ["INStartWorkoutIntent.workoutName"],
            "ParameterVocabulary": [[
                "VocabularyItemIdentifier": "Bananarific",
                "VocabularyItemSynonyms": [[
                    "VocabularyItemPhrase": "Bananarific",
                    "VocabularyItemPronunciation": "ba nana ri fic",
                    "VocabularyItemExamples": ["Start a Bananarific in MonkeyFit"],
                ]],
            ]],
        ]],
        "IntentPhrases": [["IntentName": "INStartWorkoutIntent", "IntentExamples": ["Start a Bananarific in MonkeyFit"]]],
    ] }

    @Test("parameter vocabularies and intent phrases are read, XML and binary alike",
          arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func reads(format: PropertyListSerialization.PropertyListFormat) throws {
        let url = try temporaryDirectory().appendingPathComponent("AppIntentVocabulary.plist")
        try writePlist(Self.monkeyFit, to: url, format: format)
        let vocabulary = try AppIntentVocabulary(contentsOf: url.path)
        #expect(vocabulary.parameterVocabularies.map(\.parameters) == [[.init(intent: "INStartWorkoutIntent", name: "workoutName")]])
        let items = vocabulary.items(intent: "INStartWorkoutIntent", parameter: "workoutName")
        #expect(items == [.init(identifier: "Bananarific", synonyms: [
            .init(phrase: "Bananarific", pronunciation: "ba nana ri fic", examples: ["Start a Bananarific in MonkeyFit"]),
        ])])
        #expect(vocabulary.items(intent: "INStartWorkoutIntent", parameter: "goalValue").isEmpty)
        #expect(vocabulary.intentPhrases == [.init(intentName: "INStartWorkoutIntent", examples: ["Start a Bananarific in MonkeyFit"])])
    }

    @Test("errors name the file and the key path", arguments: [
        PlistCase(["ParameterVocabularies": [["ParameterNames": ["workoutName"], "ParameterVocabulary": []]]], "ParameterVocabularies[0].ParameterNames[0]: 'workoutName' is not IntentName.parameterName"),
        PlistCase(["ParameterVocabularies": [["ParameterNames": ["INStartWorkoutIntent.workoutName"],
                                     "ParameterVocabulary": [["VocabularyItemIdentifier": "x", "VocabularyItemSynonyms": [["VocabularyItemPronunciation": "x"]]]]]]], "ParameterVocabularies[0].ParameterVocabulary[0].VocabularyItemSynonyms[0].VocabularyItemPhrase: required key is missing"),
        PlistCase(["ParameterVocabularies": [["ParameterNames": ["INStartWorkoutIntent.workoutName"],
                                     "ParameterVocabulary": [["VocabularyItemSynonyms": [["VocabularyItemPhrase": "x"]]]]]]], "ParameterVocabularies[0].ParameterVocabulary[0].VocabularyItemIdentifier: required key is missing"),
        PlistCase(["IntentPhrases": [["IntentName": "INStartWorkoutIntent", "IntentExamples": "Start"]]], "IntentPhrases[0].IntentExamples: expected an array"),
        PlistCase(["ParameterVocabularies": [["ParameterNames": ["A.b"], "ParameterVocabulary": [["VocabularyItemIdentifier": "x", "VocabularyItemSynonyms": []]]]]], "ParameterVocabularies[0].ParameterVocabulary[0].VocabularyItemSynonyms: needs at least one synonym"),
    ])
    func errors(case: PlistCase) throws {
        let (plist, expected) = (`case`.plist, `case`.expected)
        let url = try temporaryDirectory().appendingPathComponent("AppIntentVocabulary.plist")
        try writePlist(plist, to: url)
        let text = errorText { _ = try AppIntentVocabulary(contentsOf: url.path) }
        #expect(text?.hasPrefix("\(url.path): \(expected)") == true, "\(text ?? "no error")")
    }
}

@Suite("the sample apps' folders")
struct SampleAppFolderTests {
    @Test("every app under models/apps loads, with its names, intents and vocabulary")
    func sampleApps() throws {
        let catalog = try Catalog.load(appsDirectory: Repo.apps, domainsDirectory: Repo.domains)
        let names = Set(catalog.apps.map(\.name))
        #expect(names.isSuperset(of: ["MonkeyChat", "MonkeyFit", "ListOMat", "TasksNotes", "MonkeyPay", "MonkeyRide"]))
        let listOMat = try #require(catalog.app(named: "ListOMat"))
        #expect(listOMat.info.displayName == "List-o-Mat")
        #expect(listOMat.info.alternativeNames == [.init(name: "ListOMat", pronunciationHint: "list oh mat")])
        let tasks = try #require(catalog.app(named: "TasksNotes"))
        #expect(tasks.info.alternativeNames.map(\.name) == ["MonkeyNotes", "MonkeyTodo"])
        let fit = try #require(catalog.app(named: "MonkeyFit"))
        let bananarific = fit.vocabulary?.items(intent: "INStartWorkoutIntent", parameter: "workoutName").first
        #expect(bananarific?.identifier == "Bananarific")
        #expect(bananarific?.synonyms.first?.pronunciation == "ba nana ri fic")
        #expect(bananarific?.synonyms.first?.examples.contains("Start a Bananarific in MonkeyFit") == true)
        for app in catalog.apps {
            #expect(app.info.usageDescription?.isEmpty == false, "\(app.name) has no NSSiriUsageDescription")
            #expect(!app.info.intentsSupported.isEmpty, "\(app.name) supports no intent")
            #expect(app.vocabulary?.intentPhrases.isEmpty == false, "\(app.name) has no IntentPhrases")
        }
        // Apps whose intents have no grammar yet load and compile all the same.
        _ = try catalog.compile()
    }

    @Test("two apps claiming HarkDefaultApp is an error naming both")
    func twoDefaults() throws {
        let apps = try temporaryDirectory()
        for name in ["A", "B"] {
            try writePlist(["CFBundleName": name, "HarkDefaultApp": true], to: apps.appendingPathComponent("\(name)/Info.plist"))
        }
        let text = errorText { _ = try Catalog.load(appsDirectory: apps.path, domainsDirectory: Repo.domains) }
        #expect(text?.contains("HarkDefaultApp: A and B both claim to be the default app") == true, "\(text ?? "no error")")
    }
}

/// A plist and the error it should give; plist values are immutable here.
struct PlistCase: @unchecked Sendable, CustomTestStringConvertible {
    let plist: [String: Any]
    let expected: String
    init(_ plist: [String: Any], _ expected: String) {
        self.plist = plist
        self.expected = expected
    }
    var testDescription: String { expected }
}
