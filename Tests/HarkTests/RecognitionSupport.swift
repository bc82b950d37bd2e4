import HarkAudio
import HarkGrammar
import HarkRecognition

/// Decodes a WAV file against a grammar of just these sentences (waiting
/// for the shared decoder without blocking a thread: a stream may hold it).
func recognise(path: String, sentences: [String]) async throws -> String {
    var file = GrammarFile(path: "<test>")
    file.intents = [IntentDefinition(
        name: "Sentence",
        sentences: try sentences.map { try GrammarParser.parseExpression($0) },
        location: SourceLocation(file: "<test>", line: 1, column: 1))]
    let graph = try GrammarCompiler.compile([GrammarInstance(app: "test", grammar: file)])
    let audio = try WAVReader.read(contentsOf: path).audio.toRecognitionFormat()
    return try await sharedDecoder.recognize(audio.int16Samples(), grammar: DecoderGrammar(graph: graph, dictation: DictationVocabulary())).text
}
