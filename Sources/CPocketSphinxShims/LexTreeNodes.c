// The grammar search's lexicon-tree nodes packed in slabs of their own.
//
// pocketsphinx's fsg_lextree.c allocates every node of the grammar search's
// lexicon tree (fsg_pnode_t, 144 bytes: the `pnode_t` mirror in
// HistoryCollector.c) with its own ckd_calloc, and frees each with
// ckd_free when the search lets go of its grammar. With every sample app
// installed that is about 242,000 nodes living as long as the grammar.
// jemalloc has no 144-byte size class and gives each 160 bytes: 3.9 MB of
// `hark listen`'s peak was padding.
//
// The tool defines sphinxbase's own allocation entry points,
// `__ckd_calloc__` and `ckd_free`; libpocketsphinx's calls reach these
// definitions first (an executable's symbols come before a library's, and
// the linker exports a symbol a library it links against refers to). A
// calloc of one 144-byte element asked for by fsg_lextree.c (sphinxbase's
// ckd_calloc macro passes the caller's file) is cut from a slab; every
// other call goes on to sphinxbase's own functions, unchanged.
//
// The slabs lie in one reserved range of address space, so telling a node
// from any other block at ckd_free is one comparison. A slab counts its
// live nodes; when the last is freed its pages go back to the system
// (read again as zeros, as calloc promises) and the slab is reused. Nodes
// are never reused one by one: a tree is made whole and freed whole.
//
// If the range cannot be reserved, or is full, nodes come from calloc as
// before. Only fsg_lextree.c's nodes are taken; they are freed only by
// fsg_psubtree_free, through ckd_free.
#include "CPocketSphinxShims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum {
    NODE_BYTES = 144,                       // sizeof(fsg_pnode_t), pocketsphinx 5prealpha on 64 bits
    SLAB_SHIFT = 16,                        // 64 KiB slabs: 455 nodes each, 16 bytes left over
    SLAB_BYTES = 1 << SLAB_SHIFT,
    NODES_PER_SLAB = SLAB_BYTES / NODE_BYTES,
    SLAB_COUNT = 8192,                      // 512 MiB of address space: 3.7 million nodes
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t reserve_once = PTHREAD_ONCE_INIT;
static char *range;                          // NULL: not reserved (nodes come from calloc)
static uint32_t live[SLAB_COUNT];            // live nodes per slab
static uint32_t free_slabs[SLAB_COUNT];      // slabs given back, to use again first
static uint32_t free_count;
static uint32_t slabs_used;                  // slabs ever touched, from the start of the range
static int64_t current = -1;                 // the slab nodes are cut from, or -1
static uint32_t cut;                         // nodes cut from the current slab
static uint64_t nodes_live, slabs_live;

static void reserve(void) {
    // Address space only: nothing is resident until a node is written.
    void *p = mmap(NULL, (size_t)SLAB_COUNT * SLAB_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    __atomic_store_n(&range, p == MAP_FAILED ? NULL : (char *)p, __ATOMIC_RELEASE);
}

static inline int in_range(const void *p) {
    const char *r = __atomic_load_n(&range, __ATOMIC_ACQUIRE);
    return r != NULL && (const char *)p >= r && (const char *)p < r + (size_t)SLAB_COUNT * SLAB_BYTES;
}

/// A slab whose nodes are all freed and that no longer gets new ones: its
/// pages go back, and it is used again first. Called with the lock held.
static void give_back(uint32_t slab) {
    madvise(range + ((size_t)slab << SLAB_SHIFT), SLAB_BYTES, MADV_DONTNEED);
    free_slabs[free_count++] = slab;
    slabs_live--;
}

static void *take_node(void) {
    pthread_once(&reserve_once, reserve);
    if (range == NULL) return NULL;
    pthread_mutex_lock(&lock);
    if (current < 0 || cut == NODES_PER_SLAB) {
        if (current >= 0 && live[current] == 0) give_back((uint32_t)current);
        if (free_count > 0) current = free_slabs[--free_count];
        else if (slabs_used < SLAB_COUNT) current = slabs_used++;
        else { current = -1; pthread_mutex_unlock(&lock); return NULL; }
        cut = 0;
        slabs_live++;
    }
    void *node = range + ((size_t)current << SLAB_SHIFT) + (size_t)cut * NODE_BYTES;
    cut++;
    live[current]++;
    nodes_live++;
    pthread_mutex_unlock(&lock);
    return node;
}

static void free_node(void *node) {
    uint32_t slab = (uint32_t)(((char *)node - range) >> SLAB_SHIFT);
    pthread_mutex_lock(&lock);
    live[slab]--;
    nodes_live--;
    if (live[slab] == 0 && (int64_t)slab != current) give_back(slab);
    pthread_mutex_unlock(&lock);
}

// sphinxbase's own functions, which every call not for a node goes on to.
typedef void *(*ckd_calloc_fn)(size_t, size_t, const char *, int);
static ckd_calloc_fn sphinxbase_calloc;
static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;

static void resolve(void) {
    sphinxbase_calloc = (ckd_calloc_fn)dlsym(RTLD_NEXT, "__ckd_calloc__");
}

static int from_lextree(const char *file) {
    if (file == NULL) return 0;
    size_t n = strlen(file), m = sizeof("fsg_lextree.c") - 1;
    return n >= m && memcmp(file + n - m, "fsg_lextree.c", m) == 0 && (n == m || file[n - m - 1] == '/');
}

void *__ckd_calloc__(size_t n_elem, size_t elem_size, const char *caller_file, int caller_line) {
    if (n_elem == 1 && elem_size == NODE_BYTES && from_lextree(caller_file)) {
        void *node = take_node();
        if (node != NULL) return node;
    }
    pthread_once(&resolve_once, resolve);
    if (sphinxbase_calloc != NULL) return sphinxbase_calloc(n_elem, elem_size, caller_file, caller_line);
    // Not found (sphinxbase is what defines it, so never in practice): what it does.
    void *mem = calloc(n_elem, elem_size);
    if (mem == NULL && n_elem > 0 && elem_size > 0) abort();
    return mem;
}

void ckd_free(void *ptr) {
    if (ptr != NULL && in_range(ptr)) { free_node(ptr); return; }
    // sphinxbase's ckd_free on Linux is free().
    free(ptr);
}

void hark_lextree_nodes_counts(uint64_t *nodes, uint64_t *slabs) {
    pthread_mutex_lock(&lock);
    if (nodes) *nodes = nodes_live;
    if (slabs) *slabs = slabs_live;
    pthread_mutex_unlock(&lock);
}

int hark_lextree_nodes_holds(const void *pointer) {
    return in_range(pointer);
}
