import Foundation
import HarkVisualCode
import Testing

@Suite("Visual codes")
struct VisualCodeTests {
    @Test("a short text is a version 1 QR code with its three finder patterns")
    func finderPatterns() throws {
        let code = try QRCode("hello")
        #expect(code.width == 21)
        for (x0, y0) in [(0, 0), (14, 0), (0, 14)] {
            // The 7×7 finder: dark ring, light ring, dark 3×3 centre.
            #expect(code[x: x0, y: y0] && code[x: x0 + 6, y: y0 + 6] && code[x: x0 + 3, y: y0 + 3])
            #expect(!code[x: x0 + 1, y: y0 + 1])
        }
        let lines = code.terminal.split(separator: "\n")
        #expect(lines.count == (21 + 8 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == 29 })
    }

    @Test("the PNG is 8-bit grayscale with stored deflate blocks holding the modules")
    func png() throws {
        let code = try QRCode("monkeypay://pay?to=me")
        let png = [UInt8](code.png(scale: 2))
        #expect(Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be32(_ i: Int) -> Int { Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3]) }
        #expect(String(decoding: png[12..<16], as: UTF8.self) == "IHDR")
        let side = (code.width + 8) * 2
        #expect(be32(16) == side && be32(20) == side)
        #expect(png[24] == 8 && png[25] == 0)
        // IDAT follows IHDR (13 bytes + CRC): zlib header, then stored blocks.
        let idat = 8 + 8 + 13 + 4
        #expect(String(decoding: png[idat + 4..<idat + 8], as: UTF8.self) == "IDAT")
        var at = idat + 8 + 2
        var raw: [UInt8] = []
        while true {
            let final = png[at] & 1
            let count = Int(png[at + 1]) | Int(png[at + 2]) << 8
            #expect(count == (~(Int(png[at + 3]) | Int(png[at + 4]) << 8) & 0xFFFF))
            raw += png[at + 5..<at + 5 + count]
            at += 5 + count
            if final == 1 { break }
        }
        #expect(raw.count == side * (side + 1))
        // The quiet zone is light; module (0, 0), 4 modules × 2 pixels in, is dark.
        func pixel(_ x: Int, _ y: Int) -> UInt8 { raw[y * (side + 1) + 1 + x] }
        #expect(pixel(0, 0) == 255)
        #expect(pixel(8, 8) == 0)
        #expect(pixel(8 + 2 * 1, 8 + 2 * 1) == 255) // module (1, 1): the finder's light ring
        #expect(pixel(8 + 2 * 3 + 1, 8 + 2 * 3 + 1) == 0) // module (3, 3): its dark centre
    }

    @Test("MonkeyPay shows a payment code and saves it as a PNG")
    func monkeyPayCode() throws {
        let converse = try Converse()
        let turn = try #require(try converse.run(["show my payment code in MonkeyPay"]).first)
        #expect(turn.intent == "INGetVisualCodeIntent")
        #expect(turn.code == "success")
        #expect(turn.output?["visualCode"] == "monkeypay://pay?to=me&type=sendPayment")
        let path = try #require(turn.output?["image"])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let text = try runHark(["converse", "--apps", converse.apps.path, "--data-dir", converse.data.path],
                               input: "show my contact code in MonkeyPay\n")
        #expect(text.out.contains("▄▄▄▄▄"))
    }
}
