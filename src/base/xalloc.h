/*
 * xalloc: allocation wrappers that never return NULL.
 * Stage: base. Allocation failure is fatal (message and exit 70), so the
 * parsers above do not thread out-of-memory errors through every call.
 * Size arithmetic is checked: xmalloc_array fails loudly on overflow.
 */
#ifndef SCORCH_BASE_XALLOC_H
#define SCORCH_BASE_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Reallocate to nmemb*size bytes; dies if the product overflows. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);

/* Grow *arr (of *cap elements of elem_size) so it holds at least need
 * elements; capacity at least doubles. */
void xgrow(void **arr, size_t *cap, size_t need, size_t elem_size);
/* xgrow when need exceeds cap; the common case (room left) is a compare
 * here instead of a call (hot loops append an element at a time). */
#define XGROW(arr, cap, need)                                                 \
	do {                                                                  \
		size_t xgrow_need_ = (need);                                  \
		if (xgrow_need_ > (cap))                                      \
			xgrow((void **)&(arr), &(cap), xgrow_need_, sizeof(*(arr))); \
	} while (0)

#endif
