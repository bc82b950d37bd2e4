import Foundation
import HarkAudio
import Testing

@testable import HarkALSA

/// Reads frames until at least `count` samples have arrived, then stops
/// iterating (which terminates the stream).
private func collect(_ stream: AsyncThrowingStream<[Int16], any Error>, atLeast count: Int,
                     frameSizes: inout Set<Int>) async throws -> [Int16] {
    var samples: [Int16] = []
    for try await frame in stream {
        frameSizes.insert(frame.count)
        samples += frame
        if samples.count >= count { break }
    }
    return samples
}

/// Waits (briefly) for every capture thread to close its PCM.
private func allHandlesClosed() async -> Bool {
    for _ in 0..<300 {
        if PCMHandle.openCount.load(ordering: .relaxed) == 0 { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return false
}

/// All ALSA tests share one process-wide ALSA configuration, and the file
/// plugin's output file, so they run one at a time.
@Suite("ALSA through the null and file plugins", .serialized)
struct ALSATests {
    let env = ALSATestEnvironment.shared

    // MARK: Capture

    @Test func captureReturnsTheInfileSamplesInOrder() async throws {
        do {
            let capture = try ALSACapture(device: "hark_in")
            #expect(capture.name == "ALSA device 'hark_in'")
            #expect(capture.frameSamples == 1600)
            // init opens the device, so a bad --device fails before streaming.
            #expect(PCMHandle.openCount.load(ordering: .relaxed) == 1)

            var sizes = Set<Int>()
            let samples = try await collect(capture.frames(), atLeast: env.input16k.count, frameSizes: &sizes)
            #expect(sizes == [1600], "every frame is 100 ms at 16 kHz")
            #expect(Array(samples.prefix(env.input16k.count)) == env.input16k)
        }
        // Ending the iteration stopped the thread, which closed the PCM.
        #expect(await allHandlesClosed())
    }

    @Test func eachStreamReopensTheDevice() async throws {
        let capture = try ALSACapture(device: "hark_in", frameDuration: .milliseconds(20))
        #expect(capture.frameSamples == 320)
        var sizes = Set<Int>()
        let first = try await collect(capture.frames(), atLeast: 3200, frameSizes: &sizes)
        #expect(await allHandlesClosed())
        // A new stream opens the PCM afresh, so the "microphone" file starts over.
        let second = try await collect(capture.frames(), atLeast: 3200, frameSizes: &sizes)
        #expect(Array(first.prefix(3200)) == Array(env.input16k.prefix(3200)))
        #expect(Array(second.prefix(3200)) == Array(env.input16k.prefix(3200)))
        #expect(await allHandlesClosed())
    }

    @Test func cancellingTheConsumingTaskStopsCapture() async throws {
        let capture = try ALSACapture(device: "hark_in")
        // The stream lives only in the task, as in `hark listen`; when the
        // cancelled task ends, the stream is released and terminates.
        let reader = Task {
            var frames = 0
            for try await _ in capture.frames() {
                frames += 1
                try await Task.sleep(for: .milliseconds(5))
            }
            return frames
        }
        try await Task.sleep(for: .milliseconds(100))
        reader.cancel()
        _ = await reader.result
        #expect(await allHandlesClosed())
    }

    @Test func captureResamplesWhenTheDeviceRunsAtAnotherRate() async throws {
        // Ask ALSA for 48 kHz, as a raw hw: device fixed at 48 kHz would give.
        let capture = try ALSACapture(device: "hark_in48", frameDuration: .milliseconds(100),
                                      requestedRate: 48_000, requestedChannels: 1)
        var sizes = Set<Int>()
        let samples = try await collect(capture.frames(), atLeast: 16_000, frameSizes: &sizes)
        #expect(sizes == [1600])
        #expect(await allHandlesClosed())

        // The 48 kHz sine should come out as the same sine sampled at 16 kHz.
        let ideal = ALSATestEnvironment.sine(count: 16_000, rate: 16_000)
        // Skip the filter's edges: the first few ms and the end of the input.
        let middle = 200..<15_000
        let worst = middle.map { abs(Int(samples[$0]) - Int(ideal[$0])) }.max() ?? .max
        #expect(worst < 200, "largest deviation from the ideal 16 kHz sine: \(worst) of 16383")
    }

    @Test func captureDownmixesAStereoDevice() async throws {
        let capture = try ALSACapture(device: "hark_in_stereo", frameDuration: .milliseconds(100),
                                      requestedRate: 16_000, requestedChannels: 2)
        var sizes = Set<Int>()
        let samples = try await collect(capture.frames(), atLeast: 8_000, frameSizes: &sizes)
        #expect(await allHandlesClosed())
        let expected = stride(from: 0, to: env.inputStereo.count, by: 2).map { i in
            Int16((Int(env.inputStereo[i]) + Int(env.inputStereo[i + 1])) / 2)
        }
        #expect(Array(samples.prefix(8_000)) == expected)
    }

    @Test func captureFromAMissingDeviceFailsImmediately() throws {
        let error = try #require(throws: ALSAError.self) {
            try ALSACapture(device: "hark_no_such_mic")
        }
        #expect(error.kind == .noDevice)
        #expect(error.direction == .capture)
        #expect(error.function == "snd_pcm_open")
        #expect(error.code < 0)
        #expect(error.description.hasPrefix("no capture device 'hark_no_such_mic': "))
        #expect(error.description.contains("list devices with 'arecord -L'; pass one with --device NAME"))
        #expect(PCMHandle.openCount.load(ordering: .relaxed) == 0)
    }

    // MARK: Playback

    @Test(arguments: [16_000, 22_050])
    func playbackWritesExactlyTheSamplesPlayed(rate: Int) async throws {
        // Exactly representable 16-bit values, so the bytes must match exactly.
        let samples = ALSATestEnvironment.sine(count: rate * 3 / 2 + 37, rate: rate, amplitude: 0.8, frequency: 523)
        let audio = PCMAudio(int16: samples, sampleRate: rate)
        #expect(audio.int16Samples() == samples)

        try await ALSAPlayback(device: "hark_out").write(audio)

        let written = try Data(contentsOf: env.outputFile)
        #expect(written.count == samples.count * 2)
        #expect(written == ALSATestEnvironment.rawBytes(samples))
        #expect(PCMHandle.openCount.load(ordering: .relaxed) == 0)
    }

    @Test func playbackOfEmptyAudioDoesNothing() async throws {
        try await ALSAPlayback(device: "hark_no_such_speaker").write(PCMAudio(samples: [], sampleRate: 16_000))
    }

    @Test func playbackToAMissingDeviceThrows() async throws {
        let playback = ALSAPlayback(device: "hark_no_such_speaker")
        let audio = PCMAudio(int16: ALSATestEnvironment.sine(count: 1600, rate: 16_000), sampleRate: 16_000)
        let error = try await #require(throws: ALSAError.self) {
            try await playback.write(audio)
        }
        #expect(error.kind == .noDevice)
        #expect(error.direction == .playback)
        #expect(error.description.hasPrefix("no playback device 'hark_no_such_speaker': "))
        #expect(error.description.contains("list devices with 'aplay -L'; pass one with --device NAME"))

        let early = try #require(throws: ALSAError.self) { try playback.checkDevice() }
        #expect(early == error)
        try ALSAPlayback(device: "hark_out").checkDevice()
        #expect(PCMHandle.openCount.load(ordering: .relaxed) == 0)
    }
}

@Suite("ALSA error messages")
struct ALSAErrorTests {
    @Test func messagesUseSndStrerror() {
        let error = ALSAError(kind: .deviceLost, direction: .capture, device: "hw:1,0",
                              function: "snd_pcm_readi", code: -ENODEV)
        #expect(error.reason == "No such device")
        #expect(error.description == "capture device 'hw:1,0' stopped working: snd_pcm_readi: No such device (was it unplugged?)")
    }

    @Test func busyDevicesSayWhy() {
        let error = ALSAError.open(-EBUSY, direction: .playback, device: "hw:0")
        #expect(error.kind == .busy)
        #expect(error.description.contains("playback device 'hw:0' is busy: Device or resource busy"))
    }

    @Test func otherFailuresNameTheFunction() {
        let error = ALSAError(kind: .unsupportedConfiguration, direction: .capture, device: "hw:2",
                              function: "snd_pcm_hw_params_set_format(S16_LE)", code: -EINVAL)
        #expect(error.description.contains("snd_pcm_hw_params_set_format(S16_LE): Invalid argument"))
        #expect(error.description.contains("plughw:"))
    }
}

@Suite("Sinc resampler")
struct SincResamplerTests {
    private func sine(_ count: Int, rate: Int, frequency: Double) -> [Float] {
        (0..<count).map { Float(0.5 * sin(2 * .pi * frequency * Double($0) / Double(rate))) }
    }

    @Test(arguments: [(48_000, 16_000), (44_100, 16_000), (22_050, 48_000), (8_000, 16_000)])
    func keepsASineAndTheLength(rates: (Int, Int)) {
        let (from, to) = rates
        var resampler = SincResampler(from: from, to: to)
        let input = sine(from, rate: from, frequency: 440)
        let output = resampler.process(input) + resampler.flush()
        #expect(output.count == to, "one second in, one second out")
        let ideal = sine(output.count, rate: to, frequency: 440)
        let worst = (to / 50..<(output.count - to / 50)).map { abs(output[$0] - ideal[$0]) }.max() ?? 1
        #expect(worst < 0.01, "\(from) → \(to): worst error \(worst)")
    }

    @Test func chunkedInputGivesTheSameOutput() {
        let input = sine(4_800, rate: 48_000, frequency: 1_000)
        var whole = SincResampler(from: 48_000, to: 16_000)
        let expected = whole.process(input) + whole.flush()
        var chunked = SincResampler(from: 48_000, to: 16_000)
        var output: [Float] = []
        var start = 0
        for size in [1, 7, 480, 333, 1_000, 2_979] {
            output += chunked.process(Array(input[start..<min(input.count, start + size)]))
            start += size
        }
        output += chunked.flush()
        #expect(output == expected)
    }

    @Test func removesFrequenciesAboveTheNewNyquist() {
        // 7 kHz is fine at 48 kHz but would alias to 1 kHz at 16 kHz... if kept.
        // 10 kHz is above the 8 kHz Nyquist and must be filtered out.
        var resampler = SincResampler(from: 48_000, to: 16_000)
        let output = resampler.process(sine(48_000, rate: 48_000, frequency: 10_000)) + resampler.flush()
        let middle = output[1_000..<15_000]
        let rms = (middle.reduce(0) { $0 + Double($1 * $1) } / Double(middle.count)).squareRoot()
        #expect(rms < 0.01, "aliased energy \(rms)")
    }
}
