/*
 * decode: field-by-field decoding of perf.data records (perfdata-format.md
 * §6-§8). Stage: perfdata. Every field is read at its real width with
 * the file's byte order (no "swap as u64 then repair"); byte blobs (RAW,
 * STACK_USER, AUX) are handed out as pointers in the recorder's order.
 * Invariant: nothing is read outside rec->data[0 .. rec->size).
 */
#include "perfdata/decode.h"

#include "base/cursor.h"
#include "base/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR 8

void pd_decoder_release(struct pd_decoder *dc)
{
	free(dc->chain);
	free(dc->br);
	free(dc->regs_u);
	free(dc->regs_i);
	free(dc->str);
	memset(dc, 0, sizeof(*dc));
}

static int fail(struct pd_decoder *dc, const char *why)
{
	dc->why = why;
	return -EINVAL;
}

/* fail with a reason that names the size read from the record. */
static int fail_size(struct pd_decoder *dc, const char *what, uint64_t n,
		     const char *unit)
{
	snprintf(dc->why_buf, sizeof(dc->why_buf), "%s of %" PRIu64 " %s past record end",
		 what, n, unit);
	return fail(dc, dc->why_buf);
}

int pd_sample_id_pos(uint64_t st)
{
	int pos = 0;

	if (st & PD_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PD_SAMPLE_ID))
		return -1;
	pos += (st & PD_SAMPLE_IP) ? 8 : 0;
	pos += (st & PD_SAMPLE_TID) ? 8 : 0;
	pos += (st & PD_SAMPLE_TIME) ? 8 : 0;
	pos += (st & PD_SAMPLE_ADDR) ? 8 : 0;
	return pos;
}

int pd_trailer_id_pos(uint64_t st)
{
	int pos = 1;

	if (st & PD_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PD_SAMPLE_ID))
		return -1;
	pos += (st & PD_SAMPLE_CPU) ? 1 : 0;
	pos += (st & PD_SAMPLE_STREAM_ID) ? 1 : 0;
	return pos;
}

size_t pd_trailer_size(uint64_t st)
{
	static const uint64_t bits[] = {
		PD_SAMPLE_TID, PD_SAMPLE_TIME, PD_SAMPLE_ID,
		PD_SAMPLE_STREAM_ID, PD_SAMPLE_CPU, PD_SAMPLE_IDENTIFIER,
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		n += (st & bits[i]) ? 8 : 0;
	return n;
}

/* ---- samples ---- */

/* Copy n u64 values from the cursor into a host-order array. */
static const uint64_t *take_u64s(struct cursor *c, uint64_t **arr,
				 size_t *cap, uint64_t n)
{
	if (n > c->left / 8) {
		cur_need(c, c->left + 1);
		return NULL;
	}
	if (n >= *cap)
		XGROW(*arr, *cap, n + 1);
	if (n)
		memcpy(*arr, cur_bytes(c, (size_t)n * 8), (size_t)n * 8);
	if (c->swap)
		for (uint64_t i = 0; i < n; i++)
			(*arr)[i] = __builtin_bswap64((*arr)[i]);
	return *arr;
}

/* Branch flags of a big-endian writer: fields sit mirrored from bit 63. */
static uint64_t branch_flags_from_be(uint64_t v)
{
	static const unsigned char f[][2] = {
		{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 },
		{ 24, 2 }, { 26, 4 }, { 30, 3 }, { 33, 31 },
	};
	uint64_t out = 0;

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		unsigned pos = f[i][0], w = f[i][1];
		uint64_t mask = ((uint64_t)1 << w) - 1;
		out |= ((v >> (64 - pos - w)) & mask) << pos;
	}
	return out;
}

static int sample_branches(struct pd_decoder *dc, struct cursor *c,
			   const struct pd_attr *a, struct pd_sample *s)
{
	uint64_t nr = cur_u64(c);

	if (a->branch_sample_type & (1u << 17)) {
		s->has_hw_idx = true;
		s->branch_hw_idx = cur_u64(c);
	}
	if (nr > c->left / 24)
		return fail_size(dc, "branch stack", nr, "entries");
	if (nr > dc->br_cap)
		XGROW(dc->br, dc->br_cap, nr);
	for (uint64_t i = 0; i < nr; i++) {
		dc->br[i].from = cur_u64(c);
		dc->br[i].to = cur_u64(c);
		uint64_t fl = cur_u64(c);
		dc->br[i].flags = dc->writer_be ? branch_flags_from_be(fl) : fl;
	}
	if ((a->branch_sample_type & (1u << 19)) && !cur_skip(c, nr * 8))
		return fail(dc, "branch counters past record end");
	s->nr_branches = nr;
	s->branches = dc->br;
	return 0;
}

static int sample_regs(struct pd_decoder *dc, struct cursor *c, uint64_t mask,
		       struct pd_regs *r, uint64_t **arr, size_t *cap)
{
	r->abi = cur_u64(c);
	r->mask = mask;
	if (r->abi == 0)
		return 0;
	r->nr = (size_t)__builtin_popcountll(mask);
	r->regs = take_u64s(c, arr, cap, r->nr);
	return r->regs ? 0 : fail(dc, "registers past record end");
}

static int sample_read(struct pd_decoder *dc, struct cursor *c,
		       const struct pd_attr *a, struct pd_sample *s)
{
	uint64_t rf = a->read_format, per = 1, n;

	per += (rf & PD_FORMAT_ID) ? 1 : 0;
	per += (rf & PD_FORMAT_LOST) ? 1 : 0;
	n = (rf & PD_FORMAT_TOTAL_TIME_ENABLED ? 1 : 0) +
	    (rf & PD_FORMAT_TOTAL_TIME_RUNNING ? 1 : 0);
	if (rf & PD_FORMAT_GROUP) {
		struct cursor peek = *c;
		uint64_t nr = cur_u64(&peek);
		if (nr > c->left / 8 / per)
			return fail(dc, "read values past record end");
		n += 1 + nr * per;
	} else {
		n += per;
	}
	if (n > c->left / 8)
		return fail(dc, "read values past record end");
	s->read_size = (size_t)n * 8;
	s->read = cur_bytes(c, s->read_size);
	return 0;
}

static int sample_stack(struct pd_decoder *dc, struct cursor *c,
			struct pd_sample *s)
{
	uint64_t size = cur_u64(c);

	if (size == 0)
		return 0;
	if (size > c->left)
		return fail_size(dc, "user stack", size, "bytes");
	s->stack = cur_bytes(c, (size_t)size);
	s->stack_size = size;
	s->stack_dyn_size = cur_u64(c);
	if (s->stack_dyn_size > size)
		s->stack_dyn_size = size;
	return 0;
}

static inline uint64_t ld64(const uint8_t *p, bool swap)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static inline uint32_t ld32(const uint8_t *p, bool swap)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

enum {
	HEAD_BITS = PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID |
		    PD_SAMPLE_TIME | PD_SAMPLE_ADDR | PD_SAMPLE_ID |
		    PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_PERIOD,
};

/* Fields up to PERIOD: 8 bytes each, so one length check covers them
 * all and they are loaded straight from the record (the hot path). */
static bool sample_head(struct cursor *c, uint64_t st, struct pd_sample *s)
{
	size_t need = 8 * (size_t)__builtin_popcountll(st & HEAD_BITS);
	const uint8_t *p = c->p;
	bool sw = c->swap;

	if (!cur_need(c, need))
		return false;
	if (st & PD_SAMPLE_IDENTIFIER)
		s->id = ld64(p, sw), p += 8;
	if (st & PD_SAMPLE_IP)
		s->ip = ld64(p, sw), p += 8;
	if (st & PD_SAMPLE_TID)
		s->pid = ld32(p, sw), s->tid = ld32(p + 4, sw), p += 8;
	if (st & PD_SAMPLE_TIME)
		s->time = ld64(p, sw), p += 8;
	if (st & PD_SAMPLE_ADDR)
		s->addr = ld64(p, sw), p += 8;
	if (st & PD_SAMPLE_ID)
		s->id = ld64(p, sw), p += 8;
	if (st & PD_SAMPLE_STREAM_ID)
		s->stream_id = ld64(p, sw), p += 8;
	if (st & PD_SAMPLE_CPU)
		s->cpu = ld32(p, sw), p += 8;
	if (st & PD_SAMPLE_PERIOD)
		s->period = ld64(p, sw);
	cur_advance(c, need);
	return true;
}

/* u64 nr + nr u64s, with one length check and one cursor move. */
static int sample_chain(struct pd_decoder *dc, struct cursor *c,
			struct pd_sample *s)
{
	size_t left = c->left;
	const uint8_t *p = c->p;
	uint64_t nr;

	if (left < 8)
		return -1;
	nr = ld64(p, c->swap);
	if (nr > (left - 8) / 8)
		return -1;
	if (nr >= dc->chain_cap)
		XGROW(dc->chain, dc->chain_cap, nr + 1);
	memcpy(dc->chain, p + 8, (size_t)nr * 8);
	if (c->swap)
		for (uint64_t i = 0; i < nr; i++)
			dc->chain[i] = __builtin_bswap64(dc->chain[i]);
	s->nr_callchain = nr;
	s->callchain = dc->chain;
	cur_advance(c, 8 + (size_t)nr * 8);
	return 0;
}

static int sample_middle(struct pd_decoder *dc, struct cursor *c,
			 const struct pd_attr *a, struct pd_sample *s)
{
	uint64_t st = a->sample_type;

	if ((st & PD_SAMPLE_READ) && sample_read(dc, c, a, s))
		return -EINVAL;
	if ((st & PD_SAMPLE_CALLCHAIN) && sample_chain(dc, c, s))
		return c->left < 8 ? fail(dc, "callchain past record end")
		     : fail_size(dc, "callchain", ld64(c->p, c->swap), "entries");
	if (st & PD_SAMPLE_RAW) {
		s->raw_size = cur_u32(c);
		s->raw = cur_bytes(c, s->raw_size);
		if (!s->raw)
			return fail_size(dc, "raw data", s->raw_size, "bytes");
	}
	if ((st & PD_SAMPLE_BRANCH_STACK) && sample_branches(dc, c, a, s))
		return -EINVAL;
	if ((st & PD_SAMPLE_REGS_USER) &&
	    sample_regs(dc, c, a->sample_regs_user, &s->regs_user,
			&dc->regs_u, &dc->regs_u_cap))
		return -EINVAL;
	if ((st & PD_SAMPLE_STACK_USER) && sample_stack(dc, c, s))
		return -EINVAL;
	return 0;
}

static int sample_tail(struct pd_decoder *dc, struct cursor *c,
		       const struct pd_attr *a, struct pd_sample *s)
{
	uint64_t st = a->sample_type;

	if (st & (PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT))
		s->weight = cur_u64(c);
	if (st & PD_SAMPLE_DATA_SRC)
		s->data_src = cur_u64(c);
	if (st & PD_SAMPLE_TRANSACTION)
		s->transaction = cur_u64(c);
	if ((st & PD_SAMPLE_REGS_INTR) &&
	    sample_regs(dc, c, a->sample_regs_intr, &s->regs_intr,
			&dc->regs_i, &dc->regs_i_cap))
		return -EINVAL;
	if (st & PD_SAMPLE_PHYS_ADDR)
		s->phys_addr = cur_u64(c);
	if (st & PD_SAMPLE_CGROUP)
		s->cgroup = cur_u64(c);
	if (st & PD_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = cur_u64(c);
	if (st & PD_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = cur_u64(c);
	if (st & PD_SAMPLE_AUX) {
		s->aux_size = cur_u64(c);
		if (s->aux_size > c->left)
			return fail_size(dc, "aux sample", s->aux_size, "bytes");
		s->aux = cur_bytes(c, (size_t)s->aux_size);
	}
	return 0;
}

/* Field by field: a memset of the whole struct (rep stos) was a third
 * of the decode time on small samples. */
static void sample_clear(struct pd_sample *s)
{
	s->ip = s->time = s->addr = s->id = s->stream_id = 0;
	s->pid = s->tid = s->cpu = 0;
	s->read = NULL;
	s->read_size = 0;
	s->nr_callchain = 0;
	s->callchain = NULL;
	s->raw = NULL;
	s->raw_size = 0;
	s->nr_branches = s->branch_hw_idx = 0;
	s->has_hw_idx = false;
	s->branches = NULL;
	s->regs_user.abi = s->regs_user.mask = 0;
	s->regs_user.regs = NULL;
	s->regs_user.nr = 0;
	s->stack = NULL;
	s->stack_size = s->stack_dyn_size = 0;
	s->weight = s->data_src = s->transaction = 0;
	s->regs_intr.abi = s->regs_intr.mask = 0;
	s->regs_intr.regs = NULL;
	s->regs_intr.nr = 0;
	s->phys_addr = s->cgroup = s->data_page_size = s->code_page_size = 0;
	s->aux = NULL;
	s->aux_size = 0;
}

int pd_decode_sample(struct pd_decoder *dc, const struct pd_record *rec,
		     const struct pd_attr *a, struct pd_sample *s)
{
	struct cursor c;

	sample_clear(s);
	s->rec = rec;
	s->attr = a;
	s->cpumode = rec->misc & PD_MISC_CPUMODE_MASK;
	s->sample_type = a->sample_type;
	s->period = a->sample_period;
	cur_init(&c, rec->data + HDR, rec->size - HDR, rec->offset + HDR,
		 rec->swap);
	if (!sample_head(&c, a->sample_type, s))
		return fail(dc, "sample shorter than its sample_type");
	if (sample_middle(dc, &c, a, s) || sample_tail(dc, &c, a, s))
		return -EINVAL;
	if (c.err)
		return fail(dc, "sample shorter than its sample_type");
	return 0;
}

/* ---- sample_id_all trailer ---- */

int pd_decode_trailer(struct pd_decoder *dc, const struct pd_record *rec,
		      const struct pd_attr *a, struct pd_sample_id *sid,
		      size_t *payload_end)
{
	size_t len = rec->size - HDR, tsize;
	struct cursor c;
	uint64_t st;

	memset(sid, 0, sizeof(*sid));
	*payload_end = len;
	if (!a || !pd_attr_flag(a, PD_ATTR_SAMPLE_ID_ALL))
		return 0;
	st = a->sample_type;
	tsize = pd_trailer_size(st);
	if (tsize > len)
		return fail(dc, "record shorter than its sample_id trailer");
	*payload_end = len - tsize;
	cur_init(&c, rec->data + HDR + len - tsize, tsize,
		 rec->offset + HDR + len - tsize, rec->swap);
	sid->present = st & (PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID |
			     PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU |
			     PD_SAMPLE_IDENTIFIER);
	if (st & PD_SAMPLE_TID) {
		sid->pid = cur_u32(&c);
		sid->tid = cur_u32(&c);
	}
	if (st & PD_SAMPLE_TIME)
		sid->time = cur_u64(&c);
	if (st & PD_SAMPLE_ID)
		sid->id = cur_u64(&c);
	if (st & PD_SAMPLE_STREAM_ID)
		sid->stream_id = cur_u64(&c);
	if (st & PD_SAMPLE_CPU) {
		sid->cpu = cur_u32(&c);
		cur_u32(&c);
	}
	if (st & PD_SAMPLE_IDENTIFIER)
		sid->id = cur_u64(&c);
	return 0;
}

/* ---- other kernel records ---- */

/* A NUL-terminated string from the next len bytes: borrowed when the
 * record has the NUL, else copied to scratch with one added. */
static const char *take_str(struct pd_decoder *dc, struct cursor *c)
{
	size_t len = c->left;
	const char *p = (const char *)cur_bytes(c, len);
	size_t n = p ? strnlen(p, len) : 0;

	if (p && n < len)
		return p;
	if (n + 1 > dc->str_cap)
		XGROW(dc->str, dc->str_cap, n + 1);
	if (n)
		memcpy(dc->str, p, n);
	dc->str[n] = 0;
	return dc->str;
}

/* Cursor over the payload before the trailer. */
static int payload(struct pd_decoder *dc, const struct pd_record *rec,
		   const struct pd_attr *a, struct pd_sample_id *sid,
		   struct cursor *c, size_t min)
{
	size_t end;

	if (pd_decode_trailer(dc, rec, a, sid, &end))
		return -EINVAL;
	if (end < min)
		return fail(dc, "record shorter than its fixed fields");
	cur_init(c, rec->data + HDR, end, rec->offset + HDR, rec->swap);
	return 0;
}

int pd_decode_mmap(struct pd_decoder *dc, const struct pd_record *rec,
		   const struct pd_attr *a, struct pd_mmap *m)
{
	struct cursor c;

	memset(m, 0, sizeof(*m));
	m->rec = rec;
	m->mmap2 = rec->type == PD_RECORD_MMAP2;
	m->cpumode = rec->misc & PD_MISC_CPUMODE_MASK;
	m->data = rec->misc & PD_MISC_MMAP_DATA;
	if (payload(dc, rec, a, &m->sid, &c, m->mmap2 ? 64 : 32))
		return -EINVAL;
	m->pid = cur_u32(&c);
	m->tid = cur_u32(&c);
	m->start = cur_u64(&c);
	m->len = cur_u64(&c);
	m->pgoff = cur_u64(&c);
	if (m->mmap2 && (rec->misc & PD_MISC_MMAP_BUILD_ID)) {
		m->has_build_id = true;
		m->build_id_size = cur_u8(&c);
		cur_skip(&c, 3);
		memcpy(m->build_id, cur_bytes(&c, 20), 20);
		if (m->build_id_size > 20)
			m->build_id_size = 20;
	} else if (m->mmap2) {
		m->maj = cur_u32(&c);
		m->min = cur_u32(&c);
		m->ino = cur_u64(&c);
		m->ino_generation = cur_u64(&c);
	}
	if (m->mmap2) {
		m->prot = cur_u32(&c);
		m->flags = cur_u32(&c);
	}
	m->filename = take_str(dc, &c);
	return 0;
}

int pd_decode_comm(struct pd_decoder *dc, const struct pd_record *rec,
		   const struct pd_attr *a, struct pd_comm *cm)
{
	struct cursor c;

	memset(cm, 0, sizeof(*cm));
	cm->rec = rec;
	cm->exec = rec->misc & PD_MISC_COMM_EXEC;
	if (payload(dc, rec, a, &cm->sid, &c, 8))
		return -EINVAL;
	cm->pid = cur_u32(&c);
	cm->tid = cur_u32(&c);
	cm->comm = take_str(dc, &c);
	return 0;
}

int pd_decode_task(struct pd_decoder *dc, const struct pd_record *rec,
		   const struct pd_attr *a, struct pd_task *t)
{
	struct cursor c;

	memset(t, 0, sizeof(*t));
	t->rec = rec;
	t->exit = rec->type == PD_RECORD_EXIT;
	if (payload(dc, rec, a, &t->sid, &c, 24))
		return -EINVAL;
	t->pid = cur_u32(&c);
	t->ppid = cur_u32(&c);
	t->tid = cur_u32(&c);
	t->ptid = cur_u32(&c);
	t->time = cur_u64(&c);
	return 0;
}

int pd_decode_lost(struct pd_decoder *dc, const struct pd_record *rec,
		   const struct pd_attr *a, struct pd_lost *l)
{
	struct cursor c;

	memset(l, 0, sizeof(*l));
	l->rec = rec;
	l->lost_samples = rec->type == PD_RECORD_LOST_SAMPLES;
	if (payload(dc, rec, a, &l->sid, &c, l->lost_samples ? 8 : 16))
		return -EINVAL;
	if (!l->lost_samples)
		l->id = cur_u64(&c);
	l->lost = cur_u64(&c);
	return 0;
}

int pd_decode_ksymbol(struct pd_decoder *dc, const struct pd_record *rec,
		      const struct pd_attr *a, struct pd_ksymbol *k)
{
	struct cursor c;

	memset(k, 0, sizeof(*k));
	k->rec = rec;
	if (payload(dc, rec, a, &k->sid, &c, 16))
		return -EINVAL;
	k->addr = cur_u64(&c);
	k->len = cur_u32(&c);
	k->ksym_type = cur_u16(&c);
	k->flags = cur_u16(&c);
	k->name = take_str(dc, &c);
	return 0;
}

int pd_decode_switch(struct pd_decoder *dc, const struct pd_record *rec,
		     const struct pd_attr *a, struct pd_switch *s)
{
	struct cursor c;

	memset(s, 0, sizeof(*s));
	s->rec = rec;
	s->cpu_wide = rec->type == PD_RECORD_SWITCH_CPU_WIDE;
	s->out = rec->misc & PD_MISC_SWITCH_OUT;
	s->preempt = rec->misc & PD_MISC_SWITCH_OUT_PREEMPT;
	if (payload(dc, rec, a, &s->sid, &c, s->cpu_wide ? 8 : 0))
		return -EINVAL;
	if (s->cpu_wide) {
		s->next_prev_pid = cur_u32(&c);
		s->next_prev_tid = cur_u32(&c);
	}
	return 0;
}

int pd_decode_build_id(struct pd_decoder *dc, const uint8_t *p, size_t len,
		       bool swap, struct pd_build_id *b)
{
	struct cursor c;
	uint16_t misc;

	memset(b, 0, sizeof(*b));
	cur_init(&c, p, len, 0, swap);
	if (len < 8 + 4 + 24)
		return fail(dc, "build id entry too short");
	cur_u32(&c);
	misc = cur_u16(&c);
	cur_u16(&c);
	b->cpumode = misc & PD_MISC_CPUMODE_MASK;
	b->pid = (int32_t)cur_u32(&c);
	memcpy(b->build_id, cur_bytes(&c, 20), 20);
	b->size = cur_u8(&c);
	cur_skip(&c, 3);
	if (!(misc & PD_MISC_BUILD_ID_SIZE) || b->size > 20)
		b->size = 20;
	b->filename = take_str(dc, &c);
	return 0;
}
