/* xalloc: allocation wrappers that die on failure (see xalloc.h). */
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die_oom(size_t size)
{
	fprintf(stderr, "scorch: out of memory allocating %zu bytes\n", size);
	exit(70);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		die_oom(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die_oom(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		die_oom(size);
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > (size_t)-1 / size)
		die_oom((size_t)-1);
	return xrealloc(ptr, nmemb * size);
}

char *xstrdup(const char *s)
{
	return xmemdup(s, strlen(s) + 1);
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void *xmemdup(const void *src, size_t n)
{
	void *p = xmalloc(n);
	if (n)
		memcpy(p, src, n);
	return p;
}

void xgrow(void **arr, size_t *cap, size_t need, size_t elem_size)
{
	size_t n = *cap ? *cap : 8;
	if (need <= *cap)
		return;
	while (n < need) {
		if (n > (size_t)-1 / 2)
			die_oom((size_t)-1);
		n *= 2;
	}
	*arr = xreallocarray(*arr, n, elem_size);
	*cap = n;
}
