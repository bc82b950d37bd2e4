#!/usr/bin/env python3
"""How surely someone speaks in each recording, as Hark's noise stage judges it.

    scripts/speech-presence.py FILE.wav ...
    scripts/speech-presence.py --mix NOISE.wav --snr 12,6 FILE.wav ...

For each file (mixed with a random stretch of NOISE.wav at each SNR, when
given), prints RNNoise's speech presence: the highest mean of its per-frame
voice probability over 0.3 s (NoiseSuppressor.Enhancement.speechPresence).
Hark rejects a noisy utterance under 0.95 undecoded
(DenoisingRecognizer.defaultMinimumSpeechPresence). With several files it
also prints the lowest, the 5th percentile and the median.

RNNoise is the build scripts/setup.sh installs (/usr/local/lib/hark/librnnoise.so,
or $HARK_RNNOISE_LIBRARY); sox converts and resamples. The SNR here is the
whole recording's power against the noise's, as a rough guide; `hark bench
--noise` mixes its own way.
"""
import argparse
import array
import ctypes
import math
import os
import random
import subprocess
import sys

FRAME = 480  # RNNoise: 10 ms at 48 kHz
WINDOW = 30  # 0.3 s


def load(path, rate):
    """The file as float samples in -1...1 at `rate`, mono."""
    out = subprocess.run(["sox", path, "-t", "raw", "-r", str(rate), "-e", "floating-point", "-b", "32", "-c", "1", "-"],
                         capture_output=True)
    if out.returncode != 0:
        sys.exit(f"speech-presence: sox cannot read {path}: {out.stderr.decode().strip()}")
    samples = array.array("f")
    samples.frombytes(out.stdout)
    return samples


def rnnoise():
    path = os.environ.get("HARK_RNNOISE_LIBRARY") or "/usr/local/lib/hark/librnnoise.so"
    try:
        lib = ctypes.CDLL(path)
    except OSError as error:
        sys.exit(f"speech-presence: cannot load RNNoise ({error}); run scripts/setup.sh or set HARK_RNNOISE_LIBRARY")
    lib.rnnoise_create.restype = ctypes.c_void_p
    lib.rnnoise_create.argtypes = [ctypes.c_void_p]
    lib.rnnoise_destroy.argtypes = [ctypes.c_void_p]
    lib.rnnoise_process_frame.restype = ctypes.c_float
    lib.rnnoise_process_frame.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_float)]
    return lib


def presence(lib, samples48):
    """The best 0.3 s mean of RNNoise's voice probability over 48 kHz samples."""
    state = lib.rnnoise_create(None)
    out = (ctypes.c_float * FRAME)()
    probabilities = []
    for start in range(0, len(samples48) - FRAME + 1, FRAME):
        frame = (ctypes.c_float * FRAME)(*(x * 32768 for x in samples48[start:start + FRAME]))
        probabilities.append(lib.rnnoise_process_frame(state, out, frame))
    lib.rnnoise_destroy(state)
    if not probabilities:
        return 0.0
    span = min(WINDOW, len(probabilities))
    best = total = sum(probabilities[:span])
    for i in range(span, len(probabilities)):
        total += probabilities[i] - probabilities[i - span]
        best = max(best, total)
    return best / span


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", help="WAV files")
    parser.add_argument("--mix", metavar="NOISE.wav", help="noise to mix into every file")
    parser.add_argument("--snr", default="12,6", help="SNRs in dB for --mix (default 12,6)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lib = rnnoise()
    rng = random.Random(args.seed)
    noise = load(args.mix, 48_000) if args.mix else None
    conditions = [None] if noise is None else [float(s) for s in args.snr.split(",")]
    for snr in conditions:
        scores = []
        for path in args.files:
            samples = load(path, 48_000)
            if snr is not None:
                samples = mixed(samples, noise, snr, rng)
            scores.append(presence(lib, samples))
            label = path if snr is None else f"{path} at {snr:g} dB"
            print(f"{scores[-1]:.3f}  {label}")
        if len(scores) > 1:
            ranked = sorted(scores)
            print(f"# {'clean' if snr is None else f'{snr:g} dB'}: {len(scores)} files, lowest {ranked[0]:.3f}, "
                  f"5th percentile {ranked[len(ranked) // 20]:.3f}, median {ranked[len(ranked) // 2]:.3f}")


if __name__ == "__main__":
    main()
