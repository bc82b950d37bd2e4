// hark-store-stress DATA_DIR FROM COUNT
//
// Writes numbered changes FROM..<COUNT, each to MonkeyChat's message store
// (message "banana N") and to the user-vocabulary store (MonkeyChat's
// contact names, "Contact N" added to the set), and prints "ack N" only
// once both are on disk. The crash-safety test kills it with SIGKILL at
// random moments and checks that every acknowledged write survived and
// that every file still reads.
import Foundation
import HarkCatalog
import HarkSampleApps

let arguments = CommandLine.arguments
guard arguments.count == 4, let from = Int(arguments[2]), let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: hark-store-stress DATA_DIR FROM COUNT\n".utf8))
    exit(2)
}
let data = URL(fileURLWithPath: arguments[1])
do {
    let chat = try MonkeyChat.Store(container: AppGroupContainer(dataDirectory: data, group: MonkeyChat.group))
    let vocabulary = try UserVocabularyStore(dataDirectory: data)
    var contacts = try vocabulary.vocabulary(app: "MonkeyChat")["contactName"] ?? []
    for n in from..<count {
        try await chat.send("banana \(n)", to: "Bobo")
        contacts.append("Contact \(n)")
        try vocabulary.set(contacts, type: .contactName, app: "MonkeyChat")
        FileHandle.standardOutput.write(Data("ack \(n)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("hark-store-stress: \(error)\n".utf8))
    exit(1)
}
