/*
 * gzip: one gzip member of a buffer, through ISA-L's deflate (level 3,
 * its best ratio, no measurable extra time on profiles). Stage: base.
 * Used by the pprof encoder and the explorer page.
 * Ownership: out is the caller's; the member is appended to it.
 * Failure: -1 when ISA-L fails or in is 4 GiB or more; allocation is
 * fatal (base/xalloc.h).
 */
#ifndef SCORCH_BASE_GZIP_H
#define SCORCH_BASE_GZIP_H

#include <stddef.h>

#include "base/strbuf.h"

int gzip_append(const void *in, size_t n, struct strbuf *out);
/* Same at ISA-L's level 0 (fastest) to 3 (smallest); -1 for another. */
int gzip_append_level(const void *in, size_t n, int level, struct strbuf *out);

#endif
