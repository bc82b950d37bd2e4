import Foundation
import HarkCatalog
import HarkGrammar
import HarkIntents
import Testing

/// The domain grammars in `models/domains`, read as an app supporting every
/// intent would see them.
@Suite("Domain grammars")
struct DomainGrammarTests {
    static let catalog: Catalog = {
        let apps = try! SampleInfo.appsFolder()
        let folder = apps.appendingPathComponent("Testy")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let plist: [String: Any] = ["CFBundleName": "Testy", "NSExtension": ["NSExtensionAttributes": ["IntentsSupported": Array(Domains.all.keys)]]]
        try! PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: folder.appendingPathComponent("Info.plist"))
        var catalog = try! Catalog.load(appsDirectory: apps.path, domainsDirectory: Repo.models + "/domains")
        catalog.apps.removeAll { $0.name != "Testy" }
        for (type, strings) in ["contactName": ["Bobo"], "workoutActivityName": ["Bananarific", "Run"],
                                "notebookItemTitle": ["grocery", "store", "shopping", "training", "buy iPhone"], "photoAlbumName": ["vacation"],
                                "paymentsAccountNickname": ["checking", "savings"], "rideOption": ["Banana Car"]] {
            catalog.setVocabulary(strings, type: type, app: "Testy")
        }
        return catalog
    }()

    static let parser = TextParser(graph: try! catalog.compile())

    @Test("every intent's examples parse to that intent", arguments: Domains.all.keys.sorted())
    func examples(intent: String) throws {
        let description = try #require(Domains.all[intent])
        for example in description.examples {
            // Digits as typed: the parser reads them as spoken too.
            let text = example.replacingOccurrences(of: "{app}", with: "Testy")
            #expect(Self.parser.parse(text).first?.intent == intent, "\(example)")
        }
    }

    @Test("every intent has a grammar with at least eight distinct phrasings", arguments: Domains.all.keys.sorted())
    func phrasings(intent: String) throws {
        let domain = try #require(Self.catalog.domains.first { $0.intents.contains { $0.name == intent } }, "no grammar for \(intent)")
        let definition = try #require(domain.intents.first { $0.name == intent })
        var phrasings = Set<String>()
        for sentence in definition.sentences {
            phrasings.formUnion(Self.expand(sentence, in: domain, limit: 50))
        }
        #expect(phrasings.count >= 8, "\(intent): \(phrasings.count) phrasings")
    }

    @Test("the typed seed phrases of the issue parse as the issue says")
    func seeds() {
        let cases: [(String, String, [String: String])] = [
            ("Send a message to Bobo on Testy", "INSendMessageIntent", ["recipients": "Bobo"]),
            ("Testy Bobo please send more bananas", "INSendMessageIntent", ["recipients": "Bobo", "content": "please send more bananas"]),
            ("Start a Bananarific workout with Testy", "INStartWorkoutIntent", ["workoutName": "Bananarific"]),
            ("Send Bobo twenty five dollars with Testy", "INSendPaymentIntent", ["payee": "Bobo", "currencyAmount.amount": "25", "currencyAmount.currencyCode": "USD"]),
            ("Transfer fifty dollars from checking to savings on Testy", "INTransferMoneyIntent", ["fromAccount": "checking", "toAccount": "savings"]),
            ("Get me a ride to the airport with Testy", "INRequestRideIntent", ["dropOffLocation": "the airport"]),
            ("Show my payment code in Testy", "INGetVisualCodeIntent", ["visualCodeType": "sendPayment"]),
            ("Show my photos of Bobo in Testy", "INSearchForPhotosIntent", ["peopleInPhoto": "Bobo"]),
            ("Mark my messages from Bobo as read in Testy", "INSetMessageAttributeIntent", ["sender": "Bobo", "attribute": "read"]),
            ("Remind me to leave home at eight am in Testy", "INAddTasksIntent", ["taskTitles": "leave home", "temporalEventTrigger.hour": "8", "temporalEventTrigger.meridiem": "am"]),
        ]
        for (text, intent, slots) in cases {
            let parse = Self.parser.parse(text).first
            #expect(parse?.intent == intent, "\(text)")
            for (name, value) in slots {
                #expect(parse?.slotValues[name] == value, "\(text): \(name)")
            }
        }
    }

    /// Up to `limit` sentences of `expression`, slots as `{name}`, the app as `APP`.
    static func expand(_ expression: GrammarExpression, in file: GrammarFile, limit: Int) -> Set<String> {
        func go(_ e: GrammarExpression) -> [String] {
            switch e {
            case .word(let w): return [w]
            case .slot(let name, _, _): return ["{\(name)}"]
            case .value(let spoken, _): return go(spoken)
            case .typedOnly(let inner, _), .heardOnly(let inner, _): return go(inner)
            case .optional(let inner): return [""] + go(inner)
            case .alternatives(let items): return Array(items.flatMap(go).prefix(limit))
            case .rule(let name, _):
                guard let body = file.rules[name] else { return ["APP"] }
                return go(body)
            case .anyOrder(let parts, _):
                // One order stands for all of them here.
                return go(.sequence(parts))
            case .sequence(let items):
                var results = [""]
                for item in items {
                    let next = go(item)
                    results = Array(results.flatMap { prefix in next.map { [prefix, $0].filter { !$0.isEmpty }.joined(separator: " ") } }.prefix(limit))
                }
                return results
            }
        }
        return Set(go(expression))
    }
}
