/*
 * arena: bump allocator for interned strings and per-DSO tables.
 * Stage: base. Everything allocated from an arena lives until
 * arena_release, which frees it all at once. Pointers stay valid while
 * the arena grows (memory comes in chunks that never move).
 */
#ifndef SCORCH_BASE_ARENA_H
#define SCORCH_BASE_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *head;
	char *cur;   /* next free byte in head */
	size_t left; /* bytes left in head */
	size_t total; /* bytes handed out, for statistics */
};

#define ARENA_INIT { NULL, NULL, 0, 0 }

void arena_init(struct arena *a);
void arena_release(struct arena *a);
/* Aligned to 8 bytes; never returns NULL. */
void *arena_alloc(struct arena *a, size_t size);
/* Copy len bytes and add a NUL; returns the copy. */
char *arena_strndup(struct arena *a, const char *s, size_t len);
char *arena_strdup(struct arena *a, const char *s);

#endif
