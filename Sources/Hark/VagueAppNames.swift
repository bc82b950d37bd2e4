import HarkCatalog

extension Assistant.AppNames {
    /// Typed `text` with an app named by what it does — "the money app",
    /// "that ride app", "the monkey car thing", "that list-o-something app"
    /// — in the words of the one installed app it can mean ("monkey pay"),
    /// where a request names its app: at the start, after "in", "on",
    /// "with", "open", "can" and the like, or as a clause of its own.
    /// Its words say what the app does (a "money" app sends payments) or
    /// are some of its name's; when they fit two apps equally ("the list
    /// app", with two apps that keep lists), or none, the text is as typed.
    func namingVaguelyNamedApps(in text: String) -> String {
        let words = TypedWord.split(text)
        var result = text
        // From the end, so earlier ranges stay valid.
        for start in words.indices.reversed() where Self.pointers.contains(words[start].word) {
            let before = start > 0 ? words[start - 1] : nil
            guard before == nil || before!.endsClause || Self.namingPlaces.contains(before!.word) else { continue }
            let last = min(start + 4, words.count - 1)
            guard start + 2 <= last, let end = (start + 2...last).first(where: { Self.kinds.contains(words[$0].word) }) else { continue }
            let described = words[(start + 1)..<end].flatMap { $0.word.split(separator: "-").map(String.init) }
            guard !described.isEmpty, !words[start..<end].contains(where: \.endsClause),
                  let app = meant(by: described), let name = spoken[app]?.first else { continue }
            // The punctuation after the reference stays ("the money app, send …").
            let range = words[start].range.lowerBound..<words[end].range.upperBound
            result.replaceSubrange(range, with: name.joined(separator: " ") + TypedWord.trailingMarks(of: text[words[end].range]))
        }
        return result
    }

    /// The one installed app that words describing an app mean, if any.
    func meant(by described: [String]) -> String? {
        var scores: [String: Int] = [:]
        for (app, description) in descriptions {
            let score = described.reduce(0) {
                $0 + (description.does.contains($1) ? 2 : 0) + (description.nameWords.contains($1) ? 1 : 0)
            }
            if score > 0 { scores[app] = score }
        }
        guard let best = scores.values.max() else { return nil }
        let top = scores.filter { $0.value == best }
        return top.count == 1 ? top.first!.key : nil
    }

    /// What describes each app: the words of its names that tell it apart
    /// (a word in more than two apps' names, "monkey", tells them apart from
    /// nothing), and the words that say what it does, by its intents.
    static func descriptions(spoken: [String: [[String]]], intents: [String: [String]]) -> [String: AppDescription] {
        var nameCounts: [String: Int] = [:]
        for names in spoken.values { for word in Set(names.joined()) { nameCounts[word, default: 0] += 1 } }
        var result: [String: AppDescription] = [:]
        for (app, names) in spoken {
            let does = intents[app, default: []].flatMap { intent in
                wordsForWhatAppsDo.filter { intent.hasPrefix($0.key) }.flatMap(\.value)
            }
            result[app] = AppDescription(nameWords: Set(names.joined()).filter { nameCounts[$0, default: 0] <= 2 }, does: Set(does))
        }
        return result
    }

    /// The words that describe one app (``descriptions(spoken:intents:)``).
    struct AppDescription: Sendable {
        let nameWords: Set<String>
        let does: Set<String>
    }

    /// Words that point at an app: "the", "my", "that".
    private static let pointers: Set<String> = ["the", "my", "that", "this", "your"]
    /// What a vague name ends with.
    private static let kinds: Set<String> = ["app", "thing", "application"]
    /// Words after which a request names its app.
    private static let namingPlaces: Set<String> = [
        "in", "on", "with", "using", "through", "via", "from", "open", "use", "ask", "have", "can", "could", "will", "would", "tell",
    ]
    /// Words that say what an app does, by the SiriKit intents (by prefix) of apps that do it.
    private static let wordsForWhatAppsDo: [String: [String]] = [
        "INSendMessage": ["chat", "message", "messages", "messaging", "messenger", "text", "texting", "texts"],
        "INStartVideoCall": ["video"],
        "INSendPayment": ["money", "pay", "payment", "payments", "paying", "bank", "banking", "wallet"],
        "INRequestRide": ["ride", "rides", "taxi", "cab", "car", "lift", "driver"],
        "INStartWorkout": ["workout", "workouts", "fitness", "exercise", "gym", "training", "running"],
        "INCreateNote": ["note", "notes", "notepad"],
        "INAddTasks": ["list", "lists", "shopping", "grocery", "todo", "task", "tasks", "reminder", "reminders"],
        "INGetVisualCode": ["qr"],
    ]
}
