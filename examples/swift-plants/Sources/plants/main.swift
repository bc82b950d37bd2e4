// The Plants app, embedded in a program of its own through `import Hark`:
// an app module with two Swift handlers for the app's own intents, and an
// assistant built over the app folder. Each argument (or each line of
// standard input) is one typed turn; the answer is printed.
//
//   swift run plants "I watered the fern" "when did I last water the fern"
import Foundation
import Hark

/// The app's data: when each plant was last watered, in its data folder.
actor Garden {
    let file: URL
    private var watered: [String: Date]

    init(folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appendingPathComponent("watered.json")
        let data = try? Data(contentsOf: file)
        watered = data.flatMap { try? JSONDecoder().decode([String: Date].self, from: $0) } ?? [:]
    }

    func water(_ plant: String) throws {
        watered[plant] = Date()
        try JSONEncoder().encode(watered).write(to: file, options: .atomic)
    }

    func lastWatered(_ plant: String) -> Date? { watered[plant] }
}

struct WaterPlant: IntentHandler {
    let garden: Garden
    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let plant = intent["plant"]?.value else { return IntentResponse(code: .failure) }
        try await garden.water(plant)
        return IntentResponse(code: .success)  // the declared sentence: "Noted: the fern was watered."
    }
}

struct LastWatered: IntentHandler {
    let garden: Garden
    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let plant = intent["plant"] else { return IntentResponse(code: .failure) }
        guard let date = await garden.lastWatered(plant.value) else {
            return IntentResponse(code: .success, message: "You haven't watered the \(plant.spoken) yet.")
        }
        let minutes = Int(Date().timeIntervalSince(date) / 60)
        let when = minutes < 1 ? "just now" : minutes == 1 ? "a minute ago" : "\(minutes) minutes ago"
        return IntentResponse(code: .success, message: "You watered the \(plant.spoken) \(when).", output: ["minutes": String(minutes)])
    }
}

/// The app as Hark starts it: only when apps/Plants is installed.
struct PlantsModule: AppModule {
    var appName: String { "Plants" }
    var preauthorized: Bool { true }  // it ships with this program
    func start(_ context: AppContext) throws -> AppRuntime {
        let garden = try Garden(folder: context.appDataDirectory)
        return AppRuntime(handlers: ["waterPlant": WaterPlant(garden: garden), "lastWatered": LastWatered(garden: garden)])
    }
}

let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let environment = ProcessInfo.processInfo.environment
let data = URL(fileURLWithPath: environment["PLANTS_DATA_DIR"] ?? FileManager.default.temporaryDirectory.appendingPathComponent("plants").path)
var builder = AssistantBuilder(appsDirectory: package.appendingPathComponent("apps").path,
                               modelsDirectory: environment["HARK_MODELS"] ?? package.appendingPathComponent("../../models").standardized.path,
                               dataDirectory: data)
builder.add(PlantsModule())
do {
    let assistant = try builder.build()
    let turns = CommandLine.arguments.count > 1 ? Array(CommandLine.arguments.dropFirst()) : Array(AnyIterator { readLine() })
    for text in turns {
        let turn = await assistant.read(text)
        print("\(text) -> \(turn.speech) [\(turn.code)]")
    }
} catch {
    FileHandle.standardError.write(Data("plants: error: \(error)\n".utf8))
    exit(1)
}
