#!/usr/bin/env python3
"""A Wyoming client built on the Wyoming project's own library (PyPI
`wyoming`), for testing `hark serve` (Tests/HarkWyomingTests) and by hand.
Each command prints one JSON object per answer on standard output.

  wyoming-client.py URI describe
  wyoming-client.py URI transcribe FILE.wav [--stereo] [--rate HZ]
  wyoming-client.py URI recognize TEXT
  wyoming-client.py URI handle TEXT [TEXT...] [--conversation-id ID] [--site NAME]
  wyoming-client.py URI synthesize TEXT OUT.wav
  wyoming-client.py URI detect FILE.wav [--name PHRASE]
  wyoming-client.py URI hostile CASE      (raw socket: what a broken client sends)

Run it with the virtual environment scripts/setup-wyoming.sh makes:
  .venv-wyoming/bin/python scripts/wyoming-client.py tcp://127.0.0.1:10700 describe
"""
import argparse
import asyncio
import json
import socket
import sys
import time
import wave

from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioChunkConverter, AudioStart, AudioStop
from wyoming.client import AsyncClient
from wyoming.error import Error
from wyoming.event import Event
from wyoming.handle import Handled, NotHandled
from wyoming.info import Describe, Info
from wyoming.intent import Intent, NotRecognized, Recognize
from wyoming.tts import Synthesize
from wyoming.wake import Detect, Detection, NotDetected

TIMEOUT = 60


def out(obj):
    print(json.dumps(obj), flush=True)


async def read(client):
    event = await asyncio.wait_for(client.read_event(), TIMEOUT)
    if event is None:
        raise SystemExit("wyoming-client: the server closed the connection")
    if Error.is_type(event.type):
        out({"type": "error", "text": event.data.get("text"), "code": event.data.get("code")})
        raise SystemExit(2)
    return event


async def send_wav(client, path, stereo=False, rate=None):
    with wave.open(path, "rb") as wav:
        audio = wav.readframes(wav.getnframes())
        width, channels, wav_rate = wav.getsampwidth(), wav.getnchannels(), wav.getframerate()
    target_rate = rate or wav_rate
    target_channels = 2 if stereo else channels
    converter = AudioChunkConverter(rate=target_rate, width=width, channels=target_channels)
    await client.write_event(AudioStart(rate=target_rate, width=width, channels=target_channels).event())
    step = wav_rate // 10 * width * channels
    for start in range(0, len(audio), step):
        chunk = AudioChunk(rate=wav_rate, width=width, channels=channels, audio=audio[start:start + step])
        await client.write_event(converter.convert(chunk).event())
    await client.write_event(AudioStop().event())


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("uri")
    parser.add_argument("command")
    parser.add_argument("args", nargs="*")
    parser.add_argument("--stereo", action="store_true")
    parser.add_argument("--rate", type=int)
    parser.add_argument("--conversation-id")
    parser.add_argument("--site")
    parser.add_argument("--name")
    options = parser.parse_args()

    if options.command == "hostile":
        return hostile(options.uri, options.args[0])

    async with AsyncClient.from_uri(options.uri) as client:
        if options.command == "describe":
            await client.write_event(Describe().event())
            event = await read(client)
            info = Info.from_event(event)  # what Home Assistant does with it
            out({"type": event.type, "data": event.data,
                 "asr": [p.name for p in info.asr], "tts": [p.name for p in info.tts],
                 "handle": [p.name for p in info.handle], "intent": [p.name for p in info.intent],
                 "wake": [m.phrase for p in info.wake for m in p.models]})
        elif options.command == "transcribe":
            await client.write_event(Transcribe(language="en").event())
            await send_wav(client, options.args[0], options.stereo, options.rate)
            event = await read(client)
            assert Transcript.is_type(event.type), event
            out({"type": event.type, "text": Transcript.from_event(event).text})
        elif options.command == "recognize":
            await client.write_event(Recognize(text=options.args[0]).event())
            event = await read(client)
            if Intent.is_type(event.type):
                intent = Intent.from_event(event)
                out({"type": event.type, "name": intent.name, "text": intent.text,
                     "entities": {e.name: e.value for e in intent.entities}})
            else:
                assert NotRecognized.is_type(event.type), event
                out({"type": event.type})
        elif options.command == "handle":
            context = {}
            if options.conversation_id:
                context["conversation_id"] = options.conversation_id
            if options.site:
                context["site"] = options.site
            for text in options.args:
                await client.write_event(Transcript(text=text, context=context or None).event())
                event = await read(client)
                assert Handled.is_type(event.type) or NotHandled.is_type(event.type), event
                out({"type": event.type, "text": event.data.get("text"), "context": event.data.get("context")})
        elif options.command == "synthesize":
            await client.write_event(Synthesize(text=options.args[0]).event())
            start = AudioStart.from_event(await read(client))
            audio = b""
            while True:
                event = await read(client)
                if AudioStop.is_type(event.type):
                    break
                audio += AudioChunk.from_event(event).audio
            with wave.open(options.args[1], "wb") as wav:
                wav.setframerate(start.rate)
                wav.setsampwidth(start.width)
                wav.setnchannels(start.channels)
                wav.writeframes(audio)
            out({"type": "audio", "rate": start.rate, "seconds": len(audio) / start.width / start.rate})
        elif options.command == "detect":
            await client.write_event(Detect(names=[options.name] if options.name else None).event())
            await send_wav(client, options.args[0])
            event = await read(client)
            if Detection.is_type(event.type):
                out({"type": event.type, "name": Detection.from_event(event).name})
            else:
                assert NotDetected.is_type(event.type), event
                out({"type": event.type})
        else:
            raise SystemExit(f"wyoming-client: unknown command {options.command}")


def hostile(uri, case):
    """What a broken or hostile client sends; prints what came back and how long it took."""
    host, port = uri[len("tcp://"):].rsplit(":", 1)
    started = time.monotonic()
    if case == "many":
        # Connections opened and dropped at once, some mid-header.
        for i in range(300):
            s = socket.create_connection((host, int(port)), timeout=10)
            if i % 2:
                s.sendall(b'{"type": "desc')
            s.close()
        out({"case": case, "seconds": time.monotonic() - started})
        return
    s = socket.create_connection((host, int(port)), timeout=30)
    try:
        if case == "malformed":
            s.sendall(b"this is not json\n")
        elif case == "huge-header":
            s.sendall(b'{"type": "describe", "x": "' + b"a" * 200_000)
        elif case == "lying-length":
            s.sendall(b'{"type": "audio-chunk", "payload_length": 4000000000}\n')
        elif case == "stops-mid-payload":
            s.sendall(b'{"type": "audio-chunk", "data": {"rate": 16000, "width": 2, "channels": 1}, "payload_length": 64000}\n' + b"\0" * 1000)
        elif case == "trickle":
            for byte in b'{"type": "describe"}':
                s.sendall(bytes([byte]))
                time.sleep(1)
                if time.monotonic() - started > 20:
                    break
        elif case == "absurd-rate":
            s.sendall(b'{"type": "transcribe"}\n{"type": "audio-start", "data": {"rate": 900000000, "width": 2, "channels": 1}}\n')
        else:
            raise SystemExit(f"wyoming-client: unknown hostile case {case}")
        reply = b""
        try:
            while True:
                data = s.recv(65536)
                if not data:
                    break
                reply += data
                if case == "absurd-rate" and b"\n" in reply:
                    break
        except (ConnectionResetError, BrokenPipeError):
            pass
        except socket.timeout:
            out({"case": case, "timeout": True, "seconds": time.monotonic() - started})
            return
    except (ConnectionResetError, BrokenPipeError):
        reply = b""
    first = reply.split(b"\n", 1)[0]
    header = json.loads(first) if first.startswith(b"{") else {}
    data = {}
    if header.get("data_length"):
        rest = reply.split(b"\n", 1)[1]
        data = json.loads(rest[: header["data_length"]])
    out({"case": case, "type": header.get("type"), "code": data.get("code"), "text": data.get("text"),
         "seconds": time.monotonic() - started})


if __name__ == "__main__":
    asyncio.run(main())
