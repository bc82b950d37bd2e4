import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The POSIX socket calls, converted to ``WyomingError`` once, here.
enum Socket {
    static func failure(_ call: String, _ address: WyomingAddress) -> WyomingError {
        WyomingError(code: "io", "\(call) \(address): \(String(cString: strerror(errno)))")
    }

    static func resolve(host: String, port: Int) throws(WyomingError) -> (family: Int32, address: [UInt8]) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            throw WyomingError(code: "bad-uri", "cannot resolve host '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(result) }
        let bytes = Array(UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        return (first.pointee.ai_family, bytes)
    }

    static func unixAddress(_ path: String) -> [UInt8] {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// A listening socket and the address it is bound to (with the real port when 0 was asked).
    static func listen(_ address: WyomingAddress) throws(WyomingError) -> (fd: Int32, bound: WyomingAddress) {
        let family: Int32
        let bytes: [UInt8]
        switch address {
        case .tcp(let host, let port): (family, bytes) = try resolve(host: host, port: port)
        case .unix(let path):
            family = AF_UNIX
            bytes = unixAddress(path)
            var info = stat()
            if lstat(path, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                    throw WyomingError(code: "bad-uri", "\(address): '\(path)' exists and is not a socket; choose another path")
                }
                unlink(path)  // a stale socket from an earlier run
            }
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket", address) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let status = bytes.withUnsafeBytes { bind(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count)) }
        guard status == 0 else {
            let error = failure("bind", address)
            Glibc.close(fd)
            throw error
        }
        guard Glibc.listen(fd, 128) == 0 else {
            let error = failure("listen", address)
            Glibc.close(fd)
            throw error
        }
        var bound = address
        if case .tcp(let host, 0) = address {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
            }
            bound = .tcp(host: host, port: port(of: storage))
        }
        return (fd, bound)
    }

    static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        return withUnsafeBytes(of: &storage) { raw in
            // sin_port and sin6_port sit at the same offset, in network order.
            Int(raw[2]) << 8 | Int(raw[3])
        }
    }

    static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        if Int32(storage.ss_family) == AF_UNIX { return "unix" }
        let status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard status == 0 else { return "?" }
        return "\(String(cString: host)):\(port(of: storage))"
    }

    static func accept(_ fd: Int32) -> (fd: Int32, peer: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(fd, $0, &length) }
        }
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        return (client, describe(storage))
    }

    static func connect(_ address: WyomingAddress) throws(WyomingError) -> (fd: Int32, peer: String) {
        let family: Int32
        let bytes: [UInt8]
        switch address {
        case .tcp(let host, let port): (family, bytes) = try resolve(host: host, port: port)
        case .unix(let path): (family, bytes) = (AF_UNIX, unixAddress(path))
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket", address) }
        let status = bytes.withUnsafeBytes { Glibc.connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count)) }
        guard status == 0 else {
            let error = failure("connect", address)
            Glibc.close(fd)
            throw error
        }
        return (fd, address.description)
    }
}

/// A Wyoming server: accepts clients on one address and serves each on its
/// own thread with `serve`, at most ``WyomingLimits/maxConnections`` at once
/// (a client beyond that gets an error event and a closed connection).
public final class WyomingServer: Sendable {
    public let limits: WyomingLimits
    /// The address actually bound (the real port when 0 was asked).
    public let address: WyomingAddress
    private let fd: Int32
    private let logger: Logger
    private let active = Mutex(0)
    private let serve: @Sendable (WyomingConnection) -> Void

    /// Binds and listens on `address`.
    ///
    /// - Parameters:
    ///   - serve: Serves one connection until it ends; runs on the connection's own thread.
    /// - Throws: ``WyomingError`` when the address cannot be bound.
    public init(address: WyomingAddress, limits: WyomingLimits, logger: Logger,
                serve: @escaping @Sendable (WyomingConnection) -> Void) throws(WyomingError) {
        (fd, self.address) = try Socket.listen(address)
        self.limits = limits
        self.logger = logger
        self.serve = serve
    }

    /// Clients being served now.
    public var connections: Int { active.withLock { $0 } }

    /// Accepts clients forever, on the calling thread.
    public func acceptForever() {
        while true {
            guard let (client, peer) = Socket.accept(fd) else {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    logger.error("accept failed; pausing", metadata: ["error": "\(String(cString: strerror(errno)))"])
                    usleep(100_000)
                }
                continue
            }
            let connection = WyomingConnection(fd: client, peer: peer, limits: limits)
            let admitted = active.withLock { count in
                guard count < limits.maxConnections else { return false }
                count += 1
                return true
            }
            guard admitted else {
                logger.warning("too many connections; refused", metadata: ["wyoming.peer": "\(peer)"])
                try? connection.write(.error("hark serve is already serving \(limits.maxConnections) connections; try again later", code: "busy"))
                connection.close()
                continue
            }
            let thread = Thread { [self] in
                serve(connection)
                connection.close()
                active.withLock { $0 -= 1 }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Accepts clients on a thread of its own; returns at once.
    public func start() {
        let thread = Thread { [self] in acceptForever() }
        thread.start()
    }
}

/// Runs async work from a connection's thread and waits for it (the
/// connection threads are not the cooperative pool's, so waiting is safe).
public func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let box = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result: Result<T, any Error>
        do { result = .success(try await work()) } catch { result = .failure(error) }
        box.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return try box.withLock { $0! }.get()
}
