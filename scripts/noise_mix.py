"""Speech with kitchen noise mixed in, as the soak and the memory scripts use it.

    from noise_mix import read_pcm, Mixer
    noise = read_pcm("../shared/benchmarks/barista-dev/kitchen-noise.wav")
    mixer = Mixer(noise, seed=1234)
    noisy = mixer.mix(clean_bytes, snr_db=12)

Audio is 16 kHz mono 16-bit PCM throughout (the fixtures' format); each
mix takes a random excerpt of the noise as long as the speech and scales
it to the SNR asked for, from the two signals' RMS.
"""
import array
import math
import random
import wave


def read_pcm(path):
    """The samples of a 16 kHz mono 16-bit WAV file, as bytes."""
    with wave.open(path) as w:
        assert w.getframerate() == 16000 and w.getnchannels() == 1 and w.getsampwidth() == 2, \
            f"{path}: 16 kHz mono 16-bit PCM expected"
        return w.readframes(w.getnframes())


def _rms(samples):
    return math.sqrt(sum(x * x for x in samples) / max(1, len(samples))) or 1.0


class Mixer:
    def __init__(self, noise_bytes, seed=1234):
        self.noise = array.array("h", noise_bytes)
        self.rng = random.Random(seed)

    def mix(self, speech_bytes, snr_db=12):
        speech = array.array("h", speech_bytes)
        start = self.rng.randrange(0, len(self.noise) - len(speech))
        excerpt = self.noise[start:start + len(speech)]
        gain = _rms(speech) / _rms(excerpt) / 10 ** (snr_db / 20)
        return array.array("h", (max(-32768, min(32767, int(s + gain * n))) for s, n in zip(speech, excerpt))).tobytes()
