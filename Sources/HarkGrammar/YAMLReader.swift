import CYAML
import HarkText

/// Reads a YAML document into a ``YAMLNode`` tree with libyaml's event
/// parser: block and flow style, plain, quoted, literal (`|`) and folded
/// (`>`) scalars, comments, anchors and aliases (`&a`, `*a`, and `<<: *a`
/// merges), LF, CRLF or CR line ends. Every error names the file, line and
/// column (libyaml's marks, 1-based here).
///
/// Bounded: collections nest at most ``maximumDepth`` levels, and the tree
/// with every alias expanded holds at most ``maximumNodes`` nodes, so a
/// "billion laughs" file of aliases to aliases is an error, not gigabytes.
enum YAMLReader {
    /// The deepest nesting of mappings and sequences. A Rhino context uses
    /// four levels.
    static let maximumDepth = 64
    /// The most nodes the document may have once aliases are expanded.
    static let maximumNodes = 200_000

    /// A collection being read.
    private struct Frame {
        var isMapping: Bool
        var position: YAMLPosition
        var anchor: String?
        var items: [YAMLNode] = []
        var entries: [YAMLNode.Entry] = []
        /// A mapping's key waiting for its value.
        var pendingKey: (key: String, position: YAMLPosition)?
        /// Keys merged in with `<<`, which the mapping's own keys override.
        var merged: [YAMLNode.Entry] = []
        /// Nodes under this collection, aliases expanded.
        var nodeCount = 1
    }

    static func parse(_ text: String, path: String) throws(GrammarError) -> YAMLNode {
        var bytes = Array(text.utf8)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            throw GrammarError(.syntax("cannot start the YAML parser (out of memory)"), at: SourceLocation(file: path, line: 1, column: 1))
        }
        defer { yaml_parser_delete(&parser) }
        return try bytes.withUnsafeMutableBufferPointer { buffer throws(GrammarError) -> YAMLNode in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var reader = Builder(path: path)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) != 0 else {
                    throw reader.libyamlError(parser, text: buffer)
                }
                defer { yaml_event_delete(&event) }
                if try reader.take(event) { break }
            }
            guard let root = reader.root else {
                throw GrammarError(.syntax("the file is empty; expected 'context:'"), at: SourceLocation(file: path, line: 1, column: 1))
            }
            return root
        }
    }

    private struct Builder {
        let path: String
        var stack: [Frame] = []
        var anchors: [String: (node: YAMLNode, count: Int)] = [:]
        var root: YAMLNode?
        var documents = 0
        var totalNodes = 0

        init(path: String) { self.path = path }

        func position(_ mark: yaml_mark_t) -> YAMLPosition {
            YAMLPosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
        }

        func error(_ message: String, _ position: YAMLPosition) -> GrammarError {
            GrammarError(.syntax(message), at: SourceLocation(file: path, line: position.line, column: position.column))
        }

        /// libyaml's report, with a hint for the mistakes Rhino files make.
        func libyamlError(_ parser: yaml_parser_t, text bytes: UnsafeMutableBufferPointer<UInt8>) -> GrammarError {
            let problem = parser.problem.map { String(cString: $0) } ?? "cannot read the YAML"
            let context = parser.context.map { String(cString: $0) }
            if parser.error == YAML_READER_ERROR {
                // The reader reports a byte offset: find its line and column.
                let offset = min(Int(parser.problem_offset), bytes.count)
                var line = 1, column = 1, i = 0
                while i < offset {
                    if bytes[i] == 0x0A || (bytes[i] == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
                        line += 1
                        column = 1
                    } else if bytes[i] & 0xC0 != 0x80 {
                        column += 1
                    }
                    i += 1
                }
                let found = offset < bytes.count ? " (\(escapingControlCharacters(String(decoding: [bytes[offset]], as: UTF8.self))))" : ""
                return error("YAML: \(problem)\(found); remove it, or write it as an escape in a double-quoted string",
                             YAMLPosition(line: line, column: column))
            }
            let at = position(parser.problem_mark)
            let index = Int(parser.problem_mark.index)
            let byte: UInt8? = index < bytes.count ? bytes[index] : nil
            if context?.contains("quoted scalar") == true, problem.contains("end of stream") {
                return error("unterminated string: the quote is never closed", position(parser.context_mark))
            }
            if byte == UInt8(ascii: "\t") {
                return error("tabs cannot indent YAML; use spaces", at)
            }
            if let byte, byte == UInt8(ascii: "@") || byte == UInt8(ascii: "`") {
                return error("a plain string cannot start with '\(Character(Unicode.Scalar(byte)))' in YAML; quote it", at)
            }
            var message = "YAML: \(problem)" + (context.map { " \($0) (line \(parser.context_mark.line + 1))" } ?? "")
            // The line in question: a Rhino expression left unquoted reads as YAML syntax.
            var start = min(index, bytes.count), end = start
            while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            if bytes[start..<end].contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: "$") }) {
                message += "; quote Rhino expressions (\"[a, b] c\") so YAML reads them as strings"
            }
            return error(message, at)
        }

        static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        }

        /// Takes one event; true at the end of the stream.
        mutating func take(_ event: yaml_event_t) throws(GrammarError) -> Bool {
            let at = position(event.start_mark)
            switch event.type {
            case YAML_STREAM_START_EVENT, YAML_DOCUMENT_END_EVENT, YAML_NO_EVENT:
                return false
            case YAML_STREAM_END_EVENT:
                return true
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 { throw error("only one YAML document is supported", at) }
                return false
            case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
                guard stack.count < maximumDepth else {
                    throw error("mappings and lists nested more than \(maximumDepth) levels deep; a Rhino context needs four", at)
                }
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let anchor = isMapping ? Self.string(event.data.mapping_start.anchor) : Self.string(event.data.sequence_start.anchor)
                try count(1, at)
                stack.append(Frame(isMapping: isMapping, position: at, anchor: anchor))
                return false
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                let frame = stack.removeLast()
                if let pending = frame.pendingKey {
                    throw error("the key '\(pending.key)' has no value", pending.position)
                }
                var entries = frame.entries
                for entry in frame.merged where !entries.contains(where: { $0.key == entry.key }) {
                    entries.append(entry)
                }
                let node: YAMLNode = frame.isMapping ? .mapping(entries, frame.position) : .sequence(frame.items, frame.position)
                if let anchor = frame.anchor { anchors[anchor] = (node, frame.nodeCount) }
                try add(node, count: frame.nodeCount, at)
                return false
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let value = scalar.value.map {
                    String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self)
                } ?? ""
                var valueAt = at
                // Quoted strings: point at their first character, inside the quote.
                if scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE || scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE {
                    valueAt.column += 1
                }
                let isNull = scalar.style == YAML_PLAIN_SCALAR_STYLE && ["", "~", "null", "Null", "NULL"].contains(value)
                let node: YAMLNode = isNull ? .null(at) : .scalar(value, valueAt)
                if let anchor = Self.string(scalar.anchor) { anchors[anchor] = (node, 1) }
                try count(1, at)
                try add(node, count: 1, at)
                return false
            case YAML_ALIAS_EVENT:
                let name = Self.string(event.data.alias.anchor) ?? ""
                guard let (node, nodes) = anchors[name] else {
                    throw error("unknown alias '*\(name)'; define '&\(name)' before using it", at)
                }
                // Each use copies the anchored tree: count it again, so
                // aliases of aliases cannot multiply without bound.
                try count(nodes, at)
                try add(node, count: nodes, at, isAlias: true)
                return false
            default:
                return false
            }
        }

        mutating func count(_ nodes: Int, _ at: YAMLPosition) throws(GrammarError) {
            totalNodes += nodes
            if totalNodes > maximumNodes {
                throw error("the document expands to more than \(maximumNodes) values (aliases of aliases multiply); use fewer aliases", at)
            }
        }

        /// Adds a finished node to the collection being read, or makes it the document.
        mutating func add(_ node: YAMLNode, count: Int, _ at: YAMLPosition, isAlias: Bool = false) throws(GrammarError) {
            guard !stack.isEmpty else {
                root = node
                return
            }
            let top = stack.count - 1
            stack[top].nodeCount += count
            if !stack[top].isMapping {
                stack[top].items.append(node)
                return
            }
            guard let (key, keyAt) = stack[top].pendingKey else {
                // A key.
                switch node {
                case .scalar(let s, let p): stack[top].pendingKey = (s, isAlias ? at : p)
                case .null(let p): stack[top].pendingKey = ("", isAlias ? at : p)
                case .sequence, .mapping:
                    throw error("a mapping key must be a string, not a list or mapping", node.position)
                }
                return
            }
            stack[top].pendingKey = nil
            if key == "<<" {
                // A merge: the entries of the mapping(s) named.
                let sources: [YAMLNode]
                switch node {
                case .mapping: sources = [node]
                case .sequence(let items, _): sources = items
                default: throw error("'<<' merges a mapping (<<: *name); found a string", keyAt)
                }
                for source in sources {
                    guard case .mapping(let entries, _) = source else {
                        throw error("'<<' merges mappings; found something else", keyAt)
                    }
                    for entry in entries where !stack[top].merged.contains(where: { $0.key == entry.key }) {
                        stack[top].merged.append(entry)
                    }
                }
                return
            }
            if stack[top].entries.contains(where: { $0.key == key }) {
                throw error("'\(key)' appears twice in this mapping", keyAt)
            }
            stack[top].entries.append(YAMLNode.Entry(key: key, value: node, position: keyAt))
        }
    }
}
