import Foundation
import HarkAudio
import HarkGrammar
import HarkRecognition

/// A messaging grammar and a recording it covers, for the suites that need
/// a real decoder to hear a real sentence ("send a text to little bobo on
/// monkey chat saying see you at the tree", flite's slt voice, 5.2 s).
enum MessagingFixture {
    static func grammar(dictation: DictationVocabulary = DictationVocabulary()) throws -> DecoderGrammar {
        let file = try GrammarParser.parse("""
            slot recipients: contacts
            slot content: text
            list contacts:
                bobo
                little bobo
            rule app = monkey chat
            intent INSendMessageIntent:
                send a text to {recipients} [on <app>] [saying {content}]
            """, path: "messaging.hark")
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "MonkeyChat", grammar: file)])
        return DecoderGrammar(graph: graph, dictation: dictation)
    }

    static func speech() throws -> [Int16] {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = repository.appendingPathComponent("audio-fixtures/flite-slt/monkeychat-little-bobo.wav").path
        return try WAVReader.read(contentsOf: path).audio.toRecognitionFormat().int16Samples()
    }
}
