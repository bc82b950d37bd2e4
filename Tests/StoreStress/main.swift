// hark-store-stress DATA_DIR FROM COUNT
// hark-store-stress --concurrent DATA_DIR WRITER COUNT
//
// Crash mode (the first form): writes numbered changes FROM..<COUNT, each to
// MonkeyChat's message store (message "banana N") and to the
// user-vocabulary store (MonkeyChat's contact names, "Contact N" added to
// the set), and prints "ack N" only once both are on disk. The
// crash-safety test kills it with SIGKILL at random moments and checks that
// every acknowledged write survived and that every file still reads.
//
// Concurrent mode (the eggs/bread case): several of these run at once on
// one data directory, each as writer W making COUNT writes to every store
// (a MonkeyChat message "W-N", a ListOMat Grocery task "item W-N", a
// MonkeyChat vocabulary contact "Contact W-N", an authorization for app
// "App-W-N"), printing "ack N" after each. The multi-process test checks
// that no process lost another's write.
import Foundation
import HarkCatalog
import HarkEngine
import HarkIntents
import HarkSampleApps

let arguments = CommandLine.arguments
func usage() -> Never {
    FileHandle.standardError.write(Data("usage: hark-store-stress DATA_DIR FROM COUNT | --concurrent DATA_DIR WRITER COUNT\n".utf8))
    exit(2)
}

do {
    if arguments.count == 5, arguments[1] == "--concurrent" {
        guard let count = Int(arguments[4]) else { usage() }
        let data = URL(fileURLWithPath: arguments[2]), writer = arguments[3]
        let chat = try MonkeyChat.Store(container: AppGroupContainer(dataDirectory: data, group: MonkeyChat.group))
        let lists = try NotebookStore(container: AppGroupContainer(dataDirectory: data, group: ListOMat.group), initial: ListOMat.initial)
        let addTask = ListOMat.AddTasksHandler(store: lists)
        let vocabulary = try UserVocabularyStore(dataDirectory: data)
        let authorizations = try AuthorizationStore(dataDirectory: data)
        for n in 0..<count {
            let tag = "\(writer)-\(n)"
            try await chat.send(tag, to: "Bobo")
            let added = try await addTask.handle(intent: INAddTasksIntent(targetTaskList: "Grocery", taskTitles: "item \(tag)"))
            guard added.code == .success else { throw CatalogError("ListOMat did not add item \(tag): \(added.code)") }
            try vocabulary.update(type: .contactName, app: "MonkeyChat") { $0.append("Contact \(tag)") }
            try authorizations.set(.authorized, for: "App-\(tag)")
            FileHandle.standardOutput.write(Data("ack \(n)\n".utf8))
        }
    } else {
        guard arguments.count == 4, let from = Int(arguments[2]), let count = Int(arguments[3]) else { usage() }
        let data = URL(fileURLWithPath: arguments[1])
        let chat = try MonkeyChat.Store(container: AppGroupContainer(dataDirectory: data, group: MonkeyChat.group))
        let vocabulary = try UserVocabularyStore(dataDirectory: data)
        var contacts = try vocabulary.vocabulary(app: "MonkeyChat")["contactName"] ?? []
        for n in from..<count {
            try await chat.send("banana \(n)", to: "Bobo")
            // A write killed after saving and before its "ack" is made again: once.
            if !contacts.contains("Contact \(n)") { contacts.append("Contact \(n)") }
            try vocabulary.set(contacts, type: .contactName, app: "MonkeyChat")
            FileHandle.standardOutput.write(Data("ack \(n)\n".utf8))
        }
    }
} catch {
    FileHandle.standardError.write(Data("hark-store-stress: \(error)\n".utf8))
    exit(1)
}
