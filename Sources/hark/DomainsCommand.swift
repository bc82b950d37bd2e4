import ArgumentParser
import Foundation
import HarkIntents

extension HarkCommand {
    /// `hark domains`: the SiriKit intents Hark knows, for app developers.
    struct DomainsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "domains",
            abstract: "List the SiriKit domains and intents Hark understands, with their parameters.",
            discussion: """
                Examples:
                  hark domains --intent INSendPaymentIntent
                  hark domains --json
                """)

        @Option(help: "Only this intent (e.g. INSendMessageIntent).", completion: .list(Domains.all.keys.sorted()))
        var intent: String?

        @Flag(help: "Print JSON: [{domain, intents: [{name, summary, parameters, confirmation, examples}]}].")
        var json = false

        struct DomainJSON: Encodable {
            var domain: String
            var intents: [IntentJSON]
        }

        struct IntentJSON: Encodable {
            var name: String
            var summary: String
            var parameters: [ParameterJSON]
            var confirmation: String?
            var examples: [String]
        }

        struct ParameterJSON: Encodable {
            var name: String
            var type: String
            var required: Bool
            var documentation: String
        }

        func validate() throws {
            if let intent, Domains.all[intent] == nil {
                throw ValidationError("unknown intent '\(intent)'; run `hark domains` for the list")
            }
        }

        func run() async throws {
            try await Self.reportingErrors {
                if json {
                    try printJSON(Domains.domains.compactMap { domain, intents -> DomainJSON? in
                        let shown = intents.filter { intent == nil || $0 == intent }.compactMap { Domains.all[$0] }
                        guard !shown.isEmpty else { return nil }
                        return DomainJSON(domain: domain, intents: shown.map { d in
                            IntentJSON(name: d.name, summary: d.summary,
                                       parameters: d.parameters.map { ParameterJSON(name: $0.name, type: $0.type, required: $0.required, documentation: $0.documentation) },
                                       confirmation: d.confirmation,
                                       examples: d.examples.map { $0.replacingOccurrences(of: "{app}", with: "<App>") })
                        })
                    })
                    return
                }
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
