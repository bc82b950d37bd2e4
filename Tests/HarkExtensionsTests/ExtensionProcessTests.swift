import Foundation
import HarkEngine
import HarkExtensions
import HarkIntents
import Logging
import Testing
import HarkTestSupport

/// Real extension processes (python3 and sh scripts written for each test)
/// driven through the protocol: well-behaved ones, and ones that crash,
/// hang, never handshake, print garbage or answer the wrong id.
@Suite("Intents extension processes")
struct ExtensionProcessTests {
    /// One Python extension whose behaviour the first argument picks.
    static let script = #"""
    import json, os, sys, time
    mode = sys.argv[1]
    marker = os.path.join(os.environ["HARK_APP_DATA_DIR"], "started-before")
    first_run = not os.path.exists(marker)
    open(marker, "a").close()
    def send(message): print(json.dumps(message), flush=True)
    if mode == "silent":
        time.sleep(600)
    if mode == "old-version":
        send({"hark_extension": 99, "intents": ["orderDrink"]})
    stages = ["handle"] if mode == "handle-only" else ["resolve", "confirm", "handle"]
    send({"hark_extension": 1, "intents": ["orderDrink"], "stages": stages})
    for line in sys.stdin:
        request = json.loads(line)
        p = request["intent"]["parameters"]
        if mode == "crash-once" and first_run:
            sys.stderr.write("about to crash\n"); sys.stderr.flush()
            os._exit(3)
        if mode == "hang-once" and first_run:
            time.sleep(60)
        if mode == "garbage":
            print("this is not json", flush=True); continue
        if mode == "wrong-id":
            send({"id": request["id"] + 7, "code": "success"}); continue
        if request["type"] == "resolve":
            if request["parameter"] == "size" and "size" not in p:
                answer = {"result": "needsValue"}
            elif request["parameter"] == "size" and p["size"] == "huge":
                answer = {"result": "disambiguation", "options": ["large", "extra large"]}
            else:
                answer = {"result": "default"}
        elif request["type"] == "confirm":
            answer = {"code": "ready"}
        else:
            answer = {"code": "success", "speech": "Your " + p["size"] + " " + p["coffeeDrink"] + " is coming.",
                      "output": {"order": 7, "env": os.environ["HARK_APP_NAME"]}}
        answer["id"] = request["id"]
        send(answer)
    """#

    static func intent(_ parameters: [String: String]) -> Intent {
        Intent(app: "Barista", name: "orderDrink", parameters: parameters.mapValues { ParameterValue($0) })
    }

    /// An extension process in a fresh app folder running `command`.
    static func process(_ command: [String], handshakeTimeout: Duration = .seconds(10)) throws -> ExtensionProcess {
        let folder = try Scratch.directory("ext")
        try script.write(to: folder.appendingPathComponent("ext.py"), atomically: true, encoding: .utf8)
        var logger = Logger(label: "hark.extension.test")
        logger.logLevel = .critical  // the tests check the errors themselves
        return ExtensionProcess(app: "Barista", command: command, folder: folder,
                                dataDirectory: folder.appendingPathComponent("data"), handshakeTimeout: handshakeTimeout,
                                logger: logger)
    }

    static func handler(_ process: ExtensionProcess, timeout: Duration = .seconds(10)) -> ExtensionHandler {
        ExtensionHandler(process: process, timeout: timeout)
    }

    @Test("a well-behaved extension resolves, confirms and handles through the protocol")
    func wellBehaved() async throws {
        let process = try Self.process(["python3", "ext.py", "normal"])
        let handler = Self.handler(process)
        let latte = Self.intent(["coffeeDrink": "latte", "size": "large"])
        #expect(try await handler.resolve("size", of: Self.intent(["coffeeDrink": "latte"])) == .needsValue)
        #expect(try await handler.resolve("size", of: latte) == .byDefault)
        #expect(try await handler.resolve("size", of: Self.intent(["coffeeDrink": "latte", "size": "huge"]))
            == .disambiguation(with: [ParameterValue("large"), ParameterValue("extra large")]))
        // "default": the engine applies SiriKit's default.
        #expect(try await handler.resolve("roast", of: latte) == .byDefault)
        #expect(try await handler.confirm(latte).code == .ready)
        let response = try await handler.handle(latte)
        #expect(response.code == .success)
        #expect(response.message == "Your large latte is coming.")
        #expect(response.output == ["order": "7", "env": "Barista"])
        await process.shutdown()
    }

    @Test("stages the handshake leaves out get SiriKit's defaults")
    func handleOnly() async throws {
        let handler = Self.handler(try Self.process(["python3", "ext.py", "handle-only"]))
        #expect(try await handler.resolve("size", of: Self.intent(["coffeeDrink": "latte"])) == .byDefault)
        #expect(try await handler.confirm(Self.intent(["coffeeDrink": "latte", "size": "small"])).code == .ready)
        #expect(try await handler.handle(Self.intent(["coffeeDrink": "latte", "size": "small"])).message == "Your small latte is coming.")
        await handler.process.shutdown()
    }

    @Test("an extension that crashes fails the request with its exit status and stderr, and is started again")
    func crash() async throws {
        let handler = Self.handler(try Self.process(["python3", "ext.py", "crash-once"]))
        let latte = Self.intent(["coffeeDrink": "latte", "size": "large"])
        let error = try await #require(throws: ExtensionError.self) { try await handler.handle(latte) }
        #expect(error.kind == .exited)
        #expect(error.description.contains("status 3"))
        #expect(error.stderrTail.contains("about to crash"))
        #expect(error.spokenSentence(app: "Barista") == "Sorry, Barista isn't responding.")
        #expect(try await handler.handle(latte).message == "Your large latte is coming.")
        await handler.process.shutdown()
    }

    @Test("an extension that hangs is stopped at the time limit and started again for the next request")
    func hang() async throws {
        let handler = Self.handler(try Self.process(["python3", "ext.py", "hang-once"]), timeout: .milliseconds(700))
        let latte = Self.intent(["coffeeDrink": "latte", "size": "large"])
        let error = try await #require(throws: ExtensionError.self) { try await handler.handle(latte) }
        #expect(error.kind == .timedOut)
        #expect(try await handler.handle(latte).message == "Your large latte is coming.")
        await handler.process.shutdown()
    }

    @Test("garbage and a wrong id are protocol errors naming what was printed")
    func garbage() async throws {
        let latte = Self.intent(["coffeeDrink": "latte", "size": "large"])
        let garbage = Self.handler(try Self.process(["python3", "ext.py", "garbage"]))
        let error = try await #require(throws: ExtensionError.self) { try await garbage.handle(latte) }
        #expect(error.kind == .garbage)
        #expect(error.description.contains("this is not json"))
        await garbage.process.shutdown()

        let wrong = Self.handler(try Self.process(["python3", "ext.py", "wrong-id"]))
        let wrongError = try await #require(throws: ExtensionError.self) { try await wrong.handle(latte) }
        #expect(wrongError.kind == .wrongID)
        #expect(wrongError.description.contains("answered with id 8 while request 1 was waiting"))
        await wrong.process.shutdown()
    }

    @Test("no handshake, another protocol version, or a missing program are clear errors")
    func handshakes() async throws {
        let latte = Self.intent(["coffeeDrink": "latte", "size": "large"])
        let silent = Self.handler(try Self.process(["python3", "ext.py", "silent"], handshakeTimeout: .milliseconds(600)))
        let silentError = try await #require(throws: ExtensionError.self) { try await silent.handle(latte) }
        #expect(silentError.kind == .handshake)
        #expect(silentError.description.contains("printed no handshake line"))
        await silent.process.shutdown()

        let old = Self.handler(try Self.process(["python3", "ext.py", "old-version"]))
        let oldError = try await #require(throws: ExtensionError.self) { try await old.handle(latte) }
        #expect(oldError.description.contains("protocol version 99; this Hark speaks 1"))

        let missing = Self.handler(try Self.process(["no-such-program-hark", "x"]))
        let missingError = try await #require(throws: ExtensionError.self) { try await missing.handle(latte) }
        #expect(missingError.kind == .couldNotStart)
        #expect(missingError.description.contains("'no-such-program-hark' was not found on PATH"))
    }

    @Test("a shell script that answers one request and exits is started for each request")
    func oneShotScript() async throws {
        let process = try Self.process(["sh", "-c", #"""
            echo '{"hark_extension": 1, "intents": ["orderDrink"], "stages": ["handle"]}'
            read -r request
            id=$(printf '%s' "$request" | sed 's/.*"id":\([0-9]*\).*/\1/')
            echo "{\"id\": $id, \"code\": \"success\", \"speech\": \"Shell order $id.\"}"
            """#])
        let handler = Self.handler(process)
        let latte = Self.intent(["coffeeDrink": "latte", "size": "large"])
        #expect(try await handler.handle(latte).message == "Shell order 1.")
        #expect(try await handler.handle(latte).message == "Shell order 2.")
        await process.shutdown()
    }

    /// A shell script that answers one request, noting its id in the data
    /// folder's `handled`, and then runs `afterAnswering` before it exits.
    static func oneShotScript(afterAnswering: String) -> [String] {
        ["sh", "-c", #"""
            echo '{"hark_extension": 1, "intents": ["orderDrink"], "stages": ["handle"]}'
            read -r request
            id=$(printf '%s' "$request" | sed 's/.*"id":\([0-9]*\).*/\1/')
            echo "$id" >> "$HARK_APP_DATA_DIR/handled"
            echo "{\"id\": $id, \"code\": \"success\", \"speech\": \"Shell order $id.\"}"
            """# + "\n" + afterAnswering]
    }

    /// Three orders to `process` are each answered, and each handled once.
    static func expectThreeOrdersHandledOnce(by process: ExtensionProcess) async throws {
        let handler = Self.handler(process)
        let latte = Self.intent(["coffeeDrink": "latte", "size": "large"])
        for order in 1...3 {
            #expect(try await handler.handle(latte).message == "Shell order \(order).")
        }
        await process.shutdown()
        let handled = try String(contentsOf: await process.dataDirectory.appendingPathComponent("handled"), encoding: .utf8)
        #expect(handled == "1\n2\n3\n")
    }

    @Test("a one-shot script still exiting when the next request comes never reads it: a new process gets it, and nothing is done twice")
    func oneShotStillExiting() async throws {
        // It answers, then takes half a second to exit: the next request is
        // sent while it still runs, and it exits without reading it.
        try await Self.expectThreeOrdersHandledOnce(by: Self.process(Self.oneShotScript(afterAnswering: "sleep 0.5")))
    }

    @Test("a one-shot process whose output ends before it lets go of its input still gets no request it never read")
    func outputEndsBeforeInput() async throws {
        // An exiting process releases its files last-opened first: its
        // output reports its end before its unread input is released (and
        // marked unread). Here the gap is made wide: it closes its output
        // after answering and exits a tenth of a second later.
        try await Self.expectThreeOrdersHandledOnce(by: Self.process(Self.oneShotScript(afterAnswering: "exec >&-\nsleep 0.1")))
    }

    @Test("an extension that reads a request and then dies is not sent it again")
    func readThenDie() async throws {
        let process = try Self.process(["sh", "-c", #"""
            echo '{"hark_extension": 1, "intents": ["orderDrink"], "stages": ["handle"]}'
            read -r request
            echo x >> "$HARK_APP_DATA_DIR/read"
            exit 0
            """#])
        let handler = Self.handler(process)
        let latte = Self.intent(["coffeeDrink": "latte", "size": "large"])
        let error = try await #require(throws: ExtensionError.self) { try await handler.handle(latte) }
        #expect(error.kind == .exited)
        await process.shutdown()
        let read = try String(contentsOf: await process.dataDirectory.appendingPathComponent("read"), encoding: .utf8)
        #expect(read == "x\n")
    }
}
