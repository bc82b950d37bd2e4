import Foundation

/// One Wyoming protocol event: a JSON header line (`type`, optional inline
/// `data`, `data_length`, `payload_length`, `version`), then `data_length`
/// bytes of JSON data merged into `data`, then `payload_length` bytes of
/// payload (audio). This is what PyPI's `wyoming` library reads and writes
/// (`wyoming/event.py`), including the older form with `data` inline in the
/// header.
public struct WyomingEvent: Sendable, Equatable {
    public var type: String
    public var data: [String: JSONValue]
    public var payload: [UInt8]

    public init(_ type: String, data: [String: JSONValue] = [:], payload: [UInt8] = []) {
        self.type = type
        self.data = data
        self.payload = payload
    }

    /// The protocol version written in each header (the python library's).
    public static let protocolVersion = "1.10.2"

    /// The event as bytes on the wire: header line, data, payload.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var header: [String: JSONValue] = ["type": .string(type), "version": .string(Self.protocolVersion)]
        var dataBytes: [UInt8] = []
        if !data.isEmpty {
            dataBytes = Array((try? encoder.encode(data)) ?? Data("{}".utf8))
            header["data_length"] = .int(dataBytes.count)
        }
        if !payload.isEmpty { header["payload_length"] = .int(payload.count) }
        var bytes = Array((try? encoder.encode(header)) ?? Data())
        bytes.append(0x0A)
        bytes += dataBytes
        bytes += payload
        return bytes
    }

    /// An `error` event.
    public static func error(_ text: String, code: String) -> WyomingEvent {
        WyomingEvent("error", data: ["text": .string(text), "code": .string(code)])
    }
}

/// What a server accepts from one client. Every limit turns a hostile or
/// broken client into an error event and a closed connection.
public struct WyomingLimits: Sendable, Equatable {
    /// Longest header line, in bytes (without the newline).
    public var maxHeaderBytes = 64 * 1024
    /// Largest `data_length`.
    public var maxDataBytes = 1024 * 1024
    /// Largest `payload_length` (one audio chunk).
    public var maxPayloadBytes = 4 * 1024 * 1024
    /// Audio rates accepted, in Hz.
    public var audioRates = 4_000...192_000
    /// Audio sample widths accepted, in bytes.
    public var audioWidths = 1...4
    /// Audio channel counts accepted.
    public var audioChannels = 1...16
    /// Longest audio one request may send (asr, or one utterance), in seconds.
    public var maxAudioSeconds = 60.0
    /// Longest synthesize text, in characters.
    public var maxTextCharacters = 4_000
    /// Seconds a client may take to send one whole event once it started it.
    public var eventTimeout = 10.0
    /// Seconds a client may stay silent between events.
    public var idleTimeout = 300.0
    /// Seconds a client may take to read what the server sends.
    public var writeTimeout = 10.0
    /// Connections served at once; more are closed at once with an error event.
    public var maxConnections = 64

    public init() {}
}

/// Why a client's bytes are not a Wyoming event, or why a connection ends.
public struct WyomingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A short machine-readable code, sent as the error event's `code`.
    public var code: String
    public var description: String

    public init(code: String, _ description: String) {
        self.code = code
        self.description = description
    }
}

/// Reads events from bytes already received: the header line, then data
/// and payload, each checked against ``WyomingLimits``.
public enum WyomingHeader {
    /// Parses one header line (without its newline).
    ///
    /// - Returns: the event's type, inline data, and the data and payload lengths to read next.
    /// - Throws: ``WyomingError`` naming what is wrong and where.
    public static func parse(_ line: [UInt8], limits: WyomingLimits) throws(WyomingError)
        -> (type: String, data: [String: JSONValue], dataLength: Int, payloadLength: Int) {
        let object: [String: JSONValue]
        do {
            object = try JSONDecoder().decode([String: JSONValue].self, from: Data(line))
        } catch {
            throw WyomingError(code: "malformed-header", "the header line is not a JSON object (\(line.count) bytes starting '\(preview(line))'); each event starts with one line of JSON such as {\"type\": \"describe\"}")
        }
        guard let type = object["type"]?.string, !type.isEmpty, type.count <= 100 else {
            throw WyomingError(code: "malformed-header", "the header line has no \"type\" string (or one longer than 100 characters): '\(preview(line))'")
        }
        var data: [String: JSONValue] = [:]
        if let inline = object["data"], inline != .null {
            guard let members = inline.object else {
                throw WyomingError(code: "malformed-header", "'\(type)' header: \"data\" must be a JSON object")
            }
            data = members
        }
        let dataLength = try length(object["data_length"], name: "data_length", type: type, max: limits.maxDataBytes)
        let payloadLength = try length(object["payload_length"], name: "payload_length", type: type, max: limits.maxPayloadBytes)
        return (type, data, dataLength, payloadLength)
    }

    /// Merges `data_length` bytes of JSON into inline data.
    public static func merge(_ bytes: [UInt8], into data: inout [String: JSONValue], type: String) throws(WyomingError) {
        guard let members = try? JSONDecoder().decode([String: JSONValue].self, from: Data(bytes)) else {
            throw WyomingError(code: "malformed-data", "'\(type)' event: its \(bytes.count) bytes of data are not a JSON object")
        }
        data.merge(members) { _, new in new }
    }

    private static func length(_ value: JSONValue?, name: String, type: String, max: Int) throws(WyomingError) -> Int {
        guard let value, value != .null else { return 0 }
        guard let n = value.int, n >= 0 else {
            throw WyomingError(code: "malformed-header", "'\(type)' header: \(name) must be a whole number of bytes, got \(value)")
        }
        guard n <= max else {
            throw WyomingError(code: "too-large", "'\(type)' header: \(name) \(n) is over the limit of \(max) bytes")
        }
        return n
    }

    static func preview(_ line: [UInt8]) -> String {
        String(decoding: line.prefix(60), as: UTF8.self).map { $0.isASCII && !$0.isNewline ? String($0) : "?" }.joined()
    }
}
