/* pprof_test: the protobuf encoder and the Profile message
 * (render/pprof.c) against bytes computed by hand from the protobuf
 * encoding rules (varints 7 bits a byte, low first; key = field << 3 |
 * wire type; length-delimited: key, length, bytes). */
#include "render/pprof.h"
#include "unit.h"

#include <string.h>

static bool bytes_are(const struct strbuf *sb, const unsigned char *want, size_t n)
{
	return sb->len == n && memcmp(sb->buf, want, n) == 0;
}

#define IS(sb, ...) do { \
	static const unsigned char w_[] = { __VA_ARGS__ }; \
	CHECK(bytes_are(sb, w_, sizeof(w_))); \
	sb_reset(sb); \
} while (0)

UNIT_TEST(pprof_varints)
{
	struct strbuf o = SB_INIT;
	pb_varint(&o, 0);
	IS(&o, 0x00);
	pb_varint(&o, 1);
	IS(&o, 0x01);
	pb_varint(&o, 127);
	IS(&o, 0x7f);
	pb_varint(&o, 128);
	IS(&o, 0x80, 0x01);
	pb_varint(&o, 300);
	IS(&o, 0xac, 0x02);
	pb_varint(&o, UINT64_MAX);
	IS(&o, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
	sb_release(&o);
}

UNIT_TEST(pprof_fields)
{
	struct strbuf o = SB_INIT;
	pb_uint(&o, 1, 150);
	IS(&o, 0x08, 0x96, 0x01);
	pb_tag(&o, 16, PB_VARINT); /* a key over one byte */
	IS(&o, 0x80, 0x01);
	pb_bytes(&o, 2, "testing", 7);
	IS(&o, 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g');
	uint64_t v[] = { 3, 270, 86942 };
	pb_packed(&o, 4, v, 3);
	IS(&o, 0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05);
	pb_packed(&o, 4, v, 0);
	CHECK(o.len == 0); /* an empty packed field is left out */
	sb_release(&o);
}

UNIT_TEST(pprof_profile_message)
{
	struct profile p;
	profile_init(&p, 0);
	profile_add_folded(&p, "a;b", 3, 3, 3);
	struct collapse_opts co = COLLAPSE_OPTS_INIT;
	struct prof_names nm;
	prof_names_init(&nm, &co);
	struct pprof_meta m = { .type = { "samples" }, .unit = { "count" }, .ntypes = 1 };
	struct strbuf o = SB_INIT;
	pprof_from_profile(&p, &nm, &m, &o);
	IS(&o,
	   0x0a, 0x04, 0x08, 0x01, 0x10, 0x02,             /* sample_type 1/2 */
	   0x2a, 0x06, 0x08, 0x01, 0x10, 0x03, 0x18, 0x03, /* function 1 "b" */
	   0x22, 0x06, 0x08, 0x01, 0x22, 0x02, 0x08, 0x01, /* location 1 */
	   0x2a, 0x06, 0x08, 0x02, 0x10, 0x04, 0x18, 0x04, /* function 2 "a" */
	   0x22, 0x06, 0x08, 0x02, 0x22, 0x02, 0x08, 0x02, /* location 2 */
	   0x12, 0x07, 0x0a, 0x02, 0x01, 0x02, 0x12, 0x01, 0x03, /* sample: b a, 3 */
	   0x32, 0x00,                                     /* string_table */
	   0x32, 0x07, 's', 'a', 'm', 'p', 'l', 'e', 's',
	   0x32, 0x05, 'c', 'o', 'u', 'n', 't',
	   0x32, 0x01, 'b', 0x32, 0x01, 'a');
	sb_release(&o);
	prof_names_release(&nm);
	profile_release(&p);
}
