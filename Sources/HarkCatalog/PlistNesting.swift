import Foundation

/// How deeply a property list nests arrays and dictionaries, found with a
/// cheap scan of the bytes *before* Foundation parses them: Foundation's
/// parsers recurse once per level, so 10,000 nested `<array>`s (150 KB)
/// overflow the stack and kill the process with no message.
enum PlistNesting {
    /// The deepest nesting of arrays and dictionaries a plist may use. Real
    /// `Info.plist` and vocabulary files use five or six levels.
    static let maximumDepth = 100

    /// Throws when `data` nests deeper than ``maximumDepth`` or, in a binary
    /// plist, when its object references form a cycle. Malformed files pass:
    /// the parser that follows reports them.
    static func check(_ data: Data, path: String) throws {
        let bytes = [UInt8](data)
        let depth: Int?
        if bytes.starts(with: Array("bplist00".utf8)) {
            depth = try binaryDepth(bytes, path: path)
        } else if let first = bytes.first(where: { !isSpaceOrBOM($0) }), first == UInt8(ascii: "<") {
            depth = xmlDepth(bytes)
        } else {
            depth = openStepDepth(bytes)
        }
        if let depth, depth > maximumDepth {
            throw CatalogError("\(path): arrays and dictionaries nested more than \(maximumDepth) levels deep; a property list Hark reads needs only a few levels, so the file is broken or hostile")
        }
    }

    private static func isSpaceOrBOM(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0xEF || b == 0xBB || b == 0xBF || b == 0xFE || b == 0xFF || b == 0
    }

    /// The deepest `<array>`/`<dict>` nesting, stopping once past the limit.
    static func xmlDepth(_ bytes: [UInt8]) -> Int {
        var depth = 0, deepest = 0
        var i = 0
        let n = bytes.count
        func matches(_ word: String, at start: Int) -> Bool {
            let w = Array(word.utf8)
            guard start + w.count <= n else { return false }
            return bytes[start..<start + w.count].elementsEqual(w)
        }
        while i < n {
            guard bytes[i] == UInt8(ascii: "<") else { i += 1; continue }
            if matches("<!--", at: i) {
                // Comments may hold anything; skip to their end.
                var j = i + 4
                while j < n, !matches("-->", at: j) { j += 1 }
                i = j + 3
                continue
            }
            let closing = i + 1 < n && bytes[i + 1] == UInt8(ascii: "/")
            let nameStart = closing ? i + 2 : i + 1
            var j = nameStart
            while j < n, bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: " "), bytes[j] != UInt8(ascii: "/") { j += 1 }
            let name = bytes[nameStart..<j]
            if name.elementsEqual("array".utf8) || name.elementsEqual("dict".utf8) {
                var end = j
                while end < n, bytes[end] != UInt8(ascii: ">") { end += 1 }
                let selfClosing = end > 0 && end < n && bytes[end - 1] == UInt8(ascii: "/")
                if closing {
                    depth = max(0, depth - 1)
                } else if !selfClosing {
                    depth += 1
                    deepest = max(deepest, depth)
                    if deepest > maximumDepth { return deepest }
                }
                i = end
            } else {
                i = j
            }
        }
        return deepest
    }

    /// The deepest `(`/`{` nesting of an old-style (OpenStep) plist or
    /// strings file, outside quoted strings and comments.
    static func openStepDepth(_ bytes: [UInt8]) -> Int {
        var depth = 0, deepest = 0
        var i = 0
        let n = bytes.count
        while i < n {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                i += 1
                while i < n, bytes[i] != UInt8(ascii: "\"") {
                    if bytes[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
            case UInt8(ascii: "/") where i + 1 < n && bytes[i + 1] == UInt8(ascii: "*"):
                i += 2
                while i + 1 < n, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i += 1
            case UInt8(ascii: "/") where i + 1 < n && bytes[i + 1] == UInt8(ascii: "/"):
                while i < n, bytes[i] != 0x0A { i += 1 }
            case UInt8(ascii: "("), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > maximumDepth { return deepest }
            case UInt8(ascii: ")"), UInt8(ascii: "}"):
                depth = max(0, depth - 1)
            default:
                break
            }
            i += 1
        }
        return deepest
    }

    /// The deepest nesting of containers in a binary plist, following object
    /// references from the top object; nil when the file is malformed (the
    /// decoder then says so).
    static func binaryDepth(_ bytes: [UInt8], path: String) throws -> Int? {
        let n = bytes.count
        guard n >= 8 + 32 else { return nil }
        let trailer = n - 32
        let offsetSize = Int(bytes[trailer + 6]), refSize = Int(bytes[trailer + 7])
        func integer(_ at: Int, _ size: Int) -> Int? {
            guard size >= 1, size <= 8, at >= 0, at + size <= n else { return nil }
            var v: UInt64 = 0
            for k in 0..<size { v = v << 8 | UInt64(bytes[at + k]) }
            return v > UInt64(Int.max) ? nil : Int(v)
        }
        guard let count = integer(trailer + 8, 8), let top = integer(trailer + 16, 8),
              let table = integer(trailer + 24, 8), count > 0, count < n, top < count,
              table >= 8, table + count * offsetSize <= trailer else { return nil }
        func offset(_ object: Int) -> Int? {
            guard object >= 0, object < count, let o = integer(table + object * offsetSize, offsetSize),
                  o >= 8, o < table else { return nil }
            return o
        }
        /// The objects a container refers to; empty for anything else.
        func children(_ object: Int) -> [Int]? {
            guard let o = offset(object) else { return nil }
            let marker = bytes[o] >> 4
            guard marker == 0xA || marker == 0xC || marker == 0xD else { return [] }
            var length = Int(bytes[o] & 0x0F)
            var start = o + 1
            if length == 0x0F {
                guard start < n, bytes[start] >> 4 == 0x1 else { return nil }
                let size = 1 << Int(bytes[start] & 0x0F)
                guard let l = integer(start + 1, size) else { return nil }
                length = l
                start += 1 + size
            }
            // A dictionary's length counts key-value pairs: twice as many references.
            // (A length near Int.max, as a hostile file can declare, must not overflow.)
            let (refs, overflow) = marker == 0xD ? length.multipliedReportingOverflow(by: 2) : (length, false)
            guard !overflow, refs <= count * 2, start + refs * refSize <= table else { return nil }
            var result: [Int] = []
            result.reserveCapacity(refs)
            for k in 0..<refs {
                guard let r = integer(start + k * refSize, refSize), r < count else { return nil }
                result.append(r)
            }
            return result
        }
        // Iterative depth-first walk: depth[x] once every child is done;
        // meeting an object still on the path is a cycle.
        var depth = [Int](repeating: -1, count: count)
        var onPath = [Bool](repeating: false, count: count)
        var stack: [(object: Int, children: [Int], next: Int)] = []
        guard let rootChildren = children(top) else { return nil }
        stack.append((top, rootChildren, 0))
        onPath[top] = true
        while !stack.isEmpty {
            let last = stack.count - 1
            if stack[last].next < stack[last].children.count {
                let child = stack[last].children[stack[last].next]
                stack[last].next += 1
                if depth[child] >= 0 { continue }
                if onPath[child] {
                    throw CatalogError("\(path): the binary property list refers back to an object that contains it (a cycle); the file is broken or hostile")
                }
                guard let grandchildren = children(child) else { return nil }
                if stack.count > maximumDepth { return stack.count + 1 }
                onPath[child] = true
                stack.append((child, grandchildren, 0))
            } else {
                let done = stack.removeLast()
                onPath[done.object] = false
                depth[done.object] = 1 + (done.children.map { depth[$0] }.max() ?? 0)
            }
        }
        return depth[top]
    }
}
