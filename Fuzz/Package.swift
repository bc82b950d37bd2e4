// swift-tools-version: 6.0
//
// libFuzzer drivers for Hark's readers of other people's files. Built apart
// from the main package because every module here is compiled with
// -sanitize=fuzzer, and the driver has no main (libFuzzer's is used):
//   scripts/fuzz.sh wav 300     # fuzz the WAV reader for five minutes
// The targets themselves are HarkFuzzTargets in the main package.

import PackageDescription

let package = Package(
    name: "HarkFuzz",
    dependencies: [.package(name: "Hark", path: "..")],
    targets: [
        .executableTarget(
            name: "hark-fuzz",
            dependencies: [.product(name: "HarkFuzzTargets", package: "Hark")],
            swiftSettings: [.unsafeFlags(["-sanitize=fuzzer", "-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer", "-use-ld=lld"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
