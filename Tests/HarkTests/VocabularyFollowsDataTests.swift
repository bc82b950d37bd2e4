import Foundation
import Hark
import HarkSampleApps
import HarkTestSupport
import Testing

/// MonkeyChat's contacts as another process leaves them: a real second
/// process (python3) replaces `contacts.json` the way an editor or sync
/// tool does, by writing a new file and renaming it over the old one.
private func writeContacts(_ contacts: [String], favorites: [String]? = nil, data: URL) throws {
    let folder = data.appendingPathComponent("groups").appendingPathComponent(MonkeyChat.group)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var files = [("contacts.json", contacts)]
    if let favorites { files.append(("favorites.json", favorites)) }
    for (file, names) in files {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: names), as: UTF8.self)
        let script = "import os, sys; p = sys.argv[1]; open(p + '.new', 'w').write(sys.argv[2]); os.replace(p + '.new', p)"
        let result = try ProcessRunner.run("/usr/bin/python3", ["-c", script, folder.appendingPathComponent(file).path, json])
        #expect(result.status == 0, "\(result.err)")
    }
}

@Suite("Vocabulary follows the apps' data", .serialized)
struct VocabularyFollowsDataTests {
    func assistant(data: URL, recognizer: Bool = false) throws -> Assistant {
        try SampleApps.assistant(modelsDirectory: Repo.models, dataDirectory: data,
                                 decoder: recognizer ? sharedDecoder : nil, configuration: patient)
    }

    @Test("a contact another process adds to MonkeyChat is heard on the next utterance; deleted, it no longer is")
    func contactAddedAndDeleted() async throws {
        let data = try temporaryDirectory("data")
        let assistant = try assistant(data: data, recognizer: true)
        let request = try flite("Send a message to Zuzu on MonkeyChat saying see you at the river")
        let before = try await assistant.hear(request)
        // Not a contact yet: no recipient Zuzu (the word may still be dictated as a message).
        #expect(before.slots["recipients"] != "Zuzu" && !before.heard.contains("to zuzu on monkey chat"), "\(before.heard)")
        _ = await assistant.read("cancel")

        try writeContacts(MonkeyChat.defaultContacts + ["Zuzu"], data: data)
        let added = try await assistant.hear(request)
        #expect(added.heard.contains("message to zuzu on monkey chat"), "\(added.heard)")
        #expect(added.app == "MonkeyChat" && added.slots["recipients"] == "Zuzu", "\(added.speech)")
        _ = await assistant.read("cancel")
        // Typed too (in lower case: a capitalised name no list has would reach
        // the app as typed), and the user vocabulary on disk says so (`hark vocab list`).
        #expect(await assistant.read("Send a message to zuzu on MonkeyChat saying hi").code == "prompt")
        _ = await assistant.read("cancel")
        let stored = try UserVocabularyStore(dataDirectory: data).vocabulary(app: MonkeyChat.appName)["contactName"] ?? []
        #expect(stored.contains("Zuzu"), "\(stored)")

        try writeContacts(MonkeyChat.defaultContacts, data: data)
        let deleted = try await assistant.hear(request)
        #expect(deleted.slots["recipients"] != "Zuzu" && !deleted.heard.contains("to zuzu on monkey chat"), "\(deleted.heard)")
        _ = await assistant.read("cancel")
        #expect(await assistant.read("Send a message to zuzu on MonkeyChat saying hi").code == "notUnderstood")
    }

    @Test("a change made while Hark was not running is heard at the next start")
    func changedBetweenRuns() async throws {
        let data = try temporaryDirectory("data")
        #expect(await (try assistant(data: data)).read("Send a message to kiki on MonkeyChat saying hi").code == "notUnderstood")
        try writeContacts(MonkeyChat.defaultContacts + ["Kiki"], data: data)
        let turn = await (try assistant(data: data)).read("Send a message to kiki on MonkeyChat saying hi")
        #expect(turn.code == "prompt" && turn.slots["recipients"] == "Kiki", "\(turn.speech)")
    }

    @Test("what hark vocab set stores stays until the app's data changes")
    func explicitVocabularyKept() async throws {
        let data = try temporaryDirectory("data")
        _ = await (try assistant(data: data)).read("What can you do?")
        try UserVocabularyStore(dataDirectory: data).set(["Zuzu", "Bobo"], type: try .named("contactName"), app: MonkeyChat.appName)
        let assistant = try assistant(data: data)
        // MonkeyChat's contacts did not change: the stored vocabulary is what is heard.
        let zuzu = await assistant.read("Send a message to zuzu on MonkeyChat saying hi")
        #expect(zuzu.slots["recipients"] == "Zuzu" || zuzu.code == "prompt", "\(zuzu.speech)")
        _ = await assistant.read("cancel")
        try writeContacts(["Bobo", "Koko"], data: data)
        #expect(await assistant.read("Send a message to koko on MonkeyChat saying hi").code == "prompt")
        _ = await assistant.read("cancel")
        #expect(await assistant.read("Send a message to zuzu on MonkeyChat saying hi").code == "notUnderstood")
    }

    @Test("contacts are reported favourites first, then by latest message or call, then in the address book's order")
    func importanceOrder() async throws {
        let data = try temporaryDirectory("data")
        let apps = try SampleApps(dataDirectory: data)
        try writeContacts(["Bobo", "Kiki", "Zuzu", "Koko", "Momo"], favorites: ["Momo"], data: data)
        try await apps.monkeyChat.send("hello", to: "Koko")
        // The starting history has a message from Zuzu and a missed call from
        // Kiki at the same moment in 2027 (the address book breaks the tie),
        // later than Koko's just now; Bobo has neither.
        #expect(await apps.monkeyChat.contactsByImportance() == ["Momo", "Kiki", "Zuzu", "Koko", "Bobo"])
    }

    @Test("more than ten contacts matching a name: Hark asks for the whole name instead of offering a list")
    func needsMoreDetails() async throws {
        let data = try temporaryDirectory("data")
        let surnames = ["Apple", "Berry", "Cherry", "Date", "Elder", "Fig", "Grape", "Guava", "Kiwi", "Lemon", "Lime", "Mango", "Melon", "Peach"]
        try writeContacts(surnames.map { "Bobo \($0)" }, data: data)
        let assistant = try assistant(data: data)
        let turn = await assistant.read("Send a message to Bobo on MonkeyChat saying hi")
        #expect(turn.prompt)
        #expect(turn.speech == "More than ten match Bobo; I need the whole name. Who do you want to message?", "\(turn.speech)")
        let answered = await assistant.read("Bobo Mango")
        #expect(answered.slots["recipients"] == "Bobo Mango" && answered.code == "prompt", "\(answered.speech)")
        #expect(answered.speech.hasPrefix("Your message to Bobo Mango says: hi."), "\(answered.speech)")
        // Up to ten, they are offered.
        try writeContacts(Array(surnames.prefix(3)).map { "Bobo \($0)" }, data: data)
        let few = await (try self.assistant(data: data)).read("Send a message to Bobo on MonkeyChat saying hi")
        #expect(few.speech == "Which one? 1, Bobo Apple; 2, Bobo Berry; or 3, Bobo Cherry.", "\(few.speech)")
    }

    @Test("a spoken turn that changes an app's data is answered before the vocabulary follows it; settle() then does, as the next request would")
    func answeredBeforeTheVocabularyFollows() async throws {
        let data = try temporaryDirectory("data")
        let assistant = try assistant(data: data, recognizer: true)
        let before = await assistant.graphStateCount
        let asked = try await assistant.hear(try flite("Create a list called zebra plans in ListOMat"))
        let title = try #require(asked.slots["title"], "\(asked.heard): \(asked.speech)")
        // A title heard unsurely is read back first: "yes", said too.
        let made = asked.prompt ? try await assistant.hear(try flite("yes")) : asked
        #expect(made.intent == "INCreateTaskListIntent" && made.code == "success", "\(asked.speech) \(made.heard): \(made.speech)")
        // The answer did not wait for the grammar to be rebuilt with the new title.
        #expect(await assistant.graphStateCount == before)
        await assistant.settle()
        let after = await assistant.graphStateCount
        #expect(after > before, "\(before) -> \(after)")
        // Once is enough: nothing changed since.
        await assistant.settle()
        #expect(await assistant.graphStateCount == after)
        let shown = await assistant.read("Show me the \(title.lowercased()) list in ListOMat")
        #expect(shown.intent == "INSearchForNotebookItemsIntent" && shown.slots["title"] == title, "\(shown.slots)")
        // Typed, the vocabulary has followed when the answer comes.
        let typed = await assistant.read("Create a list called giraffe plans in ListOMat")
        #expect(typed.code == "success", "\(typed.speech)")
        #expect(await assistant.graphStateCount > after)
    }
}
