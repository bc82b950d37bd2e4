import CSampleRate

/// Converts a live stream from one sample rate to another, block by block,
/// keeping the filter state between blocks so the joins are seamless.
///
/// Not thread-safe: one stream, fed from one thread or task at a time.
public final class StreamingResampler {
    /// Samples per second going in.
    public let inputRate: Int
    /// Samples per second coming out.
    public let outputRate: Int

    private let ratio: Double
    /// libsamplerate's `SRC_STATE *`, owned by this object.
    private let state: OpaquePointer

    /// A resampler from `inputRate` to `outputRate` (by default the recognizer's 16 kHz).
    public init(from inputRate: Int, to outputRate: Int = PCMAudio.recognitionRate) throws(AudioError) {
        ratio = try Resampler.conversionRatio(from: inputRate, to: outputRate)
        var error: Int32 = 0
        guard let state = src_new(Resampler.converter, 1, &error) else {
            throw AudioError(.resamplingFailed(String(cString: src_strerror(error))), source: "resampler")
        }
        self.state = state
        self.inputRate = inputRate
        self.outputRate = outputRate
    }

    deinit {
        src_delete(state)
    }

    /// Converts the next block of input. The filter holds back a few
    /// milliseconds of output until later input (or ``finish()``) arrives.
    public func process(_ samples: [Float]) throws(AudioError) -> [Float] {
        try convert(samples, endOfInput: false)
    }

    /// Flushes the held-back output at the end of the stream and resets the
    /// resampler so it can start a new stream.
    public func finish() throws(AudioError) -> [Float] {
        defer { src_reset(state) }
        return try convert([], endOfInput: true)
    }

    private func convert(_ input: [Float], endOfInput: Bool) throws(AudioError) -> [Float] {
        // libsamplerate rejects a null input pointer, which an empty array may give.
        let source = input.isEmpty ? [0] : input
        var buffer = [Float](repeating: 0, count: Int(Double(input.count) * ratio) + 256)
        var output: [Float] = []
        output.reserveCapacity(buffer.count)
        var consumed = 0
        while true {
            let (status, used, generated) = source.withUnsafeBufferPointer { inPointer in
                buffer.withUnsafeMutableBufferPointer { outPointer in
                    var data = SRC_DATA(
                        data_in: inPointer.baseAddress! + consumed, data_out: outPointer.baseAddress,
                        input_frames: input.count - consumed, output_frames: outPointer.count,
                        input_frames_used: 0, output_frames_gen: 0,
                        end_of_input: endOfInput ? 1 : 0, src_ratio: ratio
                    )
                    let status = src_process(state, &data)
                    return (status, data.input_frames_used, data.output_frames_gen)
                }
            }
            guard status == 0 else {
                throw AudioError(.resamplingFailed(String(cString: src_strerror(status))), source: "resampler")
            }
            consumed += used
            output.append(contentsOf: buffer[0..<generated])
            // No progress at all would mean spinning forever; the converter is done.
            if used == 0 && generated == 0 { return output }
            // Go on while input is left, or while a full buffer means more output may be pending.
            let moreInput = consumed < input.count
            let bufferFilled = generated == buffer.count
            let draining = endOfInput && generated > 0
            if !(moreInput || bufferFilled || draining) { return output }
        }
    }
}
