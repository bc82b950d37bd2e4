import ArgumentParser
import Foundation
import HarkIntents

extension HarkCommand {
    /// `hark domains`: the SiriKit intents Hark knows, for app developers.
    struct DomainsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "domains",
            abstract: "List the SiriKit domains and intents Hark understands, with their parameters.",
            discussion: "Example: hark domains --intent INSendPaymentIntent")

        @Option(help: "Only this intent (e.g. INSendMessageIntent).")
        var intent: String?

        func validate() throws {
            if let intent, Domains.all[intent] == nil {
                throw ValidationError("unknown intent '\(intent)'; run `hark domains` for the list")
            }
        }

        func run() throws {
            for (domain, intents) in Domains.domains {
                let shown = intents.filter { intent == nil || $0 == intent }
                guard !shown.isEmpty else { continue }
                print(domain)
                for name in shown {
                    guard let description = Domains.all[name] else { continue }
                    print("  \(name): \(description.summary)")
                    for parameter in description.parameters {
                        print("    \(parameter.name): \(parameter.type)\(parameter.required ? "" : "?") — \(parameter.documentation)")
                    }
                    if let confirmation = description.confirmation { print("    confirms: \(confirmation)") }
                    for example in description.examples { print("    e.g. \(example.replacingOccurrences(of: "{app}", with: "<App>"))") }
                }
            }
        }
    }
}
