import Foundation
import HarkIntents

/// Whether Hark may talk to an app now: SiriKit's authorization and
/// locked-device rules.
public struct AccessPolicy: Sendable {
    /// Domains whose intents are refused while the device is locked, whatever
    /// the app says (as Siri does for payments and rides).
    public static let domainsRestrictedWhileLocked: Set<String> = ["Payments", "Ride Booking"]

    /// Whether the device is locked.
    public var locked: Bool

    public init(locked: Bool = false) {
        self.locked = locked
    }

    /// Why `intent` may not run now, or nil when it may.
    ///
    /// - Parameters:
    ///   - appRestricted: The app's `IntentsRestrictedWhileLocked`.
    ///   - authorized: Whether the person authorized the app.
    ///   - usageDescription: The app's `NSSiriUsageDescription`.
    public func refusal(app: String, intent: IntentDescription, appRestricted: [String], authorized: Bool,
                        usageDescription: String?) -> String? {
        if !authorized {
            let why = usageDescription.map { " \(app) says: \($0)" } ?? ""
            return "\(app) isn't allowed to work with Hark yet.\(why) To allow it, run: hark apps authorize \(app)"
        }
        if locked, Self.domainsRestrictedWhileLocked.contains(intent.domain) || appRestricted.contains(intent.name) {
            return "You'll need to unlock your device first."
        }
        return nil
    }
}
