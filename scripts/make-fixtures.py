#!/usr/bin/env python3
"""Synthesises Hark's audio fixtures and their manifest.

Each case is spoken by one or more voices (espeak-ng at three rates and
accents, flite's slt and rms, festival's kal diphone voice) into
audio-fixtures/<voice>/<id>.wav as 16 kHz mono 16-bit WAV with 0.4 s of
silence either side, and described by one line of audio-fixtures/manifest.jsonl:
  {"audio": path relative to the manifest, "text", "app", "intent", "slots",
   "voice", "set"}
Conversations (several turns) list one line per turn with "conversation",
"turn" and "code" keys; "slots" then describe the state after that turn.
Out-of-grammar sentences have "intent": null: Hark must not understand them.

Sets: "core" (MonkeyChat, every voice: what the pipeline tests replay),
"domains" (every SiriKit intent a sample app handles, three voices each),
"seeds" (the issue's seed conversations, two voices each) and
"out-of-grammar" (two voices each).

The labels are written out below, by hand. `--check` reads each case's text
through `hark converse --json` (typed, fresh data each) and fails if the
typed parse disagrees with a label: a grammar change that alters what a
sentence means shows up here before it shows up as a recognition error.

Usage: scripts/make-fixtures.py [--check]   (needs espeak-ng, flite, festival, sox)
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "audio-fixtures")
HARK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "debug", "hark")

# Voices: folder -> synthesiser command builder. Text is passed as an
# argument list (festival: on standard input), never through a shell.
VOICES = {
    "espeak-us": lambda text, out: (["espeak-ng", "-v", "en-us", "-s", "160", "-w", out, text], None),
    "espeak-gb": lambda text, out: (["espeak-ng", "-v", "en-gb", "-s", "150", "-w", out, text], None),
    "espeak-rp-fast": lambda text, out: (["espeak-ng", "-v", "en-gb-x-rp", "-s", "190", "-w", out, text], None),
    "flite-slt": lambda text, out: (["flite", "-voice", "slt", "-t", text, "-o", out], None),
    "flite-rms": lambda text, out: (["flite", "-voice", "rms", "-t", text, "-o", out], None),
    "festival-kal": lambda text, out: (["text2wave", "-o", out, "-eval", "(voice_kal_diphone)"], text),
}
CORE_VOICES = ["espeak-us", "espeak-gb", "flite-slt", "flite-rms"]
# Voices for the other sets, taken in turn so each voice gets its share.
ROTATION = ["espeak-us", "flite-slt", "festival-kal", "espeak-rp-fast", "flite-rms", "espeak-gb"]

MSG = "INSendMessageIntent"
CORE = [
    # id, text, app, intent, slots
    ("monkeychat-send-bobo-bananas",
     "Send a message to Bobo on MonkeyChat saying please send more bananas",
     "MonkeyChat", MSG, {"recipients": "Bobo", "content": "please send more bananas"}),
    ("monkeychat-verb-bobo-bananas",
     "MonkeyChat Bobo please send more bananas",
     "MonkeyChat", MSG, {"recipients": "Bobo", "content": "please send more bananas"}),
    ("monkeychat-little-bobo",
     "Send a text to Little Bobo on MonkeyChat saying see you at the tree",
     "MonkeyChat", MSG, {"recipients": "Little Bobo", "content": "see you at the tree"}),
    ("monkeychat-bobo-great",
     "Tell Bobo the Great on MonkeyChat that the banana was great",
     "MonkeyChat", MSG, {"recipients": "Bobo the Great", "content": "the banana was great"}),
]

# Multi-turn conversations: (id, [(text, app, intent, slots after the turn, code)])
CORE_CONVERSATIONS = [
    ("monkeychat-ask-content", [
        ("Send a message to Bobo on MonkeyChat", "MonkeyChat", MSG, {"recipients": "Bobo"}, "prompt"),
        # Complete: the message is read back before it is sent.
        ("Please send more bananas", "MonkeyChat", MSG,
         {"recipients": "Bobo", "content": "please send more bananas"}, "prompt"),
    ]),
]

# One case per SiriKit intent that a sample app handles (the photo intents
# have no sample app yet).
DOMAINS = [
    ("send-message", "Send a message to Bobo Jr. on MonkeyChat saying see you soon", "MonkeyChat", MSG,
     {"recipients": "Bobo Jr.", "content": "see you soon"}),
    ("search-messages", "Show my messages from Bobo on MonkeyChat", "MonkeyChat", "INSearchForMessagesIntent", {"senders": "Bobo"}),
    ("mark-read", "Mark my messages from Bobo as read in MonkeyChat", "MonkeyChat", "INSetMessageAttributeIntent",
     {"attribute": "read", "sender": "Bobo"}),
    ("audio-call", "Call Little Bobo on MonkeyChat", "MonkeyChat", "INStartAudioCallIntent", {"contacts": "Little Bobo"}),
    ("video-call", "Video call Bobo the Great on MonkeyChat", "MonkeyChat", "INStartVideoCallIntent", {"contacts": "Bobo the Great"}),
    ("missed-calls", "Show my missed calls on MonkeyChat", "MonkeyChat", "INSearchCallHistoryIntent", {"callTypes": "missed"}),
    ("request-ride", "Get me a ride to the airport with MonkeyRide", "MonkeyRide", "INRequestRideIntent", {"dropOffLocation": "the airport"}),
    ("ride-status", "Where is my MonkeyRide ride", "MonkeyRide", "INGetRideStatusIntent", {}),
    ("ride-options", "What rides can MonkeyRide get me to the zoo", "MonkeyRide", "INListRideOptionsIntent", {"dropOffLocation": "the zoo"}),
    ("cancel-ride", "Cancel my MonkeyRide ride", "MonkeyRide", "INCancelRideIntent", {}),
    ("ride-feedback", "Rate my MonkeyRide ride five stars", "MonkeyRide", "INSendRideFeedbackIntent", {"rating": "5"}),
    ("start-workout", "Start a Bananarific workout with MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", {"workoutName": "Bananarific"}),
    ("pause-workout", "Pause my workout in MonkeyFit", "MonkeyFit", "INPauseWorkoutIntent", {}),
    ("resume-workout", "Resume my workout in MonkeyFit", "MonkeyFit", "INResumeWorkoutIntent", {}),
    ("end-workout", "End my workout in MonkeyFit", "MonkeyFit", "INEndWorkoutIntent", {}),
    ("cancel-workout", "Cancel my workout in MonkeyFit", "MonkeyFit", "INCancelWorkoutIntent", {}),
    ("send-payment", "Send Bobo twenty dollars with MonkeyPay", "MonkeyPay", "INSendPaymentIntent",
     {"payee": "Bobo", "currencyAmount": "20 USD"}),
    ("request-payment", "Request fifteen dollars from Zuzu with MonkeyPay", "MonkeyPay", "INRequestPaymentIntent",
     {"payer": "Zuzu", "currencyAmount": "15 USD"}),
    ("balance", "What's my balance in MonkeyPay", "MonkeyPay", "INSearchForAccountsIntent", {}),
    ("transfer", "Transfer fifty dollars from checking to savings with MonkeyPay", "MonkeyPay", "INTransferMoneyIntent",
     {"transactionAmount": "50 USD", "fromAccount": "Checking", "toAccount": "Savings"}),
    ("payment-code", "Show my payment code in MonkeyPay", "MonkeyPay", "INGetVisualCodeIntent", {"visualCodeType": "sendPayment"}),
    ("create-note", "Create a note in TasksNotes saying buy more bananas", "TasksNotes", "INCreateNoteIntent",
     {"content": "buy more bananas"}),
    ("append-note", "Add peel the bananas to my ideas note in TasksNotes", "TasksNotes", "INAppendToNoteIntent",
     {"content": "peel the bananas", "targetNote": "Ideas"}),
    ("reminder", "Remind me to leave home at 8 am in TasksNotes", "TasksNotes", "INAddTasksIntent",
     {"taskTitles": "leave home", "targetTaskList": "Reminders", "temporalEventTrigger": "at 8 am"}),
    ("grocery-list", "Make a grocery list with apples, bananas and pears in TasksNotes", "TasksNotes", "INCreateTaskListIntent",
     {"title": "Grocery", "taskTitles": "apples bananas and pears"}),
    ("mark-completed", "Mark buy iPhone as completed in TasksNotes", "TasksNotes", "INSetTaskAttributeIntent",
     {"targetTask": "buy iPhone", "status": "completed"}),
    ("show-list", "In ListOMat show the grocery list", "ListOMat", "INSearchForNotebookItemsIntent", {"title": "Grocery"}),
]

# The seed conversations, each ending in MonkeyChat / INSendMessageIntent.
BANANAS = {"recipients": "Bobo", "content": "please send more bananas"}
SEEDS = [
    ("seed-a", [
        ("Hey Siri, send a MonkeyChat message", "MonkeyChat", MSG, {}, "prompt"),
        ("Bobo", "MonkeyChat", MSG, {"recipients": "Bobo"}, "prompt"),
        ("Please send more bananas", "MonkeyChat", MSG, BANANAS, "prompt"),
    ]),
    ("seed-b", [
        ("Send a message to Bobo on MonkeyChat", "MonkeyChat", MSG, {"recipients": "Bobo"}, "prompt"),
        ("Please send more bananas", "MonkeyChat", MSG, BANANAS, "prompt"),
    ]),
    ("seed-c", [
        ("MonkeyChat Bobo please send more bananas", "MonkeyChat", MSG, BANANAS, "prompt"),
    ]),
    ("seed-d", [
        ("Hey Siri, can you please do me a favor and launch the MonkeyChat app to send a text with the message please send more bananas",
         "MonkeyChat", MSG, {"content": "please send more bananas"}, "prompt"),
        ("My best friend Bobo", "MonkeyChat", MSG, BANANAS, "prompt"),
    ]),
]

# Speech no installed app understands: Hark must answer "not understood".
OUT_OF_GRAMMAR = [
    ("weather", "What will the weather be like in Paris tomorrow"),
    ("fox", "The quick brown fox jumps over the lazy dog"),
    ("kitchen", "I think we should paint the kitchen yellow this summer"),
    ("jupiter", "How many moons does Jupiter have"),
    ("lights", "Turn off the lights in the living room"),
    ("recipe", "Preheat the oven and whisk two eggs with the flour"),
]


# Answers `make demo` replays after its fixture (not in the manifest): the
# message is read back, and "Yes, send it." sends it.
DEMO_ANSWERS = [("flite-rms", "answer-yes-send-it", "Yes, send it.")]

# Sentences meant for no app that the grammar search reads as a request
# whose carrier was never said (not in the manifest; CLITests'
# forcedReadings): a request to an app that is not installed, a question
# about one, a remark (docs/recognition.md, "Forced readings").
FORCED_READINGS = [
    ("espeak-us", "forced-venmo", "Send twenty dollars to Bobo on Venmo"),
    ("flite-rms", "forced-spotify", "OK Google, play some lo-fi beats on Spotify"),
    ("flite-rms", "forced-news", "And that's the news at six, now over to Sarah with the weather"),
    # Read well enough word by word, but far worse than free words read
    # them (CLITests' dictationOutscores).
    ("flite-rms", "outscored-yoga", "I might try the yoga classes on MonkeyFit next year"),
    ("flite-rms", "outscored-unicornpay", "honestly UnicornPay is such a weird name for an app"),
]


# A request with a pause inside it, made as scripts/make-pause-set.py makes
# the pause set (not in the manifest; StreamingTests' coldFirstRequest):
# espeak-ng's "Call Little Bobo on … MonkeyChat", which a listener just
# started heard as "tell little bobo on monday or".
PAUSED = [("espeak-us", "paused-audio-call", "Call Little Bobo on", 0.5, "MonkeyChat")]


def join_with_pause(first_wav, pause, second_wav, path, tmp):
    """The pause set's layout (scripts/make-pause-set.py): 0.4 s of silence,
    `first_wav`, `pause` seconds of silence, `second_wav`, 0.4 s of silence.
    -R: the same samples every run."""
    edge, gap = os.path.join(tmp, "edge.wav"), os.path.join(tmp, "gap.wav")
    subprocess.run(["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", edge, "trim", "0", "0.4"], check=True)
    subprocess.run(["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", gap, "trim", "0", str(pause)], check=True)
    subprocess.run(["sox", "-R", edge, first_wav, gap, second_wav, edge, path], check=True)


def synthesise_paused(voice, first, pause, second, path):
    """`first`, `pause` seconds of silence, then `second`, each trimmed to
    its speech, laid out as the pause set is (`join_with_pause`)."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a.wav"), os.path.join(tmp, "b.wav")
        speak_trimmed(voice, first, a, tmp)
        speak_trimmed(voice, second, b, tmp)
        join_with_pause(a, pause, b, path, tmp)


def synthesise(voice, text, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.wav")
        command, stdin = VOICES[voice](text, raw)
        subprocess.run(command, input=stdin, text=True, check=True, stdout=subprocess.DEVNULL)
        # 0.4 s of silence either side, as a person leaves around a command.
        subprocess.run(["sox", raw, "-r", "16000", "-c", "1", "-b", "16", path,
                        "pad", "0.4", "0.4"], check=True)


def speak_trimmed(voice, text, path, tmp, pad=None):
    """`text` spoken by `voice` into `path`, for the sets made from the
    fixtures' voices (scripts/make-pause-set.py, make-spoken-requests.py):
    16 kHz mono, the synthesiser's own leading and trailing silence trimmed,
    then `pad` seconds of silence either side when given. -R: sox seeds its
    dither, so the same text and voice give the same samples every run
    (dither kept: no recording is digital silence)."""
    raw = os.path.join(tmp, "raw.wav")
    command, stdin = VOICES[voice](text, raw)
    subprocess.run(command, input=stdin, text=True, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["sox", "-R", raw, "-r", "16000", "-c", "1", "-b", "16", path,
                    "silence", "1", "0.01", "0.1%", "reverse", "silence", "1", "0.01", "0.1%", "reverse"]
                   + (["pad", str(pad), str(pad)] if pad else []), check=True)


def write_manifest(path, lines):
    """One JSON object per line, keys sorted: what `hark bench` reads."""
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line, sort_keys=True) + "\n")


def cases():
    """Every fixture line, without its audio: (voice, id, text, app, intent, slots, set, conversation turn info)."""
    lines = []
    def single(voice, set_name, case_id, text, app, intent, slots):
        lines.append({"audio": f"{voice}/{case_id}.wav", "text": text, "app": app, "intent": intent,
                      "slots": slots, "voice": voice, "set": set_name})
    def conversation(voice, set_name, conv_id, turns):
        for n, (text, app, intent, slots, code) in enumerate(turns, 1):
            lines.append({"audio": f"{voice}/{conv_id}-{n}.wav", "text": text, "app": app, "intent": intent,
                          "slots": slots, "voice": voice, "set": set_name,
                          "conversation": f"{voice}/{conv_id}", "turn": n, "code": code})
    for voice in CORE_VOICES:
        for case in CORE:
            single(voice, "core", *case)
        for conv_id, turns in CORE_CONVERSATIONS:
            conversation(voice, "core", conv_id, turns)
    turn = 0
    def voices(count):
        nonlocal turn
        chosen = [ROTATION[(turn + i) % len(ROTATION)] for i in range(count)]
        turn += 1
        return chosen
    for case_id, text, app, intent, slots in DOMAINS:
        for voice in voices(3):
            single(voice, "domains", case_id, text, app, intent, slots)
    for conv_id, turns in SEEDS:
        for voice in voices(2):
            conversation(voice, "seeds", conv_id, turns)
    for case_id, text in OUT_OF_GRAMMAR:
        for voice in voices(2):
            single(voice, "out-of-grammar", "oog-" + case_id, text, None, None, {})
    return lines


def spoken(value):
    """A slot's value as words: lower case, no punctuation."""
    if not isinstance(value, str):
        return value
    return " ".join("".join(c for c in word if c.isalnum() or c in "'-") for word in value.lower().split())


def check(lines):
    """Reads each case's text through `hark converse --json`; returns the disagreements."""
    problems = []
    seen = set()
    conversations = {}
    for line in lines:
        if "conversation" in line:
            conversations.setdefault(line["conversation"].split("/", 1)[1], []).append(line)
            continue
        key = line["text"]
        if key in seen:
            continue
        seen.add(key)
        conversations[key] = [line]
    for name, turns in conversations.items():
        turns = sorted(turns, key=lambda t: t.get("turn", 0))
        texts = [t["text"] for t in turns if t["voice"] == turns[0]["voice"]]
        with tempfile.TemporaryDirectory() as data:
            result = subprocess.run([HARK, "converse", "--json", "--data-dir", data], input="\n".join(texts) + "\n",
                                    text=True, capture_output=True, check=True)
        answers = [json.loads(l) for l in result.stdout.splitlines()]
        for expected, got in zip([t for t in turns if t["voice"] == turns[0]["voice"]], answers):
            if expected["intent"] is None:
                if got["code"] != "notUnderstood":
                    problems.append(f"{expected['text']!r}: out of grammar, but typed it is {got.get('app')} / {got.get('intent')}")
                continue
            if (got.get("app"), got.get("intent")) != (expected["app"], expected["intent"]):
                problems.append(f"{expected['text']!r}: labelled {expected['app']} / {expected['intent']}, typed {got.get('app')} / {got.get('intent')}")
            for slot, value in expected["slots"].items():
                # Typed free text keeps its case and inner punctuation
                # ("Please send more bananas", "apples, bananas and pears");
                # the labels are in spoken form.
                if spoken(got["slots"].get(slot)) != spoken(value):
                    problems.append(f"{expected['text']!r}: {slot} labelled {value!r}, typed {got['slots'].get(slot)!r}")
    return problems


def main():
    lines = cases()
    if "--check" in sys.argv:
        problems = check(lines)
        for p in problems:
            print(p, file=sys.stderr)
        print(f"checked {len(lines)} fixture lines against typed parses: {len(problems)} disagreements", file=sys.stderr)
        sys.exit(1 if problems else 0)
    for line in lines:
        synthesise(line["voice"], line["text"], os.path.join(ROOT, line["audio"]))
    for voice, name, text in DEMO_ANSWERS + FORCED_READINGS:
        synthesise(voice, text, os.path.join(ROOT, voice, name + ".wav"))
    for voice, name, first, pause, second in PAUSED:
        synthesise_paused(voice, first, pause, second, os.path.join(ROOT, voice, name + ".wav"))
    write_manifest(os.path.join(ROOT, "manifest.jsonl"), lines)
    print(f"wrote {len(lines)} fixtures to {os.path.normpath(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
