import Testing

@testable import HarkAudio

@Suite("Resampler and StreamingResampler")
struct ResamplerTests {
    @Test("audio already at the target rate is returned unchanged")
    func identity() throws {
        let audio = PCMAudio(samples: [0.1, -0.2, 0.3], sampleRate: 16_000)
        #expect(try audio.toRecognitionFormat() == audio)
    }

    @Test("empty audio resamples to empty audio at the new rate")
    func empty() throws {
        let resampled = try Resampler.resample(PCMAudio(samples: [], sampleRate: 44_100), to: 16_000)
        #expect(resampled == PCMAudio(samples: [], sampleRate: 16_000))
    }

    @Test("length scales with the rate", arguments: [8_000, 11_025, 22_050, 44_100, 48_000, 96_000])
    func length(rate: Int) throws {
        let audio = PCMAudio(samples: sine(frequency: 500, sampleRate: rate, count: rate / 2).map(Float.init), sampleRate: rate)
        let resampled = try audio.toRecognitionFormat()
        #expect(abs(resampled.samples.count - 8_000) <= 2)
        let middle = Array(resampled.samples[1_000..<7_000])
        #expect(abs(upwardZeroCrossings(middle) - 188) <= 1)
    }

    @Test("impossible rates are errors, not traps", arguments: [0, -5, 2_000_000])
    func invalidRates(rate: Int) {
        let batch = AudioError(.resamplingFailed("\(rate) Hz to 16000 Hz: rates must be 1...1000000 Hz"), source: "resampler")
        #expect(throws: batch) {
            try Resampler.resample(PCMAudio(samples: [0], sampleRate: rate), to: 16_000)
        }
        let streaming = AudioError(.resamplingFailed("16000 Hz to \(rate) Hz: rates must be 1...1000000 Hz"), source: "resampler")
        #expect(throws: streaming) {
            try StreamingResampler(from: 16_000, to: rate)
        }
    }

    @Test("a ratio beyond libsamplerate's 1/256...256 is an error")
    func extremeRatio() throws {
        let expected = AudioError(.resamplingFailed("50 Hz to 16000 Hz: libsamplerate converts by 1/256...256 times"), source: "resampler")
        #expect(throws: expected) {
            try Resampler.resample(PCMAudio(samples: [0, 1], sampleRate: 50), to: 16_000)
        }
    }

    @Test("streaming in uneven blocks matches converting the whole signal")
    func streamingMatchesBatch() throws {
        let rate = 44_100
        let signal = sine(frequency: 1_000, sampleRate: rate, count: rate).map(Float.init)
        let batch = try Resampler.resample(PCMAudio(samples: signal, sampleRate: rate), to: 16_000).samples

        let resampler = try StreamingResampler(from: rate)
        var streamed: [Float] = []
        var generator = SeededGenerator(seed: 7)
        var position = 0
        while position < signal.count {
            let end = min(signal.count, position + Int.random(in: 1...3_000, using: &generator))
            streamed += try resampler.process(Array(signal[position..<end]))
            position = end
        }
        streamed += try resampler.finish()

        #expect(abs(streamed.count - batch.count) <= 2)
        let middle = Array(streamed[800..<15_000])
        #expect(abs(upwardZeroCrossings(middle) - 888) <= 2)
        #expect(abs(meanSquare(middle) - 0.125) < 0.005)
        // The same filter in both: away from the ends the outputs agree closely.
        let offset = 0
        let difference = (800..<15_000).map { abs(streamed[$0 + offset] - batch[$0]) }.max() ?? 1
        #expect(difference < 1e-3)
    }

    @Test("after finish the streaming resampler starts a new stream cleanly")
    func reuse() throws {
        let resampler = try StreamingResampler(from: 48_000)
        let block = sine(frequency: 440, sampleRate: 48_000, count: 4_800).map(Float.init)
        let first = try resampler.process(block) + resampler.finish()
        let second = try resampler.process(block) + resampler.finish()
        expectIdentical(first, second, "first vs second stream")
        #expect(abs(first.count - 1_600) <= 2)
    }
}
