#!/usr/bin/env python3
"""How surely someone speaks in each recording, as Hark's noise stage judges it.

    scripts/speech-presence.py FILE.wav ...
    scripts/speech-presence.py --mix NOISE.wav --snr 12,6 FILE.wav ...

For each file (mixed with a random stretch of NOISE.wav at each SNR, when
given), prints RNNoise's speech presence as Hark computes it (`hark
audio-info --speech-presence`: the best 0.1 s mean of RNNoise's voice
probability, NoiseSuppressor.Enhancement.speechPresence) and whether Hark's
noise stage would judge the file at all (it runs under 35 dB estimated SNR;
there, under 0.95 is taken for nobody speaking,
DenoisingRecognizer.defaultMinimumSpeechPresence). With several files it
also prints the lowest, the 5th percentile and the median.

--hark is the executable (default: .build/release/hark, else `hark` on the
PATH); it needs RNNoise (scripts/setup.sh installs it). sox reads and
converts; the mixing is done here, at 16 kHz, the whole recording's power
against the noise stretch's (a rough guide: `hark bench --noise` mixes its
own way).
"""
import argparse
import array
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import wave

RATE = 16_000  # what Hark hears


def load(path):
    """The file at 16 kHz, mono, as floats in -1...1."""
    out = subprocess.run(["sox", path, "-t", "raw", "-r", str(RATE), "-e", "floating-point", "-b", "32", "-c", "1", "-"],
                         capture_output=True)
    if out.returncode != 0:
        sys.exit(f"speech-presence: sox cannot read {path}: {out.stderr.decode().strip()}")
    samples = array.array("f")
    samples.frombytes(out.stdout)
    return samples


def write(path, samples):
    """16-bit 16 kHz mono WAV."""
    pcm = array.array("h", (max(-32768, min(32767, round(x * 32767))) for x in samples))
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm.tobytes())


def mixed(speech, noise, snr, rng):
    """`speech` with a random stretch of `noise` at `snr` dB (whole-recording powers)."""
    if len(noise) < len(speech):
        sys.exit("speech-presence: the noise is shorter than a recording")
    offset = rng.randrange(0, len(noise) - len(speech) + 1)
    stretch = noise[offset:offset + len(speech)]
    ps = sum(x * x for x in speech) / max(1, len(speech))
    pn = sum(x * x for x in stretch) / max(1, len(stretch)) or 1e-12
    gain = math.sqrt(ps / (pn * 10 ** (snr / 10)))
    return array.array("f", (s + n * gain for s, n in zip(speech, stretch)))


def judged(hark, paths, window):
    """`hark audio-info --json --speech-presence` for each path, in order."""
    out = subprocess.run([hark, "audio-info", "--json", "--speech-presence", "--presence-window", str(window), *paths],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"speech-presence: {hark} audio-info failed: {out.stderr.strip()}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", help="WAV files")
    parser.add_argument("--mix", metavar="NOISE.wav", help="noise to mix into every file")
    parser.add_argument("--snr", default="12,6", help="SNRs in dB for --mix (default 12,6)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hark", default=None, help="the hark executable")
    parser.add_argument("--window", type=int, default=10, help="frames of 10 ms to average over (Hark's: 10)")
    args = parser.parse_args()
    hark = args.hark or (".build/release/hark" if os.access(".build/release/hark", os.X_OK) else shutil.which("hark"))
    if not hark:
        sys.exit("speech-presence: no hark executable (build it, or pass --hark PATH)")
    rng = random.Random(args.seed)
    noise = load(args.mix) if args.mix else None
    conditions = [None] if noise is None else [float(s) for s in args.snr.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        for snr in conditions:
            paths = list(args.files)
            if snr is not None:
                paths = []
                for i, path in enumerate(args.files):
                    paths.append(os.path.join(folder, f"{i}.wav"))
                    write(paths[-1], mixed(load(path), noise, snr, rng))
            scores = []
            for path, result in zip(args.files, judged(hark, paths, args.window)):
                scores.append(result["speech_presence"])
                label = path if snr is None else f"{path} at {snr:g} dB"
                stage = "denoised" if result["denoised"] else "clean"
                print(f"{scores[-1]:.3f}  {stage:8s}  {label}")
            if len(scores) > 1:
                ranked = sorted(scores)
                print(f"# {'as recorded' if snr is None else f'{snr:g} dB'}: {len(scores)} files, lowest {ranked[0]:.3f}, "
                      f"5th percentile {ranked[len(ranked) // 20]:.3f}, median {ranked[len(ranked) // 2]:.3f}")


if __name__ == "__main__":
    main()
