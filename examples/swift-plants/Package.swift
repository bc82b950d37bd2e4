// swift-tools-version: 6.0
//
// An app written the way a third party writes one: its Info.plist and
// grammar in apps/Plants, its intents handled in Swift through `import Hark`.
import PackageDescription

let package = Package(
    name: "Plants",
    dependencies: [
        .package(name: "Hark", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "plants", dependencies: [.product(name: "Hark", package: "Hark")]),
    ],
    swiftLanguageModes: [.v6]
)
