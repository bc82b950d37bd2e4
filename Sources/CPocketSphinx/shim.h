// Only includes the real headers: pocketsphinx 0.8+5prealpha (Debian 12)
// and the sphinxbase pieces Hark calls directly (FSG building, logging,
// word classes of the n-gram model).
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/hash_table.h>
#include <sphinxbase/jsgf.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/ngram_model.h>
