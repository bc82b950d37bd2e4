// swift-tools-version: 6.0
//
// Hark: offline speech-to-intent in the SiriKit model, on Linux.
// One module per pipeline stage (see ARCHITECTURE.md); C libraries stay
// behind the `C*` system-library targets at the edges.

import PackageDescription

let package = Package(
    name: "Hark",
    products: [
        .executable(name: "hark", targets: ["hark"]),
        .library(name: "Hark", targets: ["Hark"]),
        /// The fuzzers' entry points (built with libFuzzer by the package in Fuzz/).
        .library(name: "HarkFuzzTargets", targets: ["HarkFuzzTargets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // MARK: C libraries (Debian -dev packages)
        .systemLibrary(
            name: "CPocketSphinx",
            pkgConfig: "pocketsphinx",
            providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev", "pocketsphinx-en-us"])]
        ),
        .systemLibrary(
            name: "CALSA",
            pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]
        ),
        .systemLibrary(
            name: "CESpeakNG",
            pkgConfig: "espeak-ng",
            providers: [.apt(["libespeak-ng-dev", "espeak-ng"])]
        ),
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .systemLibrary(
            name: "CSampleRate",
            pkgConfig: "samplerate",
            providers: [.apt(["libsamplerate0-dev"])]
        ),
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),

        // MARK: Pipeline stages
        /// Text from data made safe for the terminal (control characters escaped).
        .target(name: "HarkText"),
        /// Audio values, WAV I/O, resampling, endpointing (no device code).
        .target(name: "HarkAudio", dependencies: ["CSampleRate", "HarkText"]),
        /// What Swift cannot express of ALSA's API (its variadic error handler).
        .target(name: "CALSAShims", dependencies: ["CALSA"]),
        /// ALSA capture and playback.
        .target(name: "HarkALSA", dependencies: ["HarkAudio", "CALSA", "CALSAShims"]),
        /// Grammar language, intent graph, FSG/JSGF export, text parser.
        .target(name: "HarkGrammar", dependencies: ["HarkIntents", "HarkText", "CYAML"]),
        /// What Swift cannot give pocketsphinx: frame evaluations it calls through a function pointer.
        .target(name: "CPocketSphinxShims", dependencies: ["CPocketSphinx"]),
        /// pocketsphinx decoding against the intent graph.
        .target(name: "HarkRecognition", dependencies: ["CPocketSphinx", "CPocketSphinxShims", "HarkAudio", "HarkGrammar", "HarkLetterToSound"]),
        /// libespeak-ng's audio device answered with none: Hark plays speech itself, and the
        /// release tool links espeak-ng without libpcaudio and PulseAudio behind it.
        .target(name: "CESpeakNGShims"),
        /// libespeak-ng's process-wide engine (one lock for synthesis and phonemes) and its errors.
        .target(name: "HarkESpeak", dependencies: ["CESpeakNG", "CESpeakNGShims"]),
        /// Pronunciations for words no dictionary has, from espeak-ng's letter-to-sound rules.
        .target(name: "HarkLetterToSound", dependencies: ["HarkESpeak"]),
        /// espeak-ng synthesis to PCM.
        .target(name: "HarkSpeech", dependencies: ["CESpeakNG", "HarkESpeak", "HarkAudio"]),
        /// SiriKit domain model: intents, parameters, resolution results, response codes.
        .target(name: "HarkIntents"),
        /// Handler protocols and the resolve → confirm → handle lifecycle.
        .target(name: "HarkEngine", dependencies: ["HarkIntents", .product(name: "Logging", package: "swift-log")]),
        /// Intents extensions: an app's handler as a separate process, JSON lines over stdio.
        .target(name: "HarkExtensions", dependencies: ["HarkEngine", "HarkIntents", "HarkJSON", .product(name: "Logging", package: "swift-log")]),
        /// One JSON value type for the protocols Hark speaks (extensions, Wyoming).
        .target(name: "HarkJSON"),
        /// Installed apps: their grammars and vocabulary.
        .target(name: "HarkCatalog", dependencies: ["HarkGrammar", "HarkIntents", "HarkText"]),
        /// The assistant: audio → recognition → parse → engine → speech.
        .target(
            name: "Hark",
            dependencies: [
                "HarkAudio", "HarkALSA", "HarkGrammar", "HarkRecognition", "HarkSpeech",
                "HarkIntents", "HarkEngine", "HarkCatalog", "HarkExtensions", "HarkText",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// The Wyoming protocol: events, framing with hard limits, the server and its sessions (`hark serve`).
        .target(name: "HarkWyoming", dependencies: ["HarkAudio", "HarkJSON", .product(name: "Logging", package: "swift-log")]),
        /// `hark bench`: scoring labelled audio through the whole pipeline.
        .target(name: "HarkBench", dependencies: ["Hark", "HarkGrammar"]),
        /// QR codes for INGetVisualCodeIntent: terminal drawing and PNG.
        .target(name: "HarkVisualCode", dependencies: ["CQREncode"]),
        /// Sample apps (MonkeyChat, ...) with their handlers.
        .target(name: "HarkSampleApps", dependencies: ["Hark", "HarkEngine", "HarkIntents", "HarkVisualCode"]),
        /// The tool's malloc: jemalloc, and the options it starts with.
        .target(name: "HarkAllocator", dependencies: ["CJemalloc"]),
        /// The command-line tool: argument parsing and wiring only.
        .executableTarget(
            name: "hark",
            dependencies: [
                "Hark", "HarkSampleApps", "HarkBench", "HarkVisualCode", "HarkText", "HarkWyoming", "HarkAllocator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        /// What Hark reads from other people's files, as functions of raw bytes (fuzzing).
        .target(name: "HarkFuzzTargets", dependencies: ["HarkAudio", "HarkCatalog", "HarkGrammar"]),

        // MARK: Tests
        /// Running tools from tests (no pipe deadlocks, no trap on EINTR).
        .target(name: "HarkTestSupport", path: "Tests/HarkTestSupport"),
        /// Numbered writes to the app and vocabulary stores, killed at random by the crash-safety test.
        .executableTarget(name: "hark-store-stress", dependencies: ["HarkSampleApps", "HarkCatalog", "HarkIntents", "HarkEngine"], path: "Tests/StoreStress"),
        .testTarget(name: "HarkAudioTests", dependencies: ["HarkTestSupport", "HarkAudio"]),
        .testTarget(name: "HarkALSATests", dependencies: ["HarkTestSupport", "HarkALSA", "HarkAudio", "CALSA"]),
        .testTarget(name: "HarkSpeechTests", dependencies: ["HarkTestSupport", "HarkSpeech", "HarkAudio", "HarkRecognition"]),
        .testTarget(name: "HarkGrammarTests", dependencies: ["HarkTestSupport", "HarkGrammar", "CPocketSphinx"]),
        .testTarget(name: "HarkRecognitionTests", dependencies: ["HarkTestSupport", "HarkRecognition", "HarkAudio", "HarkGrammar", "CPocketSphinx"]),
        .testTarget(name: "HarkCatalogTests", dependencies: ["HarkTestSupport", "HarkCatalog", "HarkGrammar"]),
        .testTarget(name: "HarkEngineTests", dependencies: ["HarkTestSupport", "HarkEngine", "HarkIntents"]),
        .testTarget(name: "HarkExtensionsTests", dependencies: ["HarkTestSupport", "HarkExtensions", "HarkEngine", "HarkIntents", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "HarkSampleAppsTests", dependencies: ["HarkTestSupport", "HarkSampleApps", "Hark", "HarkEngine", "HarkIntents", "HarkCatalog", "HarkGrammar", "HarkVisualCode", "hark", "hark-store-stress"]),
        .testTarget(name: "HarkFuzzTargetsTests", dependencies: ["HarkFuzzTargets"]),
        .testTarget(name: "HarkTests", dependencies: ["HarkTestSupport", "Hark", "HarkSampleApps", "HarkBench", "hark"]),
        .testTarget(name: "HarkWyomingTests", dependencies: ["HarkTestSupport", "HarkWyoming", "hark"]),
    ],
    swiftLanguageModes: [.v6]
)
