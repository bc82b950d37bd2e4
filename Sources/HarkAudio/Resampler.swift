import CSampleRate

/// Sample-rate conversion of whole recordings with libsamplerate's
/// band-limited sinc interpolator, so content above the new Nyquist
/// frequency is filtered out rather than aliased.
public enum Resampler {
    /// The libsamplerate converter Hark uses: about 97 dB of signal-to-noise
    /// with a 90% pass band, at a fraction of the best converter's cost.
    static let converter = Int32(SRC_SINC_MEDIUM_QUALITY)

    /// `audio` converted to `rate` samples per second (a copy when it is already there).
    /// Errors name "resampler" as their source; callers that know the file relabel them.
    public static func resample(_ audio: PCMAudio, to rate: Int) throws(AudioError) -> PCMAudio {
        try resample(audio, to: rate, converter: converter)
    }

    /// libsamplerate's fastest band-limited converter (about 97 dB of
    /// signal-to-noise, an 80% pass band): for the noise suppressor's trip
    /// to 48 kHz and back, whose pass band only has to hold 0-8 kHz speech.
    static let fastConverter = Int32(SRC_SINC_FASTEST)

    static func resample(_ audio: PCMAudio, to rate: Int, converter: Int32) throws(AudioError) -> PCMAudio {
        if audio.sampleRate == rate { return audio }
        let ratio = try conversionRatio(from: audio.sampleRate, to: rate)
        guard !audio.samples.isEmpty else { return PCMAudio(samples: [], sampleRate: rate) }

        // src_simple generates about input × ratio frames; leave room for rounding.
        let capacity = Int((Double(audio.samples.count) * ratio).rounded(.up)) + 16
        var output = [Float](repeating: 0, count: capacity)
        let (status, generated) = audio.samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                var data = SRC_DATA(
                    data_in: input.baseAddress, data_out: out.baseAddress,
                    input_frames: input.count, output_frames: out.count,
                    input_frames_used: 0, output_frames_gen: 0,
                    end_of_input: 1, src_ratio: ratio
                )
                let status = src_simple(&data, converter, 1)
                return (status, data.output_frames_gen)
            }
        }
        guard status == 0 else {
            throw AudioError(.resamplingFailed(String(cString: src_strerror(status))), source: "resampler")
        }
        output.removeLast(output.count - generated)
        return PCMAudio(samples: output, sampleRate: rate)
    }

    /// The output/input ratio, checked against what libsamplerate supports (1/256...256).
    static func conversionRatio(from inputRate: Int, to outputRate: Int) throws(AudioError) -> Double {
        let conversion = "\(inputRate) Hz to \(outputRate) Hz"
        let validRates = 1...WAVFormat.maximumSampleRate
        guard validRates.contains(inputRate) && validRates.contains(outputRate) else {
            throw AudioError(.resamplingFailed("\(conversion): rates must be 1...\(validRates.upperBound) Hz"), source: "resampler")
        }
        let ratio = Double(outputRate) / Double(inputRate)
        guard src_is_valid_ratio(ratio) != 0 else {
            throw AudioError(.resamplingFailed("\(conversion): libsamplerate converts by 1/256...256 times"), source: "resampler")
        }
        return ratio
    }
}

extension PCMAudio {
    /// This audio at the recognizer's rate, ``PCMAudio/recognitionRate`` (16 kHz).
    public func toRecognitionFormat() throws(AudioError) -> PCMAudio {
        try Resampler.resample(self, to: PCMAudio.recognitionRate)
    }
}
