#!/usr/bin/env python3
"""Generates Hark's typed SiriKit intents and their handling protocols from one
spec, so the 30 intents stay consistent: the typed struct and its
IntentDescription (HarkIntents), the handling protocol with optional
resolve<Parameter>/confirm and required handle, and the bridge the engine
drives (HarkEngine).

    python3 scripts/generate-intents.py             # rewrites the two *.generated.swift files
    python3 scripts/generate-intents.py --out DIR   # writes them under DIR instead (same paths)

The generated files are checked in; a test (GeneratedCodeTests) regenerates
them into a temporary folder and fails on any difference, so edit this spec,
not them.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Swift type → ParameterKind expression
KIND = {
    "INPerson": ".person",
    "String": ".text",
    "INCurrencyAmount": ".currencyAmount",
    "INDateTime": ".dateTime",
    "INWorkoutGoal": ".workoutGoal",
    "Int": ".number",
}


def P(name, type, prompt, doc, required=False, vocabulary=None):
    kind = f'.vocabulary("{vocabulary}")' if vocabulary else KIND[type]
    return dict(name=name, type=type, prompt=prompt, doc=doc, required=required, kind=kind)


def I(name, doc, params, success, failure, confirmation=None, examples=(), progress=None):
    return dict(name=name, doc=doc, params=params, success=success, failure=failure,
                confirmation=confirmation, examples=list(examples), progress=progress)


DOMAINS = [
    ("Messaging", [
        I("INSendMessageIntent", "Sends a message to a contact.", [
            P("recipients", "INPerson", "Who do you want to message?", "Who gets the message: one of the app's contacts.", True),
            P("content", "String", "What do you want to say to {recipients}?", "The message text, as dictated.", True),
        ], "Your message to {recipients} was sent.", "Sorry, your message to {recipients} could not be sent.",
          confirmation="Your message to {recipients} says: {content}. Ready to send it?",
          examples=["Send a message to Bobo on {app}", "{app} Bobo please send more bananas"]),
        I("INSearchForMessagesIntent", "Finds messages, optionally from one sender or with an attribute.", [
            P("senders", "INPerson", "Whose messages do you want?", "Only messages from this contact."),
            P("attributes", "INMessageAttribute", "Which messages do you want?", "Only messages with this attribute (read, unread, flagged).", vocabulary="messageAttribute"),
        ], "Here's what I found.", "Sorry, I couldn't search your messages.",
          examples=["Show my messages from Bobo on {app}", "Read my unread messages in {app}"]),
        I("INSetMessageAttributeIntent", "Marks messages as read, unread, flagged or unflagged.", [
            P("attribute", "INMessageAttribute", "How do you want to mark it?", "What to mark the messages as.", True, vocabulary="messageAttribute"),
            P("sender", "INPerson", "Whose message?", "Which messages: those from this contact (Hark's stand-in for SiriKit's message identifiers)."),
        ], "Done, marked as {attribute}.", "Sorry, I couldn't change that message.",
          examples=["Mark my messages from Bobo as read in {app}"]),
    ]),
    ("VoIP Calling", [
        I("INStartAudioCallIntent", "Starts an audio call.", [
            P("contacts", "INPerson", "Who do you want to call?", "Who to call.", True),
        ], "Calling {contacts}.", "Sorry, I couldn't call {contacts}.", examples=["Call Bobo on {app}"]),
        I("INStartVideoCallIntent", "Starts a video call.", [
            P("contacts", "INPerson", "Who do you want to video call?", "Who to call.", True),
        ], "Starting a video call with {contacts}.", "Sorry, I couldn't video call {contacts}.",
          examples=["Video call Bobo on {app}"]),
        I("INSearchCallHistoryIntent", "Finds calls in the call history.", [
            P("callTypes", "INCallRecordType", "Which calls?", "Missed, received or outgoing calls.", vocabulary="callRecordType"),
            P("recipient", "INPerson", "Calls with whom?", "Only calls with this contact."),
        ], "Here are your calls.", "Sorry, I couldn't read your call history.",
          examples=["Show my missed calls on {app}"]),
    ]),
    ("Ride Booking", [
        I("INRequestRideIntent", "Books a ride.", [
            P("pickupLocation", "String", "Where should the driver pick you up?", "Where to be picked up; the current location when not given.", vocabulary="place"),
            P("dropOffLocation", "String", "Where do you want to go?", "Where to go.", True, vocabulary="place"),
            P("rideOptionName", "String", "Which kind of ride?", "The kind of ride, one of the app's ride options.", vocabulary="rideOption"),
            P("partySize", "Int", "How many people?", "How many people ride."),
        ], "Your ride to {dropOffLocation} is booked.", "Sorry, I couldn't book that ride.",
          confirmation="Book a ride to {dropOffLocation}?",
          examples=["Get me a ride to the airport with {app}"]),
        I("INGetRideStatusIntent", "Tells the status of the current ride.", [],
          "Here's your ride.", "Sorry, I couldn't get your ride's status.", examples=["Where is my {app} ride"]),
        I("INListRideOptionsIntent", "Lists the kinds of ride available for a trip.", [
            P("pickupLocation", "String", "Where from?", "Where the ride starts; the current location when not given.", vocabulary="place"),
            P("dropOffLocation", "String", "Where do you want to go?", "Where the ride goes.", True, vocabulary="place"),
        ], "Here are the rides to {dropOffLocation}.", "Sorry, I couldn't find rides.",
          examples=["What rides can {app} get me to the zoo"]),
        I("INCancelRideIntent", "Cancels the current ride.", [],
          "Your ride is cancelled.", "Sorry, I couldn't cancel your ride.", confirmation="Cancel your ride?",
          examples=["Cancel my {app} ride"]),
        I("INSendRideFeedbackIntent", "Rates the last ride, optionally with a tip.", [
            P("rating", "Int", "How many stars out of five?", "Stars, one to five.", True),
            P("tip", "INCurrencyAmount", "How much do you want to tip?", "A tip for the driver."),
        ], "Thanks, your feedback was sent.", "Sorry, I couldn't send your feedback.",
          examples=["Rate my {app} ride five stars"]),
    ]),
    ("Workouts", [
        I("INStartWorkoutIntent", "Starts a workout.", [
            P("workoutName", "String", "Which workout?", "The workout, one of the app's workout names.", True, vocabulary="workoutActivityName"),
            P("goal", "INWorkoutGoal", "What's your goal?", "How long or how far (SiriKit's goalValue and workoutGoalUnitType)."),
            P("workoutLocationType", "INWorkoutLocationType", "Indoor or outdoor?", "Indoor or outdoor.", vocabulary="workoutLocationType"),
        ], "Your {workoutName} workout has started.", "Sorry, I couldn't start your workout.",
          examples=["Start a Bananarific workout with {app}", "Start a run for thirty minutes in {app}"]),
        I("INPauseWorkoutIntent", "Pauses the current workout.", [
            P("workoutName", "String", "Which workout?", "The workout; the current one when not given.", vocabulary="workoutActivityName"),
        ], "Your workout is paused.", "Sorry, I couldn't pause your workout.", examples=["Pause my workout in {app}"]),
        I("INResumeWorkoutIntent", "Resumes the paused workout.", [
            P("workoutName", "String", "Which workout?", "The workout; the paused one when not given.", vocabulary="workoutActivityName"),
        ], "Your workout is back on.", "Sorry, I couldn't resume your workout.", examples=["Resume my workout in {app}"]),
        I("INEndWorkoutIntent", "Ends the current workout, keeping it.", [
            P("workoutName", "String", "Which workout?", "The workout; the current one when not given.", vocabulary="workoutActivityName"),
        ], "Your workout has ended.", "Sorry, I couldn't end your workout.", examples=["End my workout in {app}"]),
        I("INCancelWorkoutIntent", "Cancels the current workout, discarding it.", [
            P("workoutName", "String", "Which workout?", "The workout; the current one when not given.", vocabulary="workoutActivityName"),
        ], "Your workout is cancelled.", "Sorry, I couldn't cancel your workout.", examples=["Cancel my workout in {app}"]),
    ]),
    ("Photos", [
        I("INSearchForPhotosIntent", "Finds photos by album, person, place or date.", [
            P("albumName", "String", "Which album?", "An album, one of the app's album names.", vocabulary="photoAlbumName"),
            P("peopleInPhoto", "INPerson", "Photos of whom?", "Someone in the photos."),
            P("locationCreated", "String", "Taken where?", "Where the photos were taken.", vocabulary="place"),
            P("dateCreated", "INDateTime", "Taken when?", "When the photos were taken."),
        ], "Here are your photos.", "Sorry, I couldn't search your photos.", examples=["Show my photos of Bobo in {app}"]),
        I("INStartPhotoPlaybackIntent", "Plays photos as a slide show.", [
            P("albumName", "String", "Which album?", "An album, one of the app's album names.", vocabulary="photoAlbumName"),
            P("peopleInPhoto", "INPerson", "Photos of whom?", "Someone in the photos."),
            P("locationCreated", "String", "Taken where?", "Where the photos were taken.", vocabulary="place"),
            P("dateCreated", "INDateTime", "Taken when?", "When the photos were taken."),
        ], "Playing your photos.", "Sorry, I couldn't play your photos.", examples=["Play a slide show of my vacation album in {app}"]),
    ]),
    ("Payments", [
        I("INSendPaymentIntent", "Pays a contact.", [
            P("payee", "INPerson", "Who do you want to pay?", "Who gets the money.", True),
            P("currencyAmount", "INCurrencyAmount", "How much do you want to send to {payee}?", "How much.", True),
            P("note", "String", "What's it for?", "What the payment is for."),
        ], "Sent {currencyAmount} to {payee}.", "Sorry, the payment to {payee} didn't go through.",
          confirmation="Send {currencyAmount} to {payee}?",
          examples=["Send Bobo twenty dollars with {app}", "Pay Bobo five dollars for bananas on {app}"]),
        I("INRequestPaymentIntent", "Asks a contact for money.", [
            P("payer", "INPerson", "Who do you want to ask for money?", "Who is asked to pay.", True),
            P("currencyAmount", "INCurrencyAmount", "How much do you want to request from {payer}?", "How much.", True),
            P("note", "String", "What's it for?", "What the money is for."),
        ], "Requested {currencyAmount} from {payer}.", "Sorry, the request to {payer} didn't go through.",
          confirmation="Request {currencyAmount} from {payer}?",
          examples=["Request ten dollars from Bobo on {app}"]),
        I("INSearchForAccountsIntent", "Tells account balances.", [
            P("accountNickname", "String", "Which account?", "An account, one of the app's account nicknames.", vocabulary="paymentsAccountNickname"),
            P("accountType", "INAccountType", "Which kind of account?", "Checking, savings, credit.", vocabulary="accountType"),
        ], "Here are your accounts.", "Sorry, I couldn't look up your accounts.",
          examples=["What's my balance on {app}"]),
        I("INTransferMoneyIntent", "Moves money between the person's own accounts.", [
            P("fromAccount", "String", "From which account?", "Where the money comes from.", True, vocabulary="paymentsAccountNickname"),
            P("toAccount", "String", "To which account?", "Where the money goes.", True, vocabulary="paymentsAccountNickname"),
            P("transactionAmount", "INCurrencyAmount", "How much do you want to transfer?", "How much.", True),
        ], "Moved {transactionAmount} from {fromAccount} to {toAccount}.", "Sorry, the transfer didn't go through.",
          confirmation="Transfer {transactionAmount} from {fromAccount} to {toAccount}?",
          examples=["Transfer fifty dollars from checking to savings on {app}"]),
    ]),
    ("Lists and Notes", [
        I("INCreateNoteIntent", "Creates a note.", [
            P("title", "String", "What do you want to call it?", "The note's title, as dictated."),
            P("content", "String", "What do you want it to say?", "The note's text, as dictated.", True),
        ], "I made a note.", "Sorry, I couldn't make that note.", examples=["Make a note saying buy bananas in {app}"]),
        I("INAppendToNoteIntent", "Adds text to an existing note.", [
            P("targetNote", "String", "Which note?", "The note, one of the app's note titles.", True, vocabulary="notebookItemTitle"),
            P("content", "String", "What do you want to add?", "The text to add, as dictated.", True),
        ], "I added that to {targetNote}.", "Sorry, I couldn't add to {targetNote}.",
          examples=["Add bananas to my shopping note in {app}"]),
        I("INAddTasksIntent", "Adds tasks to a list, or a reminder.", [
            P("targetTaskList", "String", "Which list?", "The list, one of the app's list titles; a new reminder when not given.", vocabulary="notebookItemTitle"),
            P("taskTitles", "String", "What do you want to add?", "The tasks, as dictated ('apples, bananas and pears').", True),
            P("temporalEventTrigger", "INDateTime", "When?", "When to remind."),
        ], "Added {taskTitles}.", "Sorry, I couldn't add that.",
          examples=["Add WWDC to the training list in {app}", "Remind me to leave home at eight am in {app}"]),
        I("INCreateTaskListIntent", "Creates a list, optionally with tasks.", [
            P("title", "String", "What do you want to call the list?", "The list's title, as dictated.", True),
            P("taskTitles", "String", "What goes on it?", "The tasks, as dictated."),
        ], "I made the {title} list.", "Sorry, I couldn't make that list.",
          examples=["Make a grocery list with apples, bananas and pears in {app}"]),
        I("INSetTaskAttributeIntent", "Marks a task done or not done.", [
            P("targetTask", "String", "Which task?", "The task, one of the app's item titles.", True, vocabulary="notebookItemTitle"),
            P("status", "INTaskStatus", "Done or not done?", "Completed or not completed.", True, vocabulary="taskStatus"),
        ], "Marked {targetTask} as {status}.", "Sorry, I couldn't change that task.",
          examples=["Mark buy iPhone as completed in {app}"]),
        I("INSearchForNotebookItemsIntent", "Finds a note, list or task.", [
            P("title", "String", "What are you looking for?", "The title, one of the app's item titles.", True, vocabulary="notebookItemTitle"),
            P("itemType", "INNotebookItemType", "A note, a list or a task?", "What kind of item.", vocabulary="notebookItemType"),
        ], "Here's {title}.", "Sorry, I couldn't find that.",
          examples=["Show me my grocery list in {app}", "Search for the store list in {app}"]),
    ]),
    ("Visual Codes", [
        I("INGetVisualCodeIntent", "Shows a QR code (to pay, be paid, or share a contact).", [
            P("visualCodeType", "INVisualCodeType", "Which code?", "What the code is for.", vocabulary="visualCodeType"),
        ], "Here's your code.", "Sorry, I couldn't make your code.",
          examples=["Show my payment code in {app}"]),
    ]),
]


def cap(s):
    return s[0].upper() + s[1:]


def swift_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gen_intents():
    out = ["// Generated by scripts/generate-intents.py; edit the spec there, not this file.", "",
           "/// Every SiriKit intent Hark knows: typed structs and the descriptions the engine asks with."]
    all_names = []
    for domain, intents in DOMAINS:
        out.append(f"\n// MARK: - {domain}\n")
        for it in intents:
            n = it["name"]
            all_names.append(n)
            out.append(f"/// {it['doc']}")
            out.append(f"///")
            out.append(f"/// Domain: {domain}. Parameters resolve in this order: " +
                       (", ".join(f"`{p['name']}`" for p in it["params"]) or "none") + ".")
            out.append(f"public struct {n}: TypedIntent, Hashable {{")
            params = []
            for p in it["params"]:
                params.append(f"""            ParameterDescription(name: {swift_string(p['name'])}, kind: {p['kind']}, prompt: {swift_string(p['prompt'])},
                                 required: {str(p['required']).lower()}, type: {swift_string(p['type'])}, documentation: {swift_string(p['doc'])})""")
            out.append(f"""    public static let intentDescription = IntentDescription(
        name: {swift_string(n)},
        domain: {swift_string(domain)},
        parameters: [
{(','+chr(10)).join(params)}
        ],
        confirmation: {swift_string(it['confirmation']) if it['confirmation'] else 'nil'},
        successSpeech: {swift_string(it['success'])},
        failureSpeech: {swift_string(it['failure'])},
        examples: [{', '.join(swift_string(e) for e in it['examples'])}],
        summary: {swift_string(it['doc'])}
    )
""")
            for p in it["params"]:
                out.append(f"    /// {p['doc']}")
                out.append(f"    public var {p['name']}: {p['type']}?")
            args = ", ".join(f"{p['name']}: {p['type']}? = nil" for p in it["params"])
            out.append("")
            out.append(f"    public init({args}) {{")
            for p in it["params"]:
                out.append(f"        self.{p['name']} = {p['name']}")
            out.append("    }")
            out.append("")
            out.append("    /// The typed view of a generic intent; values that do not convert are left nil.")
            out.append("    public init(_ intent: Intent) {")
            for p in it["params"]:
                out.append(f"        {p['name']} = intent[{swift_string(p['name'])}].flatMap({p['type']}.init(parameter:))")
            out.append("    }")
            out.append("")
            out.append("    public var parameters: [String: ParameterValue] {")
            if it["params"]:
                out.append("        var parameters: [String: ParameterValue] = [:]")
                for p in it["params"]:
                    out.append(f"        if let {p['name']} {{ parameters[{swift_string(p['name'])}] = {p['name']}.parameter }}")
                out.append("        return parameters")
            else:
                out.append("        [:]")
            out.append("    }")
            out.append("}\n")
    out.append("extension Domains {")
    out.append("    /// Every intent description, by SiriKit name.")
    out.append("    public static let all: [String: IntentDescription] = Dictionary(uniqueKeysWithValues: [")
    for n in all_names:
        out.append(f"        {n}.intentDescription,")
    out.append("    ].map { ($0.name, $0) })")
    out.append("")
    out.append("    /// The SiriKit domains and their intents, in the order SiriKit lists them.")
    out.append("    public static let domains: [(domain: String, intents: [String])] = [")
    for domain, intents in DOMAINS:
        out.append(f"        ({swift_string(domain)}, [{', '.join(swift_string(i['name']) for i in intents)}]),")
    out.append("    ]")
    out.append("}")
    return "\n".join(out) + "\n"


def gen_handling():
    out = ["// Generated by scripts/generate-intents.py; edit the spec there, not this file.", "", "import HarkIntents", ""]
    for domain, intents in DOMAINS:
        out.append(f"// MARK: - {domain}\n")
        for it in intents:
            n = it["name"]
            proto = n + "Handling"
            out.append(f"/// An app's logic for ``{n}``: {it['doc'][0].lower() + it['doc'][1:]}")
            out.append("///")
            out.append("/// `resolve…` and `confirm` are optional (the defaults accept a given value, ask for a")
            out.append("/// missing required one, and answer `ready`); `handle` is required. The engine calls")
            out.append(f"/// them in order through ``{n}/handler(_:)``.")
            out.append(f"public protocol {proto}: Sendable {{")
            for p in it["params"]:
                out.append(f"    /// Decides whether `intent.{p['name']}` is right ({p['doc']})")
                out.append(f"    func resolve{cap(p['name'])}(for intent: {n}) async throws -> Resolution<{p['type']}>")
            out.append("    /// Checks the request can be carried out: `ready`, or why not.")
            out.append(f"    func confirm(intent: {n}) async throws -> IntentResponse")
            out.append("    /// Carries the request out. Never answers `ready`.")
            out.append(f"    func handle(intent: {n}) async throws -> IntentResponse")
            out.append("}\n")
            out.append(f"extension {proto} {{")
            for p in it["params"]:
                out.append(f"    public func resolve{cap(p['name'])}(for intent: {n}) async throws -> Resolution<{p['type']}> {{")
                out.append(f"        .byDefault(intent.{p['name']}, required: {str(p['required']).lower()})")
                out.append("    }")
            out.append(f"    public func confirm(intent: {n}) async throws -> IntentResponse {{ IntentResponse(code: .ready) }}")
            out.append("}\n")
            out.append(f"extension {n} {{")
            out.append(f"    /// `handler` as the engine drives it: parameter names to typed `resolve…` calls.")
            out.append(f"    public static func handler(_ handler: some {proto}) -> any IntentHandler {{")
            out.append(f"        {n}Bridge(handler: handler)")
            out.append("    }")
            out.append("}\n")
            out.append(f"struct {n}Bridge<Handler: {proto}>: IntentHandler {{")
            out.append("    let handler: Handler")
            out.append(f"    var intentName: String? {{ {swift_string(n)} }}")
            out.append("    func resolve(_ parameter: String, of intent: Intent) async throws -> ResolutionResult {")
            if it["params"]:
                out.append(f"        let typed = {n}(intent)")
                out.append("        switch parameter {")
                for p in it["params"]:
                    out.append(f"        case {swift_string(p['name'])}: return try await handler.resolve{cap(p['name'])}(for: typed).erased")
                out.append("        default: return .notRequired")
                out.append("        }")
            else:
                out.append("        .notRequired")
            out.append("    }")
            out.append(f"    func confirm(_ intent: Intent) async throws -> IntentResponse {{ try await handler.confirm(intent: {n}(intent)) }}")
            out.append(f"    func handle(_ intent: Intent) async throws -> IntentResponse {{ try await handler.handle(intent: {n}(intent)) }}")
            out.append("}\n")
    return "\n".join(out)


def main(arguments):
    out = ROOT
    if arguments[:1] == ["--out"] and len(arguments) == 2:
        out = arguments[1]
    elif arguments:
        sys.exit("usage: generate-intents.py [--out DIR]")
    for path, text in [("Sources/HarkIntents/Intents.generated.swift", gen_intents()),
                       ("Sources/HarkEngine/Handling.generated.swift", gen_handling())]:
        target = os.path.join(out, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
