import Foundation
import HarkCatalog
import Testing

@Suite("An app's own card templates (HarkCardTemplates)")
struct CardTemplateTests {
    @Test("placeholders are filled; a line whose placeholder has no value is left out")
    func render() throws {
        let template = try CardTemplate("💬 To {recipients}\n“{content}”\nsent at {output.time}")
        let values = ["recipients": "Bobo", "content": "more bananas"]
        #expect(template.render { values[$0] } == "💬 To Bobo\n“more bananas”")
        #expect(template.render { _ in nil } == "")
    }

    @Test("an unclosed or empty placeholder is an error naming the line", arguments: [
        ("To {recipients", "line 1: '{' without a closing '}'"),
        ("ok\nfor {}", "line 2: an empty placeholder '{}'"),
    ])
    func malformed(text: String, message: String) {
        #expect(errorText { _ = try CardTemplate(text) } == message)
    }

    @Test("Info.plist: templates are read per intent; one for an intent the app does not support, or malformed, names the key path")
    func plist() throws {
        let url = try temporaryDirectory().appendingPathComponent("Info.plist")
        try writePlist(["CFBundleName": "MonkeyChat", "IntentsSupported": ["INSendMessageIntent"],
                        "HarkCardTemplates": ["INSendMessageIntent": "To {recipients}"]], to: url, format: .binary)
        let info = try AppInfo(contentsOf: url.path)
        #expect(info.cardTemplates["INSendMessageIntent"]?.render { $0 == "recipients" ? "Bobo" : nil } == "To Bobo")

        try writePlist(["CFBundleName": "MonkeyChat", "IntentsSupported": ["INSendMessageIntent"],
                        "HarkCardTemplates": ["INSendPaymentIntent": "Pay {payee}"]], to: url)
        #expect(errorText { _ = try AppInfo(contentsOf: url.path) }
            == "\(url.path): HarkCardTemplates.INSendPaymentIntent: the app does not support INSendPaymentIntent; add it to IntentsSupported or remove the template")

        try writePlist(["CFBundleName": "MonkeyChat", "IntentsSupported": ["INSendMessageIntent"],
                        "HarkCardTemplates": ["INSendMessageIntent": "To {recipients"]], to: url)
        #expect(errorText { _ = try AppInfo(contentsOf: url.path) }
            == "\(url.path): HarkCardTemplates.INSendMessageIntent: line 1: '{' without a closing '}'")
    }
}
