import ArgumentParser
import Foundation
import HarkIntents

extension HarkCommand {
    /// `hark domains`: the SiriKit intents Hark knows, for app developers.
    struct DomainsCommand: AsyncParsableCommand {
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

        func run() async throws {
            try await Self.reportingErrors {
                for (domain, intents) in Domains.domains {
                    let shown = intents.filter { intent == nil || $0 == intent }
                    guard !shown.isEmpty else { continue }
                    try Output.line(domain)
                    for name in shown {
                        guard let description = Domains.all[name] else { continue }
                        try Output.line("  \(name): \(description.summary)")
                        for parameter in description.parameters {
                            try Output.line("    \(parameter.name): \(parameter.type)\(parameter.required ? "" : "?") — \(parameter.documentation)")
                        }
                        if let confirmation = description.confirmation { try Output.line("    confirms: \(confirmation)") }
                        for example in description.examples { try Output.line("    e.g. \(example.replacingOccurrences(of: "{app}", with: "<App>"))") }
                    }
                }
            }
        }
    }
}
