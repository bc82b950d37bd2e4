#!/usr/bin/env python3
"""Load test for `hark serve`, with the Wyoming project's own client library.

N clients each stream fixtures in real time (100 ms audio chunks at the
fixture's own pace) for T seconds, one turn after another over their own
connection: transcribe + audio → transcript, then the transcript → handled.
Each client sends its own conversation_id and site; an answer whose context
names another client's conversation or site is counted as crossed.

Reports, as JSON on stdout: turns answered, lost (no answer, error, or
closed connection), crossed, latency p50/p95 per turn (from audio-stop to
the transcript, and to the handled answer), and the server's peak resident
memory (VmHWM from /proc, when --pid is given or the server is started here).

  .venv-wyoming/bin/python scripts/serve-load.py --clients 8 --seconds 120
  .venv-wyoming/bin/python scripts/serve-load.py --uri tcp://127.0.0.1:10700 --pid $(pidof hark) ...
"""
import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import wave

from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncClient
from wyoming.handle import Handled, NotHandled

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fixtures(manifest, voice):
    items = []
    with open(manifest) as f:
        for line in f:
            entry = json.loads(line)
            if entry.get("voice") == voice and entry.get("set") == "core" and "conversation" not in entry and "intent" in entry:
                items.append(os.path.join(os.path.dirname(manifest), entry["audio"]))
    return sorted(items)


def read_wav(path):
    with wave.open(path, "rb") as w:
        return w.getframerate(), w.getsampwidth(), w.getnchannels(), w.readframes(w.getnframes())


async def client(index, uri, files, deadline, stats):
    conversation, site = f"load-{index}", f"room-{index}"
    context = {"conversation_id": conversation, "site": site}
    turn = 0
    async with AsyncClient.from_uri(uri) as c:
        while time.monotonic() < deadline:
            rate, width, channels, audio = read_wav(files[(index + turn) % len(files)])
            turn += 1
            stats["sent"] += 1
            try:
                await c.write_event(Transcribe(language="en", context=context).event())
                await c.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
                step = rate // 10 * width * channels
                for start in range(0, len(audio), step):
                    await c.write_event(AudioChunk(rate=rate, width=width, channels=channels, audio=audio[start:start + step]).event())
                    await asyncio.sleep(0.1)  # real time
                stopped = time.monotonic()
                await c.write_event(AudioStop().event())
                event = await asyncio.wait_for(c.read_event(), 120)
                if event is None or not Transcript.is_type(event.type):
                    stats["lost"] += 1
                    if event is None:
                        return
                    continue
                transcribed = time.monotonic()
                transcript = Transcript.from_event(event)
                ctx = transcript.context or {}
                if ctx.get("conversation_id") != conversation or ctx.get("site") != site:
                    stats["crossed"] += 1
                await c.write_event(Transcript(text=transcript.text, context=context).event())
                event = await asyncio.wait_for(c.read_event(), 120)
                if event is None or not (Handled.is_type(event.type) or NotHandled.is_type(event.type)):
                    stats["lost"] += 1
                    if event is None:
                        return
                    continue
                ctx = event.data.get("context") or {}
                if ctx.get("conversation_id") != conversation or ctx.get("site") != site:
                    stats["crossed"] += 1
                stats["answered"] += 1
                stats["asr"].append(transcribed - stopped)
                stats["turn"].append(time.monotonic() - stopped)
            except (asyncio.TimeoutError, ConnectionError) as error:
                stats["lost"] += 1
                stats["errors"].append(repr(error))
                return


def percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))], 3)


def peak_rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            match = re.search(r"VmHWM:\s+(\d+) kB", f.read())
            return round(int(match.group(1)) / 1024, 1) if match else None
    except OSError:
        return None


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--uri", help="a running server (default: start .build/release/hark serve here)")
    parser.add_argument("--pid", type=int, help="the running server's process id, for its peak memory")
    parser.add_argument("--hark", default=os.path.join(ROOT, ".build/release/hark"))
    parser.add_argument("--voice", default="flite-rms")
    options = parser.parse_args()

    files = fixtures(os.path.join(ROOT, "audio-fixtures/manifest.jsonl"), options.voice)
    server = None
    uri, pid = options.uri, options.pid
    if uri is None:
        data = tempfile.mkdtemp(prefix="hark-load-")
        server = subprocess.Popen([options.hark, "serve", "--uri", "tcp://127.0.0.1:0", "--data-dir", data],
                                  stderr=subprocess.PIPE, text=True)
        line = server.stderr.readline()
        match = re.search(r"serving on (\S+)", line)
        if not match:
            raise SystemExit(f"serve-load: hark serve did not start: {line}")
        uri, pid = match.group(1), server.pid
    stats = {"sent": 0, "answered": 0, "lost": 0, "crossed": 0, "asr": [], "turn": [], "errors": []}
    started = time.monotonic()
    await asyncio.gather(*(client(i, uri, files, started + options.seconds, stats) for i in range(options.clients)))
    report = {
        "clients": options.clients, "seconds": round(time.monotonic() - started, 1), "fixtures": len(files),
        "turns_sent": stats["sent"], "turns_answered": stats["answered"], "lost": stats["lost"], "crossed": stats["crossed"],
        "transcript_latency_p50": percentile(stats["asr"], 50), "transcript_latency_p95": percentile(stats["asr"], 95),
        "turn_latency_p50": percentile(stats["turn"], 50), "turn_latency_p95": percentile(stats["turn"], 95),
        "server_peak_rss_mib": peak_rss_mib(pid) if pid else None, "errors": stats["errors"][:5],
    }
    if server:
        server.terminate()
        server.wait(10)
    print(json.dumps(report, indent=1))
    return 0 if report["lost"] == 0 and report["crossed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
