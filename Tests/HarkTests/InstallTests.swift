import Foundation
import Hark
import HarkTestSupport
import Testing

@Suite("make install and where Hark finds its models", .serialized)
struct InstallTests {
    @Test("models: $HARK_MODELS, then <prefix>/share/hark/models beside bin/, then ./models")
    func modelsOrder() throws {
        let prefix = try temporaryDirectory("prefix")
        let executable = prefix.appendingPathComponent("bin/hark").path
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try #require(FileManager.default.createFile(atPath: executable, contents: Data()))
        let checkout = Repo.root.path
        // Nothing installed: the checkout's ./models.
        #expect(Resources.modelsDirectory(environment: [:], executable: executable, currentDirectory: checkout) == checkout + "/models")
        // Installed: preferred to ./models.
        let installed = prefix.appendingPathComponent("share/hark/models")
        try FileManager.default.createDirectory(at: installed.appendingPathComponent("domains"), withIntermediateDirectories: true)
        #expect(Resources.modelsDirectory(environment: [:], executable: executable, currentDirectory: checkout) == installed.path)
        // A relative executable path (bin/hark run from the prefix) resolves the same.
        #expect(Resources.modelsDirectory(environment: [:], executable: "bin/hark", currentDirectory: prefix.path) == installed.path)
        // $HARK_MODELS first of all.
        #expect(Resources.modelsDirectory(environment: ["HARK_MODELS": "/elsewhere"], executable: executable, currentDirectory: checkout) == "/elsewhere")
    }

    @Test("the dictation's pruned n-gram model is offered when set-up made it; without it, none (the acoustic model's)")
    func prunedLanguageModel() throws {
        let models = Repo.root.appendingPathComponent("models")
        let pruned = models.appendingPathComponent("dictation/language-model.lm.bin").path
        try #require(FileManager.default.fileExists(atPath: pruned), "scripts/setup.sh runs scripts/prune-lm.py")
        #expect(try Resources.dictation(modelsDirectory: models.path).languageModel == pruned)
        // A models folder with the word lists alone.
        let bare = try temporaryDirectory("models")
        try FileManager.default.createDirectory(at: bare.appendingPathComponent("dictation"), withIntermediateDirectories: true)
        for list in ["words.txt", "reading-words.txt"] {
            try FileManager.default.copyItem(at: models.appendingPathComponent("dictation/" + list),
                                             to: bare.appendingPathComponent("dictation/" + list))
        }
        #expect(try Resources.dictation(modelsDirectory: bare.path).languageModel == nil)
    }

    @Test("make install-files into a temporary PREFIX; the installed hark runs from another directory; make uninstall removes it")
    func install() throws {
        let prefix = try temporaryDirectory("install").appendingPathComponent("usr")
        let make = try ProcessRunner.run("/usr/bin/make", ["-s", "install-files", "PREFIX=\(prefix.path)", "HARK=\(Repo.hark)", "MANPAGE="],
                                         currentDirectory: Repo.root)
        try #require(make.status == 0, "\(make.err)")
        let files = ["bin/hark", "share/hark/models/domains", "share/hark/models/apps/MonkeyChat/Info.plist",
                     "share/bash-completion/completions/hark", "share/zsh/site-functions/_hark",
                     "share/fish/vendor_completions.d/hark.fish"]
        for file in files {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) not installed")
        }
        let elsewhere = try temporaryDirectory("elsewhere")
        let installed = prefix.appendingPathComponent("bin/hark").path
        var environment = ProcessInfo.processInfo.environment
        environment["HARK_MODELS"] = nil
        environment["HARK_DATA_DIR"] = elsewhere.appendingPathComponent("data").path
        let version = try ProcessRunner.run(installed, ["--version"], currentDirectory: elsewhere, environment: environment)
        #expect(version.status == 0 && version.out.contains(HarkVersion.number))
        let fixture = Repo.fixtures.appendingPathComponent("flite-rms/monkeychat-send-bobo-bananas.wav").path
        let replay = try ProcessRunner.run(installed, ["replay", fixture, "--json"], currentDirectory: elsewhere, environment: environment)
        #expect(replay.status == 0, "\(replay.err)")
        #expect(replay.out.contains(#""intent":"INSendMessageIntent""#), "\(replay.out)")
        let uninstall = try ProcessRunner.run("/usr/bin/make", ["-s", "uninstall", "PREFIX=\(prefix.path)"], currentDirectory: Repo.root)
        #expect(uninstall.status == 0, "\(uninstall.err)")
        for file in files {
            #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) left after uninstall")
        }
    }
}
