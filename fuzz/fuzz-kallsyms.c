/*
 * fuzz-kallsyms: libFuzzer entry for loading a kernel symbol file
 * (sym_kallsyms_load: blocks read and parsed in place, names packed).
 * Stage: fuzz. The bytes become a file (a memfd, opened again through
 * /proc/self/fd/N); the loaded table is compared with the one that
 * feeding each line to sym_kallsyms_line gives, then searched. A first
 * byte with the high bit set puts the rest across the first read block's
 * end (after one long line), where the loader carries a partial line.
 * Invariant under test: both give the same symbols, counts and _text,
 * and any bytes load without a crash, leak or undefined behaviour.
 */
#include "symbols/kallsyms.h"
#include "symbols/table.h"
#include "kallsyms_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static bool same_entry(const struct sym_entry *x, const struct sym_entry *y)
{
	return x->start == y->start && x->end == y->end && x->seq == y->seq &&
	       x->bind == y->bind && x->module == y->module &&
	       x->sized == y->sized && strcmp(x->name, y->name) == 0;
}

static void compare(const struct ks_ref *a, const struct sym_table *t,
		    int added, uint64_t bad, uint64_t text)
{
	bool same = a->added == added && a->bad == bad && a->text == text &&
		    a->t.n == t->n;
	for (size_t i = 0; same && i < t->n; i++)
		same = same_entry(&a->t.syms[i], &t->syms[i]);
	if (!same) {
		fprintf(stderr, "fuzz-kallsyms: loaded table differs from lines\n");
		abort();
	}
}

/* The text to load: data itself, or, when its first byte has the high
 * bit set, the rest of it after one long kept line that ends 1-64 bytes
 * before the loader's first 64 KB read block does, so that the block's
 * end falls among the fuzzed lines. Caller frees. */
static char *make_text(const uint8_t *data, size_t size, size_t *len)
{
	size_t fill = 0;
	if (size > 0 && (data[0] & 0x80)) {
		fill = 65536 - 1 - (data[0] & 0x3f);
		data++;
		size--;
	}
	char *text = malloc(fill + size + 1);
	if (!text)
		return NULL;
	if (fill) {
		memset(text, 'x', fill);
		memcpy(text, "ffffffff81000000 t ", 19);
		text[fill - 1] = '\n';
	}
	memcpy(text + fill, data, size);
	*len = fill + size;
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len;
	char *text = make_text(data, size, &len);
	int fd = text ? memfd_create("fuzz-kallsyms", MFD_CLOEXEC) : -1;
	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		if (fd >= 0)
			close(fd);
		free(text);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct ks_ref ref = { SYM_TABLE_INIT, 0, 0, 0 };
	ks_ref_lines(text, len, &ref);
	struct sym_table t = SYM_TABLE_INIT;
	uint64_t bad = 0, text_addr = 0;
	struct diag d = DIAG_INIT;
	int added = sym_kallsyms_load(path, &t, &bad, &text_addr, &d);
	if (added >= 0)
		compare(&ref, &t, added, bad, text_addr);
	for (size_t i = 0; i < t.n && i < 64; i++)
		(void)sym_table_find(&t, t.syms[i].end - 1);
	sym_table_release(&t);
	sym_table_release(&ref.t);
	close(fd);
	free(text);
	return 0;
}
