/*
 * fuzz-fleet-push: the fleet TSV encoder and the parsers of `scorch
 * push` (URL, labels, app name, the server's answer). A first byte
 * '0', '1' or '2' picks the part (any other: all of it goes to part 0,
 * so folded files are seeds as they are):
 *   0: the rest as folded lines -> a profile (every other stack also
 *      gets per-sample rows at times and pids taken from its bytes) ->
 *      fleettsv_write; each row must have 8 fields with no raw TAB, LF
 *      or CR inside, and the frames field must decode (TSV rules) back
 *      to the stack's names: a mismatch aborts.
 *   1: the rest split at the first LF: a URL and "K=V" label lines (and
 *      the first line also as an app name) -> the request head, which
 *      must hold CR LF only at line ends and nothing below 0x20 else.
 *   2: the rest as a server's answer -> http_reply_parse.
 */
#include "base/hmap.h"
#include "base/http.h"
#include "profile/profile.h"
#include "render/fleettsv.h"
#include "render/pyroscope.h"
#include "stacks/folded.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Decode one quoted array element at *p; false when malformed. */
static bool unquote(const char **p, const char *end, struct strbuf *out)
{
	const char *s = *p;
	if (s >= end || *s++ != '\'')
		return false;
	while (s < end && *s != '\'') {
		if (*s == '\\') {
			if (s + 1 >= end)
				return false;
			const char *from = "\\tnr0bf'", *to = "\\\t\n\r\0\b\f'";
			const char *k = memchr(from, s[1], 8);
			if (!k)
				return false;
			sb_addc(out, to[k - from]);
			s += 2;
		} else {
			sb_addc(out, *s++);
		}
	}
	if (s >= end)
		return false;
	*p = s + 1;
	return true;
}

/* The frames field of a row decodes to names that, joined by ';', are
 * one of the stacks added (in stacks). */
static void check_row(const char *row, size_t len, const struct hmap *stacks)
{
	const char *f[9];
	size_t nf = 0;
	f[nf++] = row;
	for (size_t i = 0; i < len; i++) {
		if (row[i] == '\r')
			abort();
		if (row[i] == '\t') {
			if (nf == 8)
				abort();
			f[nf++] = row + i + 1;
		}
	}
	if (nf != 8)
		abort();
	const char *p = f[5], *end = f[6] - 1;
	struct strbuf names = SB_INIT, one = SB_INIT;
	if (p >= end || *p++ != '[' || end[-1] != ']')
		abort();
	end--;
	while (p < end) {
		sb_reset(&one);
		if (!unquote(&p, end, &one))
			abort();
		sb_add(&names, one.buf, one.len);
		if (p < end) {
			if (*p++ != ',')
				abort();
			sb_addc(&names, ';');
		}
	}
	if (hmap_find(stacks, names.buf, names.len) == (size_t)-1)
		abort();
	sb_release(&one);
	sb_release(&names);
}

static void fuzz_tsv(const uint8_t *d, size_t n)
{
	struct profile p;
	struct prof_names nm;
	struct collapse_opts co = COLLAPSE_OPTS_INIT;
	profile_init(&p, PROF_COL_TIME | PROF_COL_PID);
	prof_names_init(&nm, &co);
	const char *s = (const char *)d, *end = s + n;
	size_t k = 0;
	struct hmap stacks = HMAP_INIT;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		struct stack_folded f;
		if (stack_folded_parse(s, len, &f) == 0 && f.count >= 1) {
			uint64_t c = f.count < 1e18 ? (uint64_t)f.count : 1000000000000000000ull;
			hmap_put(&stacks, f.stack, f.stack_len, NULL);
			bool rows = k++ & 1;
			uint32_t st = profile_add_folded(&p, f.stack, f.stack_len, rows ? 0 : c,
							 rows ? 0 : c);
			for (uint64_t i = 0; rows && i < (c < 4 ? c : 4); i++) {
				struct prof_sample sm = { (uint64_t)(unsigned char)s[0] << 40 |
							  i * 7000000000ull, (int32_t)(len - i), 0, 0 };
				profile_sample(&p, st, 1 + i, &sm);
			}
		}
		s += len + 1;
	}
	struct fleettsv_opts o = { "h\t\\'x", 1 + (n ? d[0] & 15 : 0), 1700000000000000000ull };
	struct strbuf out = SB_INIT;
	fleettsv_write(&p, &nm, &o, &out);
	const char *r = out.buf, *oend = out.buf + out.len;
	while (r < oend) {
		const char *nl = memchr(r, '\n', (size_t)(oend - r));
		if (!nl)
			abort(); /* every row ends with LF */
		check_row(r, (size_t)(nl - r), &stacks);
		r = nl + 1;
	}
	sb_release(&out);
	hmap_release(&stacks);
	prof_names_release(&nm);
	profile_release(&p);
}

static void fuzz_push(const uint8_t *d, size_t n)
{
	char *text = malloc(n + 1);
	if (!text)
		return;
	memcpy(text, d, n);
	text[n] = 0;
	char *nl = strchr(text, '\n'), *labels = nl ? nl + 1 : NULL;
	if (nl)
		*nl = 0;
	struct strbuf err = SB_INIT, head = SB_INIT;
	struct pyro_url u;
	struct pyro_label l[8];
	size_t nl8 = 0;
	pyro_url_init(&u);
	bool app_ok = pyro_app_check(text, &err) == 0;
	while (labels && *labels && nl8 < 8) {
		char *next = strchr(labels, '\n');
		if (next)
			*next++ = 0;
		if (pyro_label_parse(labels, &l[nl8], &err) == 0)
			nl8++;
		labels = next;
	}
	if (pyro_url_parse(text, &u, &err) == 0) {
		struct pyro_ingest in = { app_ok ? text : "app", l, nl8, 1, 2, "folded", 100,
					  "samples", "sum" };
		pyro_request_head(&head, &u, &in, "text/plain", n);
		for (size_t i = 0; i < head.len; i++) {
			unsigned char c = (unsigned char)head.buf[i];
			bool eol = (c == '\r' && i + 1 < head.len && head.buf[i + 1] == '\n') ||
				   (c == '\n' && i && head.buf[i - 1] == '\r');
			if ((c < 0x20 && !eol) || c == 0x7f)
				abort();
		}
	}
	pyro_url_release(&u);
	sb_release(&err);
	sb_release(&head);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int part = data[0] >= '0' && data[0] <= '2' ? data[0] - '0' : -1;
	switch (part) {
	case -1: fuzz_tsv(data, size); break;
	case 0: fuzz_tsv(data + 1, size - 1); break;
	case 1: fuzz_push(data + 1, size - 1); break;
	default: {
		struct http_reply r = HTTP_REPLY_INIT;
		http_reply_parse((const char *)data + 1, size - 1, &r);
		http_reply_release(&r);
	}
	}
	return 0;
}
