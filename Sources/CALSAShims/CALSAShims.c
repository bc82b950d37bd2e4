#include "CALSAShims.h"
#include <alsa/asoundlib.h>

static void hark_alsa_ignore(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void hark_alsa_silence_library_messages(void) {
    snd_lib_error_set_handler(hark_alsa_ignore);
}
