#ifndef C_ESPEAK_NG_SHIMS_H
#define C_ESPEAK_NG_SHIMS_H

/// libespeak-ng's audio device (libpcaudio's API), as Hark links it: no
/// device. Hark asks espeak-ng for samples (ENOUTPUT_MODE_SYNCHRONOUS) and
/// plays them itself; espeak-ng opens a device only in
/// ENOUTPUT_MODE_SPEAK_AUDIO, which Hark never asks for. Defined here so the
/// release tool can link libespeak-ng's static library without libpcaudio,
/// which loads PulseAudio and behind it X11, D-Bus, systemd and codecs (27
/// libraries Hark never calls) that cost `hark listen` 3.0-3.5 MB at its
/// peak (docs/measurements.md,
/// "Memory"). The functions are in NoAudioDevice.c; nothing in Hark calls
/// them, so this header declares none.

#endif
