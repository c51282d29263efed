/*
 * decode: turns one raw record into its pd_* struct (internal to perfdata).
 * Stage: perfdata. Pure functions over a pd_record and the attr that owns
 * it; all reads go through a bounds-checked cursor, so a malformed record
 * yields -EINVAL and a short reason, never a read past header.size.
 * Arrays that need host byte order (callchain, branch entries, regs) are
 * copied into the decoder's scratch buffers, which grow to the largest
 * record seen and are reused: no allocation per record in steady state.
 */
#ifndef SCORCH_PERFDATA_DECODE_H
#define SCORCH_PERFDATA_DECODE_H

#include "perfdata/record.h"

struct pd_decoder {
	uint64_t *chain;  size_t chain_cap;
	struct pd_branch_entry *br; size_t br_cap;
	uint64_t *regs_u; size_t regs_u_cap;
	uint64_t *regs_i; size_t regs_i_cap;
	char *str; size_t str_cap;
	bool writer_be;          /* the recorder's byte order */
	const char *why;         /* reason of the last -EINVAL */
	char why_buf[96];        /* why, when it carries a number */
};

void pd_decoder_release(struct pd_decoder *dc);

/* Byte offset (from the payload start) of the sample id, or -1. */
int pd_sample_id_pos(uint64_t sample_type);
/* Position of the id counted in u64s from the record end, or -1. */
int pd_trailer_id_pos(uint64_t sample_type);
/* Bytes of a sample_id_all trailer for this sample_type. */
size_t pd_trailer_size(uint64_t sample_type);

int pd_decode_sample(struct pd_decoder *dc, const struct pd_record *rec,
		     const struct pd_attr *a, struct pd_sample *s);
/* Trailer of a kernel record; a may be NULL (no trailer). *payload_end
 * gets the payload length left before the trailer. */
int pd_decode_trailer(struct pd_decoder *dc, const struct pd_record *rec,
		      const struct pd_attr *a, struct pd_sample_id *sid,
		      size_t *payload_end);
int pd_decode_mmap(struct pd_decoder *dc, const struct pd_record *rec,
		   const struct pd_attr *a, struct pd_mmap *m);
int pd_decode_comm(struct pd_decoder *dc, const struct pd_record *rec,
		   const struct pd_attr *a, struct pd_comm *c);
int pd_decode_task(struct pd_decoder *dc, const struct pd_record *rec,
		   const struct pd_attr *a, struct pd_task *t);
int pd_decode_lost(struct pd_decoder *dc, const struct pd_record *rec,
		   const struct pd_attr *a, struct pd_lost *l);
int pd_decode_ksymbol(struct pd_decoder *dc, const struct pd_record *rec,
		      const struct pd_attr *a, struct pd_ksymbol *k);
int pd_decode_switch(struct pd_decoder *dc, const struct pd_record *rec,
		     const struct pd_attr *a, struct pd_switch *s);
/* A build id entry (HEADER_BUILD_ID record or BUILD_ID feature entry):
 * p/len cover the whole entry, header included. */
int pd_decode_build_id(struct pd_decoder *dc, const uint8_t *p, size_t len,
		       bool swap, struct pd_build_id *b);

#endif
