/*
 * fuzz-perf-script: libFuzzer entry for the perf script text parser
 * (stacks/collapse_perf). Stage: fuzz. The first byte picks the options
 * (pid, tid, all, addrs, srcline, an event filter); the rest is fed line
 * by line as scorch fold does (twice, so repeated samples take the
 * held-back path), then the table is printed. Invariant under
 * test: any bytes fold without a crash, leak or undefined behaviour.
 */
#include "stacks/collapse_perf.h"
#include "stacks/table.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct feed {
	const char *p, *end;
	uint64_t lineno;
};

static const char *next_line(void *ctx, size_t *len)
{
	struct feed *f = ctx;
	if (f->p >= f->end)
		return NULL;
	const char *nl = memchr(f->p, '\n', (size_t)(f->end - f->p));
	const char *line = f->p;
	*len = nl ? (size_t)(nl - f->p) : (size_t)(f->end - f->p);
	f->p = nl ? nl + 1 : f->end;
	f->lineno++;
	return line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	uint8_t flags = data[0];
	o.pid = flags & 1;
	o.tid = flags & 2;
	o.all = flags & 4;
	o.addrs = flags & 8;
	o.srcline = flags & 16;
	o.jit = flags & 32;
	if (flags & 64)
		o.event_filter = "cycles";
	struct stack_table t = STACK_TABLE_INIT;
	struct collapse_perf p;
	collapse_perf_init(&p, &o, &t);
	struct feed f = { (const char *)data + 1, (const char *)data + size, 0 };
	p.next_line = next_line;
	p.next_line_ctx = &f;
	const char *line;
	size_t len;
	for (int pass = 0; pass < 2; pass++) {
		f.p = (const char *)data + 1;
		f.lineno = 0;
		while ((line = next_line(&f, &len)))
			collapse_perf_line(&p, line, len, f.lineno);
		collapse_perf_line(&p, "", 0, f.lineno + 1);
	}
	collapse_perf_flush(&p);
	(void)collapse_perf_open_sample(&p);
	struct strbuf out = SB_INIT;
	stack_table_write_sb(&t, &out);
	sb_release(&out);
	collapse_perf_release(&p);
	stack_table_release(&t);
	return 0;
}
