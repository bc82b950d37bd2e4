// The `hark` tool's malloc is jemalloc's (Debian's libjemalloc2), set up
// here. Linking this target makes the executable depend on libjemalloc
// ahead of libc, so every malloc in the process -- the Swift runtime's,
// Foundation's, pocketsphinx's and espeak-ng's -- is jemalloc's.
//
// Why: most of Hark's memory is a few hundred thousand small blocks that
// live as long as the process. glibc puts an 8-byte header before each
// block and rounds up to 16; jemalloc keeps blocks of one size together
// without headers. (pocketsphinx's lexicon-tree nodes, 144 bytes, which no
// jemalloc size class fits, have slabs of their own: LexTreeNodes.c in
// CPocketSphinxShims.) Measured (docs/measurements.md, "Memory"): `hark listen` with
// every sample app peaks 4 MB lower, barista-dev's bench 4 MiB lower,
// at the same decoding speed.
//
// The options (read by jemalloc from this symbol before its first
// allocation):
// - narenas:1 -- one arena: Hark's threads take turns (a decoder, the
//   synthesiser, handlers); an arena per core only fragmented the heap
//   (glibc's arenas had grown an hour's soak by 5 MiB a hundred utterances).
// - dirty_decay_ms:0, muzzy_decay_ms:0 -- pages freed go back to the system
//   at once, as glibc's malloc_trim gave them back after a grammar change;
//   jemalloc's default keeps them ten seconds, which is a peak.
// - tcache_max:256 -- the per-thread caches hold small blocks only.
#include "HarkAllocator.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <jemalloc/jemalloc.h>

const char *malloc_conf = "narenas:1,dirty_decay_ms:0,muzzy_decay_ms:0,tcache_max:256";

const char *hark_allocator_version(void) {
    const char *version = NULL;
    size_t size = sizeof(version);
    if (mallctl("version", &version, &size, NULL, 0) != 0) return NULL;
    return version;
}

const char *hark_allocator_options(void) {
    // Read back from jemalloc: what it runs with, not what was asked.
    static char text[160];
    unsigned narenas = 0;
    ssize_t dirty = -2, muzzy = -2;
    size_t tcache_max = 0, size;
    size = sizeof(narenas);
    if (mallctl("opt.narenas", &narenas, &size, NULL, 0) != 0) return "";
    size = sizeof(dirty);
    mallctl("opt.dirty_decay_ms", &dirty, &size, NULL, 0);
    size = sizeof(muzzy);
    mallctl("opt.muzzy_decay_ms", &muzzy, &size, NULL, 0);
    size = sizeof(tcache_max);
    mallctl("opt.tcache_max", &tcache_max, &size, NULL, 0);
    snprintf(text, sizeof(text), "narenas:%u,dirty_decay_ms:%zd,muzzy_decay_ms:%zd,tcache_max:%zu",
             narenas, dirty, muzzy, tcache_max);
    return text;
}
