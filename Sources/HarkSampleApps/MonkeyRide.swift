import Foundation
import HarkEngine
import HarkIntents

/// MonkeyRide, the ride-booking sample app: ride options, booking, status,
/// cancelling, feedback.
public enum MonkeyRide {
    public static let appName = "MonkeyRide"
    public static let group = "group.com.example.monkeyride"
    /// The kinds of ride (vocabulary type `rideOption`) and their price per trip.
    public static let options: [(name: String, price: Decimal, minutes: Int)] = [
        ("Banana Car", 12, 4), ("Monkey Pool", 7, 9), ("Jungle Limo", 40, 12),
    ]

    public struct Ride: Codable, Sendable, Equatable {
        public var pickup: String
        public var dropOff: String
        public var option: String
        public var partySize: Int
        /// `confirmed`, `cancelled`, `completed`.
        public var status: String
        public var booked: Date
        public var rating: Int?
        public var tip: String?
    }

    public actor Store {
        let rides: JSONDocument<[Ride]>

        public init(container: AppGroupContainer) throws {
            rides = try JSONDocument(url: container.url.appendingPathComponent("rides.json"), initial: [])
        }

        public var all: [Ride] { get async { await rides.value } }
        var current: Ride? { get async { await rides.value.last.flatMap { $0.status == "confirmed" ? $0 : nil } } }

        func book(_ ride: Ride) async throws { try await rides.update { $0.append(ride) } }

        func updateLast(_ change: @Sendable @escaping (inout Ride) -> Void) async throws {
            try await rides.update { all in
                if let last = all.indices.last { change(&all[last]) }
            }
        }
    }

    static func resolveOption(_ name: String?) -> Resolution<String> {
        guard let name else { return .notRequired }
        return NameMatch.resolve(name, among: options.map(\.name), none: "MonkeyRide has no \(name).")
    }

    public struct RequestRideHandler: INRequestRideIntentHandling {
        public let store: Store
        public func resolveRideOptionName(for intent: INRequestRideIntent) async throws -> Resolution<String> { MonkeyRide.resolveOption(intent.rideOptionName) }
        public func resolvePartySize(for intent: INRequestRideIntent) async throws -> Resolution<Int> {
            guard let size = intent.partySize else { return .notRequired }
            return (1...6).contains(size) ? .success(with: size) : .unsupported(reason: "MonkeyRide takes one to six people.")
        }
        public func confirm(intent: INRequestRideIntent) async throws -> IntentResponse {
            if await store.current != nil {
                return IntentResponse(code: .failure, message: "You already have a ride on its way. Cancel it first.")
            }
            let option = MonkeyRide.options.first { $0.name == (intent.rideOptionName ?? "Banana Car") }!
            return IntentResponse(code: .ready, message: "A \(option.name) costs \(INCurrencyAmount(amount: option.price)) and is \(option.minutes) minutes away.")
        }
        public func handle(intent: INRequestRideIntent) async throws -> IntentResponse {
            guard let dropOff = intent.dropOffLocation else { return IntentResponse(code: .failure) }
            let option = MonkeyRide.options.first { $0.name == (intent.rideOptionName ?? "Banana Car") }!
            try await store.book(Ride(pickup: intent.pickupLocation ?? "your location", dropOff: dropOff, option: option.name,
                                      partySize: intent.partySize ?? 1, status: "confirmed", booked: Date()))
            return IntentResponse(code: .success, message: "Your \(option.name) arrives in \(option.minutes) minutes.",
                                  output: ["ride": option.name, "eta": "\(option.minutes) min", "to": dropOff])
        }
    }

    public struct GetRideStatusHandler: INGetRideStatusIntentHandling {
        public let store: Store
        public func handle(intent: INGetRideStatusIntent) async throws -> IntentResponse {
            guard let ride = await store.current else { return IntentResponse(code: .failure, message: "You don't have a ride booked.") }
            let minutes = MonkeyRide.options.first { $0.name == ride.option }?.minutes ?? 5
            let left = max(1, minutes - Int(Date().timeIntervalSince(ride.booked) / 60))
            return IntentResponse(code: .success, message: "Your \(ride.option) to \(ride.dropOff) is \(left) minutes away.",
                                  output: ["ride": ride.option, "eta": "\(left) min"])
        }
    }

    public struct ListRideOptionsHandler: INListRideOptionsIntentHandling {
        public let store: Store
        public func handle(intent: INListRideOptionsIntent) async throws -> IntentResponse {
            let lines = MonkeyRide.options.map { "\($0.name), \(INCurrencyAmount(amount: $0.price)), \($0.minutes) minutes away" }
            return IntentResponse(code: .success, message: lines.joined(separator: "; ") + ".",
                                  output: Dictionary(uniqueKeysWithValues: MonkeyRide.options.map { ($0.name, "\($0.price)") }))
        }
    }

    public struct CancelRideHandler: INCancelRideIntentHandling {
        public let store: Store
        public func confirm(intent: INCancelRideIntent) async throws -> IntentResponse {
            await store.current == nil ? IntentResponse(code: .failure, message: "You don't have a ride to cancel.") : IntentResponse(code: .ready)
        }
        public func handle(intent: INCancelRideIntent) async throws -> IntentResponse {
            try await store.updateLast { $0.status = "cancelled" }
            return IntentResponse(code: .success)
        }
    }

    public struct SendRideFeedbackHandler: INSendRideFeedbackIntentHandling {
        public let store: Store
        public func resolveRating(for intent: INSendRideFeedbackIntent) async throws -> Resolution<Int> {
            guard let rating = intent.rating else { return .needsValue }
            return (1...5).contains(rating) ? .success(with: rating) : .unsupported(reason: "Ratings go from one to five stars.")
        }
        public func handle(intent: INSendRideFeedbackIntent) async throws -> IntentResponse {
            guard await store.all.last != nil else { return IntentResponse(code: .failure, message: "You haven't taken a ride yet.") }
            let rating = intent.rating, tip = intent.tip?.description
            try await store.updateLast { ride in
                ride.rating = rating
                ride.tip = tip
                if ride.status == "confirmed" { ride.status = "completed" }
            }
            return IntentResponse(code: .success, output: ["rating": rating.map(String.init) ?? "", "tip": tip ?? ""])
        }
    }

    public static func handlers(_ store: Store) -> [String: any IntentHandler] {
        [
            "INRequestRideIntent": INRequestRideIntent.handler(RequestRideHandler(store: store)),
            "INGetRideStatusIntent": INGetRideStatusIntent.handler(GetRideStatusHandler(store: store)),
            "INListRideOptionsIntent": INListRideOptionsIntent.handler(ListRideOptionsHandler(store: store)),
            "INCancelRideIntent": INCancelRideIntent.handler(CancelRideHandler(store: store)),
            "INSendRideFeedbackIntent": INSendRideFeedbackIntent.handler(SendRideFeedbackHandler(store: store)),
        ]
    }
}
