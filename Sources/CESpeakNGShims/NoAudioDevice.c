// libpcaudio's API as libespeak-ng calls it, with no device behind it.
//
// Why: libespeak-ng depends on libpcaudio for ENOUTPUT_MODE_SPEAK_AUDIO, and
// libpcaudio on libpulse, which loads more libraries behind it (X11, xcb,
// D-Bus, systemd, libsndfile and its codecs, gcrypt, ...; 27 in all that
// Hark never calls). Each mapped library faults in its relocated data and
// start-up code: `hark listen` peaks 3.0-3.5 MB lower without them (4 MB
// for the noisiest utterance), for audio output Hark never asks
// espeak-ng for (it synthesises with ENOUTPUT_MODE_SYNCHRONOUS and plays the
// samples through its own audio sink). The release tool (Makefile,
// RELEASE_LINK) links libespeak-ng's static library, whose calls into
// libpcaudio these definitions answer, so libpcaudio is never loaded.
//
// A build that links libespeak-ng's shared library (debug builds, tests)
// still loads libpcaudio; these definitions then take the place of its
// functions for libespeak-ng, which calls none of them in Hark's mode.
// Should espeak-ng ever be asked to play (a change of output mode), the
// device cannot be created and espeak_ng_InitializeOutput reports an error
// rather than playing nothing silently.
#include "CESpeakNGShims.h"

#include <stddef.h>
#include <stdint.h>
#include <errno.h>

struct audio_object;

struct audio_object *create_audio_device_object(const char *device, const char *application_name,
                                                const char *description) {
    (void)device; (void)application_name; (void)description;
    return NULL;
}

int audio_object_open(struct audio_object *object, int format, uint32_t rate, uint8_t channels) {
    (void)object; (void)format; (void)rate; (void)channels;
    return ENODEV;
}

void audio_object_close(struct audio_object *object) { (void)object; }

void audio_object_destroy(struct audio_object *object) { (void)object; }

int audio_object_write(struct audio_object *object, const void *data, size_t bytes) {
    (void)object; (void)data; (void)bytes;
    return ENODEV;
}

int audio_object_drain(struct audio_object *object) { (void)object; return ENODEV; }

int audio_object_flush(struct audio_object *object) { (void)object; return ENODEV; }

const char *audio_object_strerror(struct audio_object *object, int error) {
    (void)object; (void)error;
    return "Hark's espeak-ng has no audio device: Hark plays speech itself";
}
