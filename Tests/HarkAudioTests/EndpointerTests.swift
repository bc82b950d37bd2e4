import Foundation
import Testing

@testable import HarkAudio

@Suite("Endpointer")
struct EndpointerTests {
    static let rate = 16_000

    /// Speech from espeak-ng at 16 kHz, with where its sound really starts and ends (seconds into the clip).
    static func speech(_ text: String) throws -> (samples: [Double], start: Double, end: Double) {
        let directory = try TemporaryDirectory()
        let path = directory.path("speech.wav")
        try run(espeakPath, ["-w", path, text])
        let samples = try WAVReader.read(contentsOf: path).audio.toRecognitionFormat().samples.map(Double.init)
        let loud = samples.indices.filter { abs(samples[$0]) > 0.02 }
        let first = try #require(loud.first)
        let last = try #require(loud.last)
        return (samples, Double(first) / Double(rate), Double(last + 1) / Double(rate))
    }

    static func silence(_ seconds: Double) -> [Double] {
        [Double](repeating: 0, count: Int(seconds * Double(rate)))
    }

    /// A burst of loud noise standing in for speech.
    static func burst(_ seconds: Double, generator: inout SeededGenerator) -> [Double] {
        noise(count: Int(seconds * Double(rate)), rms: 0.2, generator: &generator)
    }

    static func int16(_ samples: [Double]) -> [Int16] {
        PCMAudio(samples: samples.map(Float.init), sampleRate: rate).int16Samples()
    }

    static func split(_ samples: [Double], _ configuration: EndpointerConfiguration = .init()) throws -> [Utterance] {
        try Endpointer.split(PCMAudio(samples: samples.map(Float.init), sampleRate: rate), configuration: configuration)
    }

    @Test(
        "two spoken commands 2 s apart are two utterances at the right times",
        .enabled(if: toolsAvailable, "needs espeak-ng"),
        arguments: [0.0, 0.003, 0.01]
    )
    func twoUtterances(noiseRMS: Double) throws {
        let first = try Self.speech("turn on the kitchen lights")
        let second = try Self.speech("send a message to Anna saying hello")
        var stream = Self.silence(1) + first.samples + Self.silence(2) + second.samples + Self.silence(1)
        var generator = SeededGenerator(seed: 3)
        let background = noise(count: stream.count, rms: noiseRMS, generator: &generator)
        stream = zip(stream, background).map(+)

        let secondOffset = 1 + Double(first.samples.count) / Double(Self.rate) + 2
        let truth = [(1 + first.start, 1 + first.end), (secondOffset + second.start, secondOffset + second.end)]
        let utterances = try Self.split(stream)
        try #require(utterances.count == 2, "found \(utterances.map { ($0.speechStartTime, $0.speechEndTime) })")
        for (utterance, (start, end)) in zip(utterances, truth) {
            #expect(abs(utterance.speechStartTime - start) < 0.3)
            #expect(abs(utterance.speechEndTime - end) < 0.3)
            // Padding: 0.3 s before and 0.2 s after the detected speech.
            #expect(abs(utterance.startTime - (utterance.speechStartTime - 0.3)) < 1e-9)
            #expect(abs(utterance.endTime - (utterance.speechEndTime + 0.2)) < 1e-9)
            #expect(utterance.samples.count == Int(((utterance.endTime - utterance.startTime) * 16_000).rounded()))
            let offset = Int((utterance.startTime * 16_000).rounded())
            let expected = Self.int16(Array(stream[offset..<(offset + utterance.samples.count)]))
            expectIdentical(utterance.samples, expected, "utterance samples vs the stream")
        }
    }

    @Test("streaming in uneven pieces finds the same utterances as a whole-file split")
    func chunkingDoesNotMatter() throws {
        var generator = SeededGenerator(seed: 11)
        var stream = Self.silence(0.7) + Self.burst(0.6, generator: &generator) + Self.silence(1.5)
        stream += Self.burst(1.2, generator: &generator) + Self.silence(0.1)
        let background = noise(count: stream.count, rms: 0.002, generator: &generator)
        let samples = Self.int16(zip(stream, background).map(+))

        let whole = try Self.split(zip(stream, background).map(+))
        var endpointer = Endpointer()
        var streamed: [Utterance] = []
        var position = 0
        while position < samples.count {
            let end = min(samples.count, position + Int.random(in: 1...700, using: &generator))
            streamed += endpointer.process(Array(samples[position..<end]))
            position = end
        }
        streamed += endpointer.finish()
        #expect(whole.count == 2)
        #expect(streamed.map(\.startTime) == whole.map(\.startTime))
        #expect(streamed.map(\.endTime) == whole.map(\.endTime))
        expectIdentical(streamed.flatMap(\.samples), whole.flatMap(\.samples), "chunked vs whole-file samples")
        // The second burst runs almost to the end: finish() hands it over with the padding there is.
        #expect(whole.last?.endTime == Double(samples.count) / 16_000)
    }

    @Test("silence and steady or slowly rising noise contain no utterances")
    func noSpeech() throws {
        var generator = SeededGenerator(seed: 5)
        #expect(try Self.split(Self.silence(5)).isEmpty)
        #expect(try Self.split(noise(count: 5 * Self.rate, rms: 0.01, generator: &generator)).isEmpty)
        #expect(try Self.split(noise(count: 5 * Self.rate, rms: 0.0001, generator: &generator)).isEmpty)
        // Background rising by 10 dB over 6 s, as when a fan speeds up.
        let rising = noise(count: 6 * Self.rate, rms: 1, generator: &generator).enumerated().map { index, value in
            value * 0.003 * pow(10, Double(index) / Double(6 * Self.rate) * 0.5)
        }
        #expect(try Self.split(rising).isEmpty)
    }

    @Test("a click shorter than the minimum speech is ignored")
    func click() throws {
        var generator = SeededGenerator(seed: 8)
        let stream = Self.silence(1) + Self.burst(0.05, generator: &generator) + Self.silence(1)
        #expect(try Self.split(stream).isEmpty)
        let longer = Self.silence(1) + Self.burst(0.3, generator: &generator) + Self.silence(1)
        #expect(try Self.split(longer).count == 1)
    }

    @Test("the trailing-silence timeout decides whether a 0.5 s pause splits")
    func trailingSilence() throws {
        var generator = SeededGenerator(seed: 13)
        let stream = Self.silence(1) + Self.burst(0.5, generator: &generator) + Self.silence(0.5)
            + Self.burst(0.5, generator: &generator) + Self.silence(1.5)

        let joined = try Self.split(stream, EndpointerConfiguration(trailingSilence: 0.8))
        try #require(joined.count == 1)
        #expect(abs(joined[0].speechStartTime - 1) < 0.03)
        #expect(abs(joined[0].speechEndTime - 2.5) < 0.03)

        let separate = try Self.split(stream, EndpointerConfiguration(trailingSilence: 0.3))
        try #require(separate.count == 2)
        #expect(abs(separate[0].speechEndTime - 1.5) < 0.03)
        #expect(abs(separate[1].speechStartTime - 2) < 0.03)
        // Padding never makes two utterances share samples.
        #expect(separate[1].startTime >= separate[0].endTime)
    }

    @Test("speech longer than the maximum is cut into contiguous pieces")
    func maximumUtterance() throws {
        var generator = SeededGenerator(seed: 17)
        let stream = Self.silence(1) + Self.burst(2.5, generator: &generator) + Self.silence(1)
        let pieces = try Self.split(stream, EndpointerConfiguration(maximumUtterance: 1))
        try #require(pieces.count == 3)
        #expect(abs(pieces[0].speechStartTime - 1) < 0.03)
        #expect(abs(pieces[0].speechEndTime - 2) < 0.03)
        #expect(pieces[1].startTime == pieces[0].endTime)
        #expect(pieces[2].startTime == pieces[1].endTime)
        #expect(abs(pieces[2].speechEndTime - 3.5) < 0.03)
    }

    @Test(
        "surrounding silence does not change the utterance passed on",
        .enabled(if: toolsAvailable, "needs espeak-ng")
    )
    func trimSemantics() throws {
        let clip = try Self.speech("what is the weather tomorrow").samples
        let short = try Self.split(Self.silence(0.5) + clip + Self.silence(1))
        let long = try Self.split(Self.silence(3) + clip + Self.silence(2.5))
        try #require(short.count == 1 && long.count == 1)
        expectIdentical(short[0].samples, long[0].samples, "utterance with short vs long surrounding silence")
        #expect(abs((long[0].startTime - short[0].startTime) - 2.5) < 1e-9)

        let trimmedShort = try Endpointer.trim(PCMAudio(samples: (Self.silence(0.5) + clip + Self.silence(1)).map(Float.init), sampleRate: 16_000))
        let trimmedLong = try Endpointer.trim(PCMAudio(samples: (Self.silence(3) + clip + Self.silence(2.5)).map(Float.init), sampleRate: 16_000))
        let short16 = try #require(trimmedShort)
        let long16 = try #require(trimmedLong)
        expectIdentical(short16.samples, long16.samples, "trimmed audio with short vs long surrounding silence")
        #expect(try Endpointer.trim(PCMAudio(samples: Self.silence(1).map(Float.init), sampleRate: 16_000)) == nil)
    }

    /// Speech, then 0.6 s of faint sound `tailDecibels` below it (breath,
    /// the room's echo, a far-off clatter), then quiet: where speech ends.
    static func speechEnd(tailDecibels: Double, _ configuration: EndpointerConfiguration) throws -> Double {
        var generator = SeededGenerator(seed: 31)
        let loud = 0.2
        var stream = Self.silence(1) + Self.burst(1, generator: &generator)
        stream += noise(count: Int(0.6 * Double(Self.rate)), rms: loud * pow(10, -tailDecibels / 20), generator: &generator)
        stream += Self.silence(1.5)
        // A quiet room under everything: the noise floor, 66 dB below the speech.
        let room = noise(count: stream.count, rms: loud / 2000, generator: &generator)
        let utterances = try Self.split(zip(stream, room).map(+), configuration)
        try #require(utterances.count == 1)
        return utterances[0].speechEndTime
    }

    @Test("sound far below the speech after it does not keep the utterance going; speech a little softer does")
    func speechRange() throws {
        // 45 dB down, well above the room: the words have ended at 2 s.
        #expect(abs(try Self.speechEnd(tailDecibels: 45, .init()) - 2) < 0.03)
        // Without the range every frame above the floor counts, as before.
        #expect(abs(try Self.speechEnd(tailDecibels: 45, .init(speechRange: nil)) - 2.6) < 0.03)
        // 20 dB down is softer speech going on (a trailing "s", a quieter word).
        #expect(abs(try Self.speechEnd(tailDecibels: 20, .init()) - 2.6) < 0.03)
    }

    @Test("just after an utterance, a sound far below its voice starts no new one; later, or as loud, it does")
    func quietSoundAfterAnUtterance() throws {
        var generator = SeededGenerator(seed: 37)
        let faint = { (seconds: Double, generator: inout SeededGenerator) in
            noise(count: Int(seconds * Double(Self.rate)), rms: 0.2 * pow(10, -40.0 / 20), generator: &generator)
        }
        // Speech, 1 s of quiet, 0.4 s of clatter 40 dB below the voice, 1.5 s quiet, the next request.
        var stream = Self.silence(1) + Self.burst(1, generator: &generator) + Self.silence(1)
        stream += faint(0.4, &generator) + Self.silence(1.5) + Self.burst(0.5, generator: &generator) + Self.silence(1)
        // Then, 3 s after anyone spoke, a faint sound is heard again: it may be someone far away.
        stream += Self.silence(3) + faint(0.4, &generator) + Self.silence(1)
        let room = noise(count: stream.count, rms: 0.2 / 2000, generator: &generator)
        let utterances = try Self.split(zip(stream, room).map(+))
        #expect(utterances.map { ($0.speechStartTime * 10).rounded() / 10 } == [1, 4.9, 9.4])
        // Without the range the clatter was an utterance of its own.
        #expect(try Self.split(zip(stream, room).map(+), .init(speechRange: nil)).count == 4)
    }

    @Test("split resamples other rates to 16 kHz first")
    func splitResamples() throws {
        var generator = SeededGenerator(seed: 23)
        let stream = [Double](repeating: 0, count: 44_100) + noise(count: 22_050, rms: 0.2, generator: &generator)
            + [Double](repeating: 0, count: 44_100)
        let utterances = try Endpointer.split(PCMAudio(samples: stream.map(Float.init), sampleRate: 44_100))
        try #require(utterances.count == 1)
        #expect(abs(utterances[0].speechStartTime - 1) < 0.03)
        #expect(abs(utterances[0].speechEndTime - 1.5) < 0.03)
    }

    @Test("nonsensical configurations do not trap")
    func oddConfiguration() throws {
        var generator = SeededGenerator(seed: 29)
        let stream = Self.silence(0.5) + Self.burst(0.5, generator: &generator) + Self.silence(0.5)
        let configurations = [
            EndpointerConfiguration(trailingSilence: .nan, leadingPadding: -1, trailingPadding: .infinity,
                                    minimumSpeech: -3, maximumUtterance: 0, noiseWindow: .nan),
            EndpointerConfiguration(trailingSilence: 1e300, leadingPadding: 1e300, maximumUtterance: .infinity),
        ]
        for configuration in configurations {
            _ = try Self.split(stream, configuration)
        }
    }
}
