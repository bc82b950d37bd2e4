import Foundation
import HarkCatalog
import HarkEngine
import HarkIntents
import HarkVisualCode

/// MonkeyPay, the payments sample app: accounts with balances, payments,
/// requests and transfers. Confirm checks the balance, so a payment above
/// it fails before anything is sent, with the reason.
public enum MonkeyPay {
    public static let appName = "MonkeyPay"
    public static let group = "group.com.example.monkeypay"
    public static let contacts = ["Bobo", "Bobo the Great", "Bobo Jr.", "Little Bobo", "Zuzu", "Kiki"]

    public struct Account: Codable, Sendable, Equatable {
        public var nickname: String
        public var type: String
        public var balance: Decimal
    }

    public struct Payment: Codable, Sendable, Equatable {
        /// `sent`, `requested`, `transfer`.
        public var kind: String
        public var counterpart: String
        public var amount: Decimal
        public var currencyCode: String
        public var note: String?
        public var date: Date
    }

    public struct Ledger: Codable, Sendable, Equatable {
        public var accounts: [Account]
        public var payments: [Payment]
    }

    public static let initial = Ledger(accounts: [
        Account(nickname: "Checking", type: "checking", balance: 100),
        Account(nickname: "Savings", type: "savings", balance: 500),
        Account(nickname: "Banana Fund", type: "investment", balance: 42),
    ], payments: [])

    public actor Store {
        let ledger: JSONDocument<Ledger>
        public let container: AppGroupContainer

        public init(container: AppGroupContainer) throws {
            self.container = container
            ledger = try JSONDocument(url: container.url.appendingPathComponent("ledger.json"), initial: MonkeyPay.initial)
        }

        public var accounts: [Account] { get async { await ledger.value.accounts } }
        public var payments: [Payment] { get async { await ledger.value.payments } }

        /// Where payments come from.
        var spending: Account { get async { await ledger.value.accounts[0] } }

        func record(_ payment: Payment, debit account: String?, credit other: String? = nil) async throws -> Bool {
            try await ledger.update { ledger in
                if let account, let i = ledger.accounts.firstIndex(where: { $0.nickname == account }) {
                    guard ledger.accounts[i].balance >= payment.amount else { return false }
                    ledger.accounts[i].balance -= payment.amount
                }
                if let other, let j = ledger.accounts.firstIndex(where: { $0.nickname == other }) {
                    ledger.accounts[j].balance += payment.amount
                }
                ledger.payments.append(payment)
                return true
            }
        }
    }

    static func money(_ amount: Decimal) -> String { INCurrencyAmount(amount: amount).description }

    static func resolvePerson(_ person: INPerson?) -> Resolution<INPerson> {
        guard let person else { return .needsValue }
        return NameMatch.resolve(person.displayName, among: contacts, none: "\(person.displayName) isn't one of your MonkeyPay contacts.")
            .map { INPerson(displayName: $0, identifier: $0) }
    }

    static func resolveAmount(_ amount: INCurrencyAmount?) -> Resolution<INCurrencyAmount> {
        guard let amount else { return .needsValue }
        guard amount.currencyCode == "USD" else { return .unsupported(reason: "MonkeyPay only works in dollars.") }
        guard amount.amount > 0 else { return .unsupported(reason: "The amount has to be more than zero.") }
        return .success(with: amount)
    }

    public struct SendPaymentHandler: INSendPaymentIntentHandling {
        public let store: Store
        public func resolvePayee(for intent: INSendPaymentIntent) async throws -> Resolution<INPerson> { MonkeyPay.resolvePerson(intent.payee) }
        public func resolveCurrencyAmount(for intent: INSendPaymentIntent) async throws -> Resolution<INCurrencyAmount> {
            MonkeyPay.resolveAmount(intent.currencyAmount)
        }

        /// The balance check: a payment above it fails here, before the
        /// person is asked to confirm, with the reason.
        public func confirm(intent: INSendPaymentIntent) async throws -> IntentResponse {
            guard let amount = intent.currencyAmount else { return IntentResponse(code: .failure) }
            let account = await store.spending
            guard account.balance >= amount.amount else {
                return IntentResponse(code: .failure,
                                      message: "You can't send \(amount): your \(account.nickname) balance is only \(MonkeyPay.money(account.balance)).",
                                      output: ["balance": "\(account.balance)"])
            }
            return IntentResponse(code: .ready, output: ["balance": "\(account.balance)"])
        }

        public func handle(intent: INSendPaymentIntent) async throws -> IntentResponse {
            guard let payee = intent.payee, let amount = intent.currencyAmount else { return IntentResponse(code: .failure) }
            let account = await store.spending
            let paid = try await store.record(Payment(kind: "sent", counterpart: payee.displayName, amount: amount.amount,
                                                      currencyCode: amount.currencyCode, note: intent.note, date: Date()),
                                              debit: account.nickname)
            guard paid else { return IntentResponse(code: .failure, message: "Your balance changed; the payment wasn't sent.") }
            return IntentResponse(code: .success, output: ["payee": payee.displayName, "amount": amount.description])
        }
    }

    public struct RequestPaymentHandler: INRequestPaymentIntentHandling {
        public let store: Store
        public func resolvePayer(for intent: INRequestPaymentIntent) async throws -> Resolution<INPerson> { MonkeyPay.resolvePerson(intent.payer) }
        public func resolveCurrencyAmount(for intent: INRequestPaymentIntent) async throws -> Resolution<INCurrencyAmount> {
            MonkeyPay.resolveAmount(intent.currencyAmount)
        }
        public func handle(intent: INRequestPaymentIntent) async throws -> IntentResponse {
            guard let payer = intent.payer, let amount = intent.currencyAmount else { return IntentResponse(code: .failure) }
            _ = try await store.record(Payment(kind: "requested", counterpart: payer.displayName, amount: amount.amount,
                                               currencyCode: amount.currencyCode, note: intent.note, date: Date()), debit: nil)
            return IntentResponse(code: .success, output: ["payer": payer.displayName, "amount": amount.description])
        }
    }

    public struct SearchForAccountsHandler: INSearchForAccountsIntentHandling {
        public let store: Store
        public func resolveAccountNickname(for intent: INSearchForAccountsIntent) async throws -> Resolution<String> {
            guard let name = intent.accountNickname else { return .notRequired }
            return NameMatch.resolve(name, among: await store.accounts.map(\.nickname), none: "You have no \(name) account.")
        }
        public func handle(intent: INSearchForAccountsIntent) async throws -> IntentResponse {
            var accounts = await store.accounts
            if let name = intent.accountNickname { accounts = accounts.filter { $0.nickname == name } }
            if let type = intent.accountType { accounts = accounts.filter { $0.type == type.rawValue } }
            guard !accounts.isEmpty else { return IntentResponse(code: .failure, message: "You have no account like that.") }
            let lines = accounts.map { "\($0.nickname): \(MonkeyPay.money($0.balance))" }
            return IntentResponse(code: .success, message: lines.joined(separator: "; ") + ".",
                                  output: Dictionary(uniqueKeysWithValues: accounts.map { ($0.nickname, "\($0.balance)") }))
        }
    }

    public struct TransferMoneyHandler: INTransferMoneyIntentHandling {
        public let store: Store
        func resolveAccount(_ name: String?) async -> Resolution<String> {
            guard let name else { return .needsValue }
            return NameMatch.resolve(name, among: await store.accounts.map(\.nickname), none: "You have no \(name) account.")
        }
        public func resolveFromAccount(for intent: INTransferMoneyIntent) async throws -> Resolution<String> { await resolveAccount(intent.fromAccount) }
        public func resolveToAccount(for intent: INTransferMoneyIntent) async throws -> Resolution<String> {
            if let to = intent.toAccount, to == intent.fromAccount { return .unsupported(reason: "That's the same account.") }
            return await resolveAccount(intent.toAccount)
        }
        public func resolveTransactionAmount(for intent: INTransferMoneyIntent) async throws -> Resolution<INCurrencyAmount> {
            MonkeyPay.resolveAmount(intent.transactionAmount)
        }
        public func confirm(intent: INTransferMoneyIntent) async throws -> IntentResponse {
            guard let amount = intent.transactionAmount, let from = intent.fromAccount,
                  let account = await store.accounts.first(where: { $0.nickname == from }) else { return IntentResponse(code: .failure) }
            guard account.balance >= amount.amount else {
                return IntentResponse(code: .failure, message: "You can't move \(amount): \(from) only has \(MonkeyPay.money(account.balance)).")
            }
            return IntentResponse(code: .ready)
        }
        public func handle(intent: INTransferMoneyIntent) async throws -> IntentResponse {
            guard let amount = intent.transactionAmount, let from = intent.fromAccount, let to = intent.toAccount else {
                return IntentResponse(code: .failure)
            }
            let done = try await store.record(Payment(kind: "transfer", counterpart: to, amount: amount.amount,
                                                      currencyCode: amount.currencyCode, note: nil, date: Date()), debit: from, credit: to)
            return IntentResponse(code: done ? .success : .failure)
        }
    }

    /// Shows the person's MonkeyPay code: a QR code others scan to pay
    /// them (or to add them as a contact), saved as a PNG in the app's
    /// container and drawn in the terminal by the CLI from `visualCode`.
    public struct GetVisualCodeHandler: INGetVisualCodeIntentHandling {
        public let store: Store

        public func resolveVisualCodeType(for intent: INGetVisualCodeIntent) async throws -> Resolution<INVisualCodeType> {
            switch intent.visualCodeType {
            case nil: return .success(with: .requestPayment)
            case .requestPayment?, .sendPayment?, .contact?: return .success(with: intent.visualCodeType!)
            case let other?: return .unsupported(reason: "MonkeyPay has no \(other.spokenName) code; it has payment and contact codes.")
            }
        }

        public func handle(intent: INGetVisualCodeIntent) async throws -> IntentResponse {
            let type = intent.visualCodeType ?? .requestPayment
            let payload = type == .contact
                ? "MECARD:N:MonkeyPay user;URL:monkeypay://contact/me;;"
                : "monkeypay://pay?to=me&type=\(type.rawValue)"
            let code = try QRCode(payload)
            let folder = store.container.url.appendingPathComponent("codes", isDirectory: true)
            try DataFolder.create(folder)
            let path = folder.appendingPathComponent("\(type.rawValue).png").path
            try code.writePNG(to: path)
            return IntentResponse(code: .success, message: "It's on your screen, and saved as \(path).",
                                  output: ["visualCode": payload, "image": path])
        }
    }

    public static func handlers(_ store: Store) -> [String: any IntentHandler] {
        [
            "INSendPaymentIntent": INSendPaymentIntent.handler(SendPaymentHandler(store: store)),
            "INRequestPaymentIntent": INRequestPaymentIntent.handler(RequestPaymentHandler(store: store)),
            "INSearchForAccountsIntent": INSearchForAccountsIntent.handler(SearchForAccountsHandler(store: store)),
            "INTransferMoneyIntent": INTransferMoneyIntent.handler(TransferMoneyHandler(store: store)),
            "INGetVisualCodeIntent": INGetVisualCodeIntent.handler(GetVisualCodeHandler(store: store)),
        ]
    }
}
