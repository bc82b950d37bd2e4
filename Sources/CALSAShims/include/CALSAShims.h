#ifndef C_ALSA_SHIMS_H
#define C_ALSA_SHIMS_H

/// Stops alsa-lib printing its own messages ("ALSA lib pcm.c:2666:
/// (snd_pcm_open_noupdate) Unknown PCM x") to standard error. Hark reports
/// every failure itself, once, with snd_strerror's text; the library's extra
/// line would make that error two lines.
///
/// Exists because alsa-lib's error handler type is a C variadic function,
/// which Swift can neither define nor pass.
void hark_alsa_silence_library_messages(void);

#endif
