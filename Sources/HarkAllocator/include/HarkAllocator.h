#ifndef HARK_ALLOCATOR_H
#define HARK_ALLOCATOR_H

/// The allocator the process's malloc is, as "jemalloc 5.3.0-0-g54eaed1..."
/// (read back from jemalloc itself), or NULL when malloc is not jemalloc's.
const char *hark_allocator_version(void);

/// The options jemalloc runs with, read back from it ("narenas:1,..."),
/// or "" when malloc is not jemalloc's.
const char *hark_allocator_options(void);

#endif
