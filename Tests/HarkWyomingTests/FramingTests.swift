import Testing
@testable import HarkWyoming

@Suite("Wyoming framing")
struct FramingTests {
    @Test("a header with data_length and payload_length reads back as written")
    func roundTrip() throws {
        let event = WyomingEvent("audio-chunk", data: ["rate": 16000, "width": 2, "channels": 1], payload: [1, 2, 3, 4])
        let bytes = event.encoded()
        let newline = try #require(bytes.firstIndex(of: 0x0A))
        var header = try WyomingHeader.parse(Array(bytes[..<newline]), limits: WyomingLimits())
        #expect(header.type == "audio-chunk")
        #expect(header.payloadLength == 4)
        let data = Array(bytes[(newline + 1)..<(newline + 1 + header.dataLength)])
        try WyomingHeader.merge(data, into: &header.data, type: header.type)
        #expect(header.data == event.data)
        #expect(Array(bytes.suffix(4)) == [1, 2, 3, 4])
    }

    @Test("the older form with data inline in the header is read")
    func inlineData() throws {
        let header = try WyomingHeader.parse(Array(#"{"type": "recognize", "data": {"text": "hi"}}"#.utf8), limits: WyomingLimits())
        #expect(header.data["text"] == "hi")
        #expect(header.dataLength == 0)
    }

    @Test("lengths that lie or claim gigabytes are refused before any byte is read", arguments: [
        #"{"type": "audio-chunk", "payload_length": 5000000000}"#,
        #"{"type": "audio-chunk", "data_length": -3}"#,
        #"{"type": "audio-chunk", "data_length": "ten"}"#,
        #"not json"#,
        #"{"data": {}}"#,
    ])
    func refused(line: String) {
        #expect(throws: WyomingError.self) { try WyomingHeader.parse(Array(line.utf8), limits: WyomingLimits()) }
    }

    @Test("URIs: tcp with a port, unix with a path; anything else is refused with the forms accepted")
    func uris() throws {
        #expect(try WyomingAddress(uri: "tcp://127.0.0.1:10700") == .tcp(host: "127.0.0.1", port: 10700))
        #expect(try WyomingAddress(uri: "unix:///run/hark.sock") == .unix(path: "/run/hark.sock"))
        let error = #expect(throws: WyomingError.self) { try WyomingAddress(uri: "http://x:1") }
        #expect(error?.description.contains("tcp://HOST:PORT") == true)
    }
}
