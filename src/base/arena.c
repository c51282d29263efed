/* arena: bump allocator freed all at once (see arena.h). */
#include "base/arena.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	char data[];
};

/* Chunks start small and double up to ARENA_CHUNK: a process keeps
 * hundreds of arenas (three tables per object met, its interning
 * maps), most holding a few hundred bytes. */
enum { ARENA_CHUNK = 64 * 1024, ARENA_FIRST = 1024 };

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->cur = NULL;
	a->left = 0;
	a->total = 0;
}

void arena_release(struct arena *a)
{
	struct arena_chunk *c = a->head;
	while (c) {
		struct arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	arena_init(a);
}

void *arena_alloc(struct arena *a, size_t size)
{
	size = (size + 7) & ~(size_t)7;
	if (size == 0)
		size = 8;
	if (size > a->left) {
		size_t next = !a->head ? ARENA_FIRST
			      : a->head->size < ARENA_CHUNK / 2 ? a->head->size * 2
			      : ARENA_CHUNK;
		size_t want = size > ARENA_CHUNK / 4 ? size : size > next ? ARENA_CHUNK : next;
		if (want > (size_t)-1 - sizeof(struct arena_chunk))
			xmalloc((size_t)-1);
		struct arena_chunk *c = xmalloc(sizeof(*c) + want);
		c->size = want;
		if (size > ARENA_CHUNK / 4 && a->head) {
			/* big block: keep the current chunk for small ones */
			c->next = a->head->next;
			a->head->next = c;
			a->total += size;
			return c->data;
		}
		c->next = a->head;
		a->head = c;
		a->cur = c->data;
		a->left = want;
	}
	void *p = a->cur;
	a->cur += size;
	a->left -= size;
	a->total += size;
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}
