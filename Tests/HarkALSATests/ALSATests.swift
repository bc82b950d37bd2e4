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

    @Test func captureFromADeviceAtAnUnconvertibleRateFailsImmediately() async throws {
        // 50 Hz to 16 kHz is beyond libsamplerate's 256× limit; say so at init,
        // naming the device, rather than when the first frame is due.
        let error = try #require(throws: ALSAError.self) {
            try ALSACapture(device: "hark_in", frameDuration: .milliseconds(100),
                            requestedRate: 50, requestedChannels: 1)
        }
        #expect(error.kind == .unsupportedConfiguration)
        #expect(error.direction == .capture)
        #expect(error.description == "capture device 'hark_in' cannot be configured: resampling 50 Hz to 16000 Hz: "
            + "libsamplerate converts by 1/256...256 times "
            + "(try a 'plughw:' or 'default' device, which convert formats; see 'arecord -L')")
        #expect(await allHandlesClosed())
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

/// Devices whose rate isn't the one asked for are converted with HarkAudio's
/// resamplers; these check the playback conversion and the error messages
/// without a device (the capture path runs through real PCMs above).
@Suite("Resampling for devices at other rates")
struct DeviceResamplingTests {
    @Test func playbackResamplesAndDuplicatesForADeviceThatInsists() throws {
        // 22.05 kHz speech to a raw device fixed at 48 kHz stereo.
        let audio = PCMAudio(int16: ALSATestEnvironment.sine(count: 22_050, rate: 22_050), sampleRate: 22_050)
        let config = PCMHandle.Configuration(rate: 48_000, channels: 2, periodFrames: 2_400, bufferFrames: 24_000)
        let interleaved = try ALSAPlayback.deviceSamples(audio, config: config, device: "hw:0")
        #expect(interleaved.count % 2 == 0)
        let left = stride(from: 0, to: interleaved.count, by: 2).map { interleaved[$0] }
        let right = stride(from: 1, to: interleaved.count, by: 2).map { interleaved[$0] }
        #expect(left == right, "every channel gets the same signal")
        #expect(abs(left.count - 48_000) <= 2, "one second in, one second out: \(left.count)")

        let ideal = ALSATestEnvironment.sine(count: left.count, rate: 48_000)
        let middle = 1_000..<47_000
        let worst = middle.map { abs(Int(left[$0]) - Int(ideal[$0])) }.max() ?? .max
        #expect(worst < 200, "largest deviation from the ideal 48 kHz sine: \(worst) of 16383")
    }

    @Test func playbackAtTheDeviceRateIsNotResampled() throws {
        let samples = ALSATestEnvironment.sine(count: 1_234, rate: 16_000)
        let config = PCMHandle.Configuration(rate: 16_000, channels: 1, periodFrames: 800, bufferFrames: 8_000)
        let out = try ALSAPlayback.deviceSamples(PCMAudio(int16: samples, sampleRate: 16_000),
                                                 config: config, device: "hw:0")
        #expect(out == samples)
    }

    @Test func playbackNamesTheDeviceWhenItsRateCannotBeReached() throws {
        // 16 kHz to 50 Hz is beyond libsamplerate's 1/256 limit.
        let audio = PCMAudio(int16: ALSATestEnvironment.sine(count: 1_600, rate: 16_000), sampleRate: 16_000)
        let config = PCMHandle.Configuration(rate: 50, channels: 1, periodFrames: 5, bufferFrames: 50)
        let error = try #require(throws: ALSAError.self) {
            try ALSAPlayback.deviceSamples(audio, config: config, device: "hw:0")
        }
        #expect(error.kind == .unsupportedConfiguration)
        #expect(error.direction == .playback)
        #expect(error.device == "hw:0")
        #expect(error.function == "resampling 16000 Hz to 50 Hz")
        #expect(error.description == "playback device 'hw:0' cannot be configured: resampling 16000 Hz to 50 Hz: "
            + "libsamplerate converts by 1/256...256 times "
            + "(try a 'plughw:' or 'default' device, which convert formats; see 'aplay -L')")
    }

    @Test func captureNamesTheDeviceWhenItsRateCannotBeReached() throws {
        // A rate above what HarkAudio accepts, as no real microphone delivers.
        let audio = AudioError(.resamplingFailed("2000000 Hz to 16000 Hz: rates must be 1...1000000 Hz"),
                               source: "resampler")
        let error = ALSAError.resampling(audio, from: 2_000_000, to: 16_000, kind: .unsupportedConfiguration,
                                         direction: .capture, device: "hw:1,0")
        #expect(error.description == "capture device 'hw:1,0' cannot be configured: resampling 2000000 Hz to 16000 Hz: "
            + "rates must be 1...1000000 Hz "
            + "(try a 'plughw:' or 'default' device, which convert formats; see 'arecord -L')")
        #expect(!error.description.contains("resampler"), "HarkAudio's placeholder source is dropped")
        #expect(!error.description.contains("sox"), "file advice doesn't fit a device")
    }

    @Test func resamplingFailuresMidStreamKeepLibsamplerateReason() {
        let audio = AudioError(.resamplingFailed("Internal error. No private data."), source: "resampler")
        let error = ALSAError.resampling(audio, from: 48_000, to: 16_000, kind: .failed,
                                         direction: .capture, device: "hw:1,0")
        #expect(error.description == "capture device 'hw:1,0': resampling 48000 Hz to 16000 Hz failed: "
            + "Internal error. No private data.")
    }
}
