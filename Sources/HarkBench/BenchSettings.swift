import Foundation
import Hark

/// Everything that produced a benchmark report: the build, the machine, the
/// time, the input and every setting that changes a figure. `report.json`
/// starts with it, so two reports can be told apart and a run repeated.
public struct BenchSettings: Sendable, Encodable {
    /// `HarkVersion.number`.
    public var version = HarkVersion.number
    /// When the run started, ISO 8601 in UTC.
    public var date = ISO8601DateFormatter().string(from: Date())
    /// The machine: host name, OS and architecture (`uname`).
    public var host = BenchSettings.hostDescription()
    /// The command line, as given.
    public var command: [String] = CommandLine.arguments
    /// The manifest, or the labels and their audio folder.
    public var manifest: String?
    public var labels: String?
    public var audioDirectory: String?
    /// Manifest sets kept (`--set`); empty for all.
    public var sets: [String] = []
    public var model: String
    public var apps: String?
    public var domains: String?
    /// `--decoder-option` settings, as given to pocketsphinx.
    public var decoderOptions: [String: String]
    /// The garbage loop's probability per phone, or "off".
    public var rejection: String
    /// `--denoise` as asked (`auto`, `rnnoise`, `off`) and whether RNNoise ran.
    public var denoise: String
    public var denoiseActive: Bool
    /// Noise mixing: the file, its excerpts' seed and the SNRs in dB.
    public var noise: String?
    public var seed: UInt64
    public var snrs: [Double]
    public var jobs: Int
    public var baseline: String?
    /// `--streaming`: "adapted" (each conversation heard as by a session
    /// that has heard its speaker before) or "cold start"; nil for whole files.
    public var streaming: String?

    enum CodingKeys: String, CodingKey {
        case version, date, host, command, manifest, labels, sets, model, apps, domains, rejection, denoise, noise, seed, snrs, jobs, baseline, streaming
        case audioDirectory = "audio_directory", decoderOptions = "decoder_options", denoiseActive = "denoise_active"
    }

    public init(manifest: String?, labels: String?, audioDirectory: String?, sets: [String], model: String, apps: String?,
                domains: String?, decoderOptions: [String: String], rejection: String, denoise: String, denoiseActive: Bool,
                noise: String?, seed: UInt64, snrs: [Double], jobs: Int, baseline: String?, streaming: String? = nil) {
        self.manifest = manifest
        self.labels = labels
        self.audioDirectory = audioDirectory
        self.sets = sets
        self.model = model
        self.apps = apps
        self.domains = domains
        self.decoderOptions = decoderOptions
        self.rejection = rejection
        self.denoise = denoise
        self.denoiseActive = denoiseActive
        self.noise = noise
        self.seed = seed
        self.snrs = snrs
        self.jobs = jobs
        self.baseline = baseline
        self.streaming = streaming
    }

    /// Every key is written, a setting not given as null.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(date, forKey: .date)
        try c.encode(host, forKey: .host)
        try c.encode(command, forKey: .command)
        try c.encode(manifest, forKey: .manifest)
        try c.encode(labels, forKey: .labels)
        try c.encode(audioDirectory, forKey: .audioDirectory)
        try c.encode(sets, forKey: .sets)
        try c.encode(model, forKey: .model)
        try c.encode(apps, forKey: .apps)
        try c.encode(domains, forKey: .domains)
        try c.encode(decoderOptions, forKey: .decoderOptions)
        try c.encode(rejection, forKey: .rejection)
        try c.encode(denoise, forKey: .denoise)
        try c.encode(denoiseActive, forKey: .denoiseActive)
        try c.encode(noise, forKey: .noise)
        try c.encode(seed, forKey: .seed)
        try c.encode(snrs, forKey: .snrs)
        try c.encode(jobs, forKey: .jobs)
        try c.encode(baseline, forKey: .baseline)
        try c.encode(streaming, forKey: .streaming)
    }

    /// "name (Linux 6.1.0 x86_64)".
    static func hostDescription() -> String {
        var u = utsname()
        guard uname(&u) == 0 else { return ProcessInfo.processInfo.hostName }
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(field(u.nodename)) (\(field(u.sysname)) \(field(u.release)) \(field(u.machine)))"
    }
}
