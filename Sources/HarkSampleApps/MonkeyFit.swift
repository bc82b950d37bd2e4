import Foundation
import HarkEngine
import HarkIntents

/// MonkeyFit, the workouts sample app (its signature workout: Bananarific).
public enum MonkeyFit {
    public static let appName = "MonkeyFit"
    public static let group = "group.com.example.monkeyfit"
    /// The workouts MonkeyFit offers (vocabulary type `workoutActivityName`).
    public static let workouts = ["Bananarific", "Run", "Walk", "Swim", "Yoga", "Jungle Climb", "Vine Swing", "Coconut Crunch"]

    public struct Workout: Codable, Sendable, Equatable {
        public var name: String
        public var goal: String?
        public var location: String?
        /// `active`, `paused`, `ended` or `cancelled`.
        public var state: String
        public var started: Date
    }

    public actor Store {
        let log: JSONDocument<[Workout]>

        public init(container: AppGroupContainer) throws {
            log = try JSONDocument(url: container.url.appendingPathComponent("workouts.json"), initial: [])
        }

        public var workouts: [Workout] { get async { await log.value } }

        /// The workout in progress (active or paused).
        var current: Workout? { get async { await log.value.last.flatMap { ["active", "paused"].contains($0.state) ? $0 : nil } } }

        func start(_ workout: Workout) async throws {
            try await log.update { all in
                // Starting a new workout ends one left running.
                if let last = all.indices.last, ["active", "paused"].contains(all[last].state) { all[last].state = "ended" }
                all.append(workout)
            }
        }

        func setState(_ state: String) async throws {
            try await log.update { all in
                if let last = all.indices.last { all[last].state = state }
            }
        }
    }

    static func resolveName(_ name: String?, required: Bool) -> Resolution<String> {
        guard let name else { return required ? .needsValue : .notRequired }
        return NameMatch.resolve(name, among: workouts, none: "MonkeyFit doesn't have a \(name) workout.")
    }

    public struct StartHandler: INStartWorkoutIntentHandling {
        public let store: Store
        public func resolveWorkoutName(for intent: INStartWorkoutIntent) async throws -> Resolution<String> {
            MonkeyFit.resolveName(intent.workoutName, required: true)
        }
        public func resolveGoal(for intent: INStartWorkoutIntent) async throws -> Resolution<INWorkoutGoal> {
            guard let goal = intent.goal else { return .notRequired }
            guard goal.goalValue > 0, goal.goalValue <= 1000 else { return .unsupported(reason: "That goal is out of reach, even for a monkey.") }
            return .success(with: goal)
        }
        public func handle(intent: INStartWorkoutIntent) async throws -> IntentResponse {
            guard let name = intent.workoutName else { return IntentResponse(code: .failure) }
            try await store.start(Workout(name: name, goal: intent.goal?.description, location: intent.workoutLocationType?.rawValue,
                                          state: "active", started: Date()))
            var output = ["workout": name]
            output["goal"] = intent.goal?.description
            return IntentResponse(code: .success, message: intent.goal.map { "Goal: \($0)." }, output: output)
        }
    }

    /// Pause, resume, end and cancel: each needs a workout in the right state.
    struct StateChange: Sendable {
        let store: Store
        let from: Set<String>
        let to: String
        let missing: String

        func run(_ name: String?) async throws -> IntentResponse {
            guard let current = await store.current, from.contains(current.state),
                  name == nil || name == current.name else {
                return IntentResponse(code: .failure, message: missing)
            }
            try await store.setState(to)
            return IntentResponse(code: .success, output: ["workout": current.name, "state": to])
        }
    }

    public struct PauseHandler: INPauseWorkoutIntentHandling {
        public let store: Store
        public func resolveWorkoutName(for intent: INPauseWorkoutIntent) async throws -> Resolution<String> { MonkeyFit.resolveName(intent.workoutName, required: false) }
        public func handle(intent: INPauseWorkoutIntent) async throws -> IntentResponse {
            try await StateChange(store: store, from: ["active"], to: "paused", missing: "You don't have a workout running.").run(intent.workoutName)
        }
    }

    public struct ResumeHandler: INResumeWorkoutIntentHandling {
        public let store: Store
        public func resolveWorkoutName(for intent: INResumeWorkoutIntent) async throws -> Resolution<String> { MonkeyFit.resolveName(intent.workoutName, required: false) }
        public func handle(intent: INResumeWorkoutIntent) async throws -> IntentResponse {
            try await StateChange(store: store, from: ["paused"], to: "active", missing: "You don't have a paused workout.").run(intent.workoutName)
        }
    }

    public struct EndHandler: INEndWorkoutIntentHandling {
        public let store: Store
        public func resolveWorkoutName(for intent: INEndWorkoutIntent) async throws -> Resolution<String> { MonkeyFit.resolveName(intent.workoutName, required: false) }
        public func handle(intent: INEndWorkoutIntent) async throws -> IntentResponse {
            try await StateChange(store: store, from: ["active", "paused"], to: "ended", missing: "You don't have a workout to end.").run(intent.workoutName)
        }
    }

    public struct CancelHandler: INCancelWorkoutIntentHandling {
        public let store: Store
        public func resolveWorkoutName(for intent: INCancelWorkoutIntent) async throws -> Resolution<String> { MonkeyFit.resolveName(intent.workoutName, required: false) }
        public func handle(intent: INCancelWorkoutIntent) async throws -> IntentResponse {
            try await StateChange(store: store, from: ["active", "paused"], to: "cancelled", missing: "You don't have a workout to cancel.").run(intent.workoutName)
        }
    }

    public static func handlers(_ store: Store) -> [String: any IntentHandler] {
        [
            "INStartWorkoutIntent": INStartWorkoutIntent.handler(StartHandler(store: store)),
            "INPauseWorkoutIntent": INPauseWorkoutIntent.handler(PauseHandler(store: store)),
            "INResumeWorkoutIntent": INResumeWorkoutIntent.handler(ResumeHandler(store: store)),
            "INEndWorkoutIntent": INEndWorkoutIntent.handler(EndHandler(store: store)),
            "INCancelWorkoutIntent": INCancelWorkoutIntent.handler(CancelHandler(store: store)),
        ]
    }
}
