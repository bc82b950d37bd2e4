import Foundation
import HarkCatalog
import HarkTestSupport
import Testing

/// What a user or a file provides stays data: it never leaves Hark's data
/// folder as a path, never reaches a shell, and a locked device keeps every
/// restricted intent shut.
@Suite("Security")
struct SecurityTests {
    /// SiriKit refuses these while the device is locked whatever the app says
    /// (payments and ride booking), from Apple's documentation.
    static let alwaysRestricted: Set<String> = [
        "INSendPaymentIntent", "INRequestPaymentIntent", "INSearchForAccountsIntent", "INTransferMoneyIntent",
        "INRequestRideIntent", "INGetRideStatusIntent", "INListRideOptionsIntent", "INCancelRideIntent", "INSendRideFeedbackIntent",
    ]

    /// One typed request per (app, intent), from the fixtures' manifest.
    static func requests() throws -> [String: String] {
        let text = try String(contentsOf: Repo.root.appendingPathComponent("audio-fixtures/manifest.jsonl"), encoding: .utf8)
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            guard let app = object["app"] as? String, let intent = object["intent"] as? String,
                  let sentence = object["text"] as? String else { continue }
            if result["\(app) \(intent)"] == nil { result["\(app) \(intent)"] = sentence }
        }
        return result
    }

    @Test("every intent restricted while locked, by SiriKit or by the app's Info.plist, is refused while locked; the rest is not")
    func lockedRestrictsEveryRestrictedIntent() throws {
        let apps = try Catalog.load(appsDirectory: Repo.models + "/apps", domainsDirectory: Repo.models + "/domains").apps
        let requests = try Self.requests()
        let converse = try Converse()
        var restrictedChecked = 0, openChecked = 0
        for app in apps {
            for intent in app.info.intentsSupported {
                let restricted = Self.alwaysRestricted.contains(intent) || app.info.intentsRestrictedWhileLocked.contains(intent)
                let request = requests["\(app.name) \(intent)"]
                if restricted {
                    // Every restricted intent must be exercised, so a new one cannot slip through untested.
                    try #require(request != nil, "no fixture sentence for \(app.name) \(intent); add one to scripts/make-fixtures.py")
                }
                guard let request else { continue }
                let turn = try #require(converse.run([request], extra: ["--locked"]).first)
                #expect(turn.app == app.name && turn.intent == intent, "'\(request)' was understood as \(turn.app ?? "-") \(turn.intent ?? "-")")
                if restricted {
                    #expect(turn.code == "refused" && turn.speech == "You'll need to unlock your device first.",
                            "\(app.name) \(intent) ran while locked: \(turn.code) '\(turn.speech)'")
                    restrictedChecked += 1
                } else {
                    #expect(turn.code != "refused", "\(app.name) \(intent) was refused while locked but is not restricted: '\(turn.speech)'")
                    openChecked += 1
                }
            }
        }
        // MonkeyPay's four, MonkeyRide's five, MonkeyChat's message search.
        #expect(restrictedChecked == 10)
        #expect(openChecked >= 15)
    }

    /// Every file under `folder`, relative to it.
    static func files(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var result: [String] = []
        while let path = enumerator?.nextObject() as? String { result.append(path) }
        return result.sorted()
    }

    @Test("app and user names like ../../x are refused and nothing is written outside the data folder",
          arguments: ["../../x", "..", "a/b", ".hidden", "/etc/x"])
    func namesCannotEscape(name: String) throws {
        let root = try temporaryDirectory()
        let data = root.appendingPathComponent("deep/er/data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let app = try runHark(["vocab", "set", "--data-dir", data.path, "--app", name, "--type", "contactName", "Koko"])
        #expect(app.status != 0)
        #expect(app.err.contains("is not an installed app") || app.err.contains("is not a valid app name"), "\(app.err)")
        let user = try runHark(["vocab", "set", "--data-dir", data.path, "--user", name, "--app", "MonkeyChat",
                                "--type", "contactName", "Koko"])
        #expect(user.status != 0)
        #expect(user.err.contains("'\(name)' is not a valid user name"), "\(user.err)")
        // The Swift API refuses the same names, whoever calls it.
        let store = try UserVocabularyStore(dataDirectory: data)
        #expect(throws: CatalogError.self) { try store.set(["Koko"], type: .contactName, app: name) }
        #expect(throws: CatalogError.self) { try UserVocabularyStore(dataDirectory: data, user: name) }
        // Nothing outside the data folder, and no vocabulary file named after the hostile name.
        let outside = Self.files(under: root).filter { !$0.hasPrefix("deep/er/data") }
        #expect(outside == ["deep", "deep/er"])
        #expect(!Self.files(under: data).contains { $0.hasSuffix("x.json") || $0.contains("Koko") })
        #expect(!FileManager.default.fileExists(atPath: "/etc/x.json"))
    }

    @Test("an installed app whose CFBundleName is a path is refused with the key at fault")
    func bundleNameCannotBeAPath() throws {
        let apps = try temporaryDirectory()
        let folder = apps.appendingPathComponent("Sneaky")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let plist = try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleName": "../../../escaped", "IntentsSupported": ["INSendMessageIntent"]], format: .xml, options: 0)
        try plist.write(to: folder.appendingPathComponent("Info.plist"))
        let data = try temporaryDirectory()
        let result = try runHark(["converse", "--apps", apps.path, "--data-dir", data.path], input: "hello\n")
        #expect(result.status != 0)
        #expect(result.err.contains("Sneaky/Info.plist: CFBundleName: '../../../escaped' must be a plain name"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: data.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("escaped").path))
    }

    @Test("shell syntax in vocabulary and in what is said stays text: nothing runs")
    func nothingReachesAShell() throws {
        let root = try temporaryDirectory()
        let marker = root.appendingPathComponent("ran").path
        let hostile = ["$(touch \(marker))", "`touch \(marker)`", "x; touch \(marker)", "x && touch \(marker) #"]
        let converse = try Converse(data: root.appendingPathComponent("data"))
        let set = try runHark(["vocab", "set", "--data-dir", converse.data.path, "--app", "MonkeyChat", "--type", "contactName",
                               "Bobo"] + hostile)
        #expect(set.status == 0, "\(set.err)")
        let list = try runHark(["vocab", "list", "--data-dir", converse.data.path, "--app", "MonkeyChat"])
        for string in hostile { #expect(list.out.contains(string), "the vocabulary lost '\(string)'") }
        // Said as a message's content, sent, and read back.
        let turns = try converse.run(hostile.flatMap { ["MonkeyChat Bobo \($0)", "send it"] } + ["read my messages from Bobo on MonkeyChat"])
        for (i, turn) in turns.dropLast().enumerated() {
            #expect(turn.code == (i % 2 == 0 ? "prompt" : "success"), "\(turn.heard): \(turn.speech)")
        }
        #expect(!FileManager.default.fileExists(atPath: marker), "a shell ran something the user said")
    }
}
