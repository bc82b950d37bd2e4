import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a server listens or a satellite is: `tcp://HOST:PORT` or `unix://PATH`.
public enum WyomingAddress: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(path: String)

    /// Reads a URI such as `tcp://127.0.0.1:10700` or `unix:///run/hark.sock`.
    ///
    /// - Throws: ``WyomingError`` saying which forms are accepted.
    public init(uri: String) throws(WyomingError) {
        if uri.hasPrefix("unix://") {
            let path = String(uri.dropFirst("unix://".count))
            guard !path.isEmpty, path.utf8.count < 104 else {
                throw WyomingError(code: "bad-uri", "'\(uri)': a unix:// URI needs a socket path shorter than 104 bytes, e.g. unix:///run/hark/hark.sock")
            }
            self = .unix(path: path)
            return
        }
        guard uri.hasPrefix("tcp://") else {
            throw WyomingError(code: "bad-uri", "'\(uri)' is not tcp://HOST:PORT or unix://PATH (e.g. tcp://0.0.0.0:10700)")
        }
        let rest = uri.dropFirst("tcp://".count)
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]), (0...65535).contains(port) else {
            throw WyomingError(code: "bad-uri", "'\(uri)' has no port; write tcp://HOST:PORT with a port from 0 to 65535 (0 picks a free one)")
        }
        var host = String(rest[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw WyomingError(code: "bad-uri", "'\(uri)' has no host; e.g. tcp://127.0.0.1:10700") }
        self = .tcp(host: host, port: port)
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)"
        case .unix(let path): "unix://\(path)"
        }
    }
}

/// One client's socket, read and written with deadlines so a slow or
/// stalled peer can hold neither a thread nor memory for long. Owned by
/// one thread.
public final class WyomingConnection: @unchecked Sendable {
    let fd: Int32
    /// Who is at the other end (`127.0.0.1:53422`, `unix`).
    public let peer: String
    public let limits: WyomingLimits
    /// Seconds to wait for the next event (the limits' idle timeout, or forever for a satellite we dialled).
    public var idleTimeout: Double
    private var buffer: [UInt8] = []
    private var start = 0
    private var closed = false

    init(fd: Int32, peer: String, limits: WyomingLimits) {
        self.fd = fd
        self.peer = peer
        self.limits = limits
        self.idleTimeout = limits.idleTimeout
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close() }

    /// Closes the socket (once).
    public func close() {
        guard !closed else { return }
        closed = true
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
        _ = Glibc.close(fd)
    }

    /// Dials a Wyoming server or satellite.
    ///
    /// - Throws: ``WyomingError`` with the system's reason.
    public static func connect(to address: WyomingAddress, limits: WyomingLimits) throws(WyomingError) -> WyomingConnection {
        let (fd, peer) = try Socket.connect(address)
        return WyomingConnection(fd: fd, peer: peer, limits: limits)
    }

    private var available: Int { buffer.count - start }

    /// Waits until the socket is readable (or writable), or the deadline passes.
    private func wait(for events: Int16, until deadline: Double, what: String) throws(WyomingError) {
        while true {
            let remaining = deadline - Self.now()
            guard remaining > 0 else {
                throw WyomingError(code: "timeout", "\(peer): \(what) took longer than the limit; connection closed")
            }
            var pfd = pollfd(fd: fd, events: events, revents: 0)
            let ms = remaining.isFinite ? Int32(min(remaining * 1000, 60_000)) + 1 : 60_000
            let n = poll(&pfd, 1, ms)
            if n > 0 { return }
            if n < 0, errno != EINTR { throw WyomingError(code: "io", "\(peer): poll: \(String(cString: strerror(errno)))") }
        }
    }

    /// Reads more bytes; false at end of stream.
    private func fill(until deadline: Double, what: String) throws(WyomingError) -> Bool {
        if start > 65_536 {
            buffer.removeFirst(start)
            start = 0
        }
        while true {
            try wait(for: Int16(POLLIN), until: deadline, what: what)
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer += chunk[0..<n]
                return true
            }
            if n == 0 { return false }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
            throw WyomingError(code: "io", "\(peer): recv: \(String(cString: strerror(errno)))")
        }
    }

    private func take(_ count: Int) -> [UInt8] {
        let bytes = Array(buffer[start..<(start + count)])
        start += count
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 262_144)
            start = 0
        }
        return bytes
    }

    /// Reads the next event.
    ///
    /// - Returns: the event, or nil when the peer closed the connection between events.
    /// - Throws: ``WyomingError`` for a malformed or oversized event, a peer
    ///   that stops or trickles mid-event (``WyomingLimits/eventTimeout``) or stays
    ///   silent too long (``idleTimeout``).
    public func readEvent() throws(WyomingError) -> WyomingEvent? {
        if available == 0 {
            guard try fill(until: Self.now() + idleTimeout, what: "waiting for the next event") else { return nil }
        }
        let deadline = Self.now() + limits.eventTimeout
        // The header line.
        var scanned = 0
        var newline: Int?
        while newline == nil {
            if let index = buffer[(start + scanned)...].firstIndex(of: 0x0A) {
                newline = index
                break
            }
            scanned = available
            guard scanned <= limits.maxHeaderBytes else {
                throw WyomingError(code: "too-large", "\(peer): a header line longer than \(limits.maxHeaderBytes) bytes; connection closed")
            }
            guard try fill(until: deadline, what: "sending a header line") else {
                throw WyomingError(code: "truncated", "\(peer): the connection closed in the middle of a header line")
            }
        }
        let lineLength = newline! - start
        guard lineLength <= limits.maxHeaderBytes else {
            throw WyomingError(code: "too-large", "\(peer): a header line of \(lineLength) bytes is over the limit of \(limits.maxHeaderBytes)")
        }
        var line = take(lineLength)
        _ = take(1)
        if line.last == 0x0D { line.removeLast() }
        var header = try WyomingHeader.parse(line, limits: limits)
        let body = try readExactly(header.dataLength + header.payloadLength, deadline: deadline, type: header.type)
        if header.dataLength > 0 {
            try WyomingHeader.merge(Array(body[0..<header.dataLength]), into: &header.data, type: header.type)
        }
        return WyomingEvent(header.type, data: header.data, payload: Array(body[header.dataLength...]))
    }

    private func readExactly(_ count: Int, deadline: Double, type: String) throws(WyomingError) -> [UInt8] {
        while available < count {
            guard try fill(until: deadline, what: "sending the data and payload of '\(type)' (\(count) bytes)") else {
                throw WyomingError(code: "truncated", "\(peer): the connection closed after \(available) of the \(count) data and payload bytes its '\(type)' header announced")
            }
        }
        return take(count)
    }

    /// Writes events, waiting at most ``WyomingLimits/writeTimeout`` for a peer that does not read.
    ///
    /// - Throws: ``WyomingError`` when the peer is gone or too slow.
    public func write(_ events: [WyomingEvent]) throws(WyomingError) {
        var bytes: [UInt8] = []
        for event in events { bytes += event.encoded() }
        let deadline = Self.now() + limits.writeTimeout
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                sent += n
                continue
            }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try wait(for: Int16(POLLOUT), until: deadline, what: "reading what the server sent")
                continue
            }
            throw WyomingError(code: "io", "\(peer): send: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes one event.
    public func write(_ event: WyomingEvent) throws(WyomingError) { try write([event]) }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
