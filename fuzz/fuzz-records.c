/*
 * fuzz-records: libFuzzer entry for the perf.data record stream
 * (perfdata/reader: header, attrs, framing, zstd, every record decoder).
 * Stage: fuzz. The input is a whole perf.data file (file or pipe mode)
 * read from memory; the handlers touch every decoded field and pointer
 * so that an out-of-bounds pointer shows up under ASan. Invariant under
 * test: any bytes are read or rejected without a crash, leak or UB.
 */
#include "perfdata/reader.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static uint64_t sink;

static void touch(const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		sink += b[i];
}

static int on_sample(void *ctx, const struct pd_sample *s)
{
	sink += s->ip + s->pid + s->time + s->period + s->attr->sample_type;
	for (uint64_t i = 0; i < s->nr_callchain; i++)
		sink += s->callchain[i];
	for (uint64_t i = 0; i < s->nr_branches; i++)
		sink += s->branches[i].from + s->branches[i].flags;
	for (size_t i = 0; i < s->regs_user.nr; i++)
		sink += s->regs_user.regs[i];
	for (size_t i = 0; i < s->regs_intr.nr; i++)
		sink += s->regs_intr.regs[i];
	touch(s->raw, s->raw_size);
	touch(s->stack, (size_t)s->stack_size);
	touch(s->aux, (size_t)s->aux_size);
	touch(s->read, s->read_size);
	return 0;
}

static int on_mmap(void *ctx, const struct pd_mmap *m)
{
	touch(m->filename, strlen(m->filename));
	sink += m->start + m->len + m->build_id_size;
	return 0;
}

static int on_comm(void *ctx, const struct pd_comm *c)
{
	touch(c->comm, strlen(c->comm));
	return 0;
}

static int on_ksymbol(void *ctx, const struct pd_ksymbol *k)
{
	touch(k->name, strlen(k->name));
	return 0;
}

static int on_build_id(void *ctx, const struct pd_build_id *b)
{
	touch(b->filename, strlen(b->filename));
	return 0;
}

static int on_record(void *ctx, const struct pd_record *rec)
{
	touch(rec->data, rec->size);
	return 0;
}

static int on_tracing(void *ctx, const uint8_t *p, size_t n)
{
	touch(p, n);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag d = DIAG_INIT;
	struct pd_reader *r = pd_reader_open_mem(data, size, "fuzz", &d);
	struct pd_handlers h = {
		.on_sample = on_sample, .on_mmap = on_mmap, .on_comm = on_comm,
		.on_ksymbol = on_ksymbol, .on_build_id = on_build_id,
		.on_record = on_record, .on_tracing_data = on_tracing,
	};

	if (!r)
		return 0;
	pd_reader_run(r, &h);
	for (size_t i = 0; i < pd_reader_nr_attrs(r); i++)
		touch(pd_reader_attr(r, i)->name, strlen(pd_reader_attr(r, i)->name));
	pd_reader_free(r);
	return 0;
}
