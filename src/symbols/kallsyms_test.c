/* Unit tests for symbols/kallsyms.c's block loader fast path: each text
 * is loaded from a file and compared with feeding its lines one by one to
 * sym_kallsyms_line (the reference). The edges are those the fast path
 * could get wrong: digits that are not hex (every byte at every address
 * position), uppercase digits, short and long addresses, lines split
 * across the 64 KB read blocks, names with tabs and modules, name lengths
 * around the fixed 32/64-byte copies, name blocks filling up. */
#include "symbols/kallsyms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "kallsyms_ref.h"
#include "unit.h"

/* sym_kallsyms_load of text written to a temporary file; false when the
 * file could not be written or the load failed. */
static bool by_file(const char *text, size_t len, struct ks_ref *r)
{
	char path[] = "/tmp/scorch-unit-ks-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return false;
	bool ok = write(fd, text, len) == (ssize_t)len;
	close(fd);
	struct diag d = DIAG_INIT;
	if (ok)
		r->added = sym_kallsyms_load(path, &r->t, &r->bad, &r->text, &d);
	unlink(path);
	return ok && r->added >= 0;
}

static bool same_entries(const struct sym_table *a, const struct sym_table *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct sym_entry *x = &a->syms[i], *y = &b->syms[i];
		if (x->start != y->start || x->end != y->end || x->seq != y->seq ||
		    x->bind != y->bind || x->module != y->module ||
		    x->sized != y->sized || strcmp(x->name, y->name) != 0)
			return false;
	}
	return true;
}

/* Load text both ways; true when tables, counts and _text agree. *out
 * (when not NULL) gets the file's result, to release. */
static bool same_both_ways(const char *text, size_t len, struct ks_ref *out)
{
	struct ks_ref f = { SYM_TABLE_INIT, 0, 0, 0 };
	struct ks_ref l = { SYM_TABLE_INIT, 0, 0, 0 };
	bool ok = by_file(text, len, &f);
	ks_ref_lines(text, len, &l);
	ok = ok && f.added == l.added && f.bad == l.bad && f.text == l.text &&
	     same_entries(&f.t, &l.t);
	if (!ok)
		fprintf(stderr, "# file: %d added, %llu bad; lines: %d added, %llu bad\n",
			f.added, (unsigned long long)f.bad, l.added,
			(unsigned long long)l.bad);
	sym_table_release(&l.t);
	if (out)
		*out = f;
	else
		sym_table_release(&f.t);
	return ok;
}

/* Every byte value at every position of a 16-digit address: only the 22
 * hex digits (either case) make a symbol, (almost) any other byte a bad
 * line. */
UNIT_TEST(kallsyms_fast_every_address_byte)
{
	struct strbuf sb = SB_INIT;
	for (int pos = 0; pos < 16; pos++) {
		for (int b = 1; b < 256; b++) {
			if (b == '\n')
				continue;
			char addr[17] = "ffffffff81000000";
			addr[pos] = (char)b;
			sb_add(&sb, addr, 16);
			sb_addf(&sb, " T s%d_%d\n", pos, b);
		}
	}
	struct ks_ref r;
	CHECK(same_both_ways(sb.buf, sb.len, &r));
	/* one not bad: ' ' at 14 makes "ffffffff810000 0 T...", type '0' */
	CHECK(r.added == 16 * 22 && r.bad == 16 * (254 - 22) - 1);
	sym_table_release(&r.t);
	sb_release(&sb);
}

/* Uppercase and mixed-case digits convert to the same values. */
UNIT_TEST(kallsyms_fast_uppercase)
{
	static const char text[] =
		"FFFFFFFF8100ABCD T upper\n"
		"ffffffff8100abce T lower\n"
		"fFfFfFfF8100AbCf T mixed\n"
		"0123456789ABCDEF t all_digits\n";
	struct ks_ref r;
	CHECK(same_both_ways(text, sizeof(text) - 1, &r));
	CHECK(r.added == 4 && r.t.n == 4);
	CHECK(r.t.n == 4 && r.t.syms[0].start == 0x0123456789abcdefull &&
	      r.t.syms[1].start == 0xffffffff8100abcdull &&
	      strcmp(r.t.syms[1].name, "upper") == 0 &&
	      r.t.syms[3].start == 0xffffffff8100abcfull);
	sym_table_release(&r.t);
}

/* Addresses of other lengths and prefixes that look like the fast shape
 * but are not (they go through split, or are bad). */
UNIT_TEST(kallsyms_fast_other_shapes)
{
	static const char text[] =
		"81000000 T short8\n"
		"1 t one_digit\n"
		"ffffffff810000001 T seventeen\n"     /* bad */
		"ffffffff81000000  T two_spaces\n"    /* bad */
		"ffffffff81000000 TT glued\n"         /* bad */
		"ffffffff81000000\tT tab_sep\n"       /* bad */
		"ffffffff81000000 T\n"                /* bad */
		"ffffffff81000000 T \n"               /* bad: kept, no name */
		"ffffffff81000000 r \n"               /* passed over */
		"ffffffff81000000 \t \n"              /* passed over */
		"ffffffff81000010 A absolute\n"       /* passed over */
		"ffffffff81000020 t $x\n"             /* passed over */
		"ffffffff81000030 T name with spaces\n"
		"ffffffff81000040 T crlf\r\n"
		"\n\n"
		"ffffffff81000050 t no_newline_at_end";
	struct ks_ref r;
	CHECK(same_both_ways(text, sizeof(text) - 1, &r));
	CHECK(r.added == 5 && r.bad == 6);
	sym_table_release(&r.t);
	/* the last line in the fast shape, without its '\n' */
	static const char last[] = "ffffffff81000000 T _text";
	CHECK(same_both_ways(last, sizeof(last) - 1, &r));
	CHECK(r.added == 1 && r.text == 0xffffffff81000000ull);
	sym_table_release(&r.t);
}

/* Tabs: the name ends at the first one, a '[' after it marks a module;
 * _text is recognized by its bare name. */
UNIT_TEST(kallsyms_fast_tabs_modules)
{
	static const char text[] =
		"ffffffffc0000000 t mod_fn\t[mymod]\n"
		"ffffffffc0000010 t no_bracket\tmymod\n"
		"ffffffffc0000020 T \t[empty_name]\n"
		"ffffffffc0000030 t two_tabs\t\t[m]\n"
		"ffffffffc0000040 t late_bracket\tx y [z\n"
		"ffffffff81000000 T _text\t[not_really]\n"
		"ffffffff81000010 T _textual\n"
		"ffffffffc0000050 r rodata\t[m]\n";
	struct ks_ref r;
	CHECK(same_both_ways(text, sizeof(text) - 1, &r));
	CHECK(r.added == 7 && r.bad == 0 && r.text == 0xffffffff81000000ull);
	bool mods = r.t.n == 7;
	for (size_t i = 0; mods && i < r.t.n; i++)
		if (strcmp(r.t.syms[i].name, "mod_fn") == 0)
			mods = r.t.syms[i].module;
		else if (strcmp(r.t.syms[i].name, "no_bracket") == 0)
			mods = !r.t.syms[i].module;
	CHECK(mods);
	sym_table_release(&r.t);
}

/* Names of every length around the 32- and 64-byte copies, and enough of
 * them to fill several 64 KB name blocks (copies near a block's end). */
UNIT_TEST(kallsyms_fast_name_lengths)
{
	struct strbuf sb = SB_INIT;
	for (int i = 0; i < 6000; i++) {
		int len = 1 + i % 131;
		sb_addf(&sb, "ffffffff8%07x T ", i * 16);
		for (int k = 0; k < len; k++)
			sb_addc(&sb, (char)('a' + (i + k) % 26));
		sb_addc(&sb, i % 7 ? '\n' : '\t');
		if (i % 7 == 0)
			sb_add(&sb, "[m]\n", 4);
	}
	struct ks_ref r;
	CHECK(same_both_ways(sb.buf, sb.len, &r));
	CHECK(r.added == 6000);
	sym_table_release(&r.t);
	sb_release(&sb);
}

/* A text whose line at offset 65536 - k (the first read block ends at
 * 65536) is the interesting one, for every k that puts the block's end
 * in its address, type, name, tab, module or newline. */
static void boundary_text(struct strbuf *sb, size_t k)
{
	sb_reset(sb);
	size_t at = 65536 - k;
	while (sb->len + 2 * 40 < at)
		sb_addf(sb, "ffffffff8%07zx t fill_%016zx\n", sb->len, sb->len);
	size_t pad = at - sb->len - 19 - 1;
	sb_add(sb, "ffffffff81000000 T ", 19);
	for (size_t i = 0; i < pad; i++)
		sb_addc(sb, 'p');
	sb_addc(sb, '\n');
	sb_add(sb, "ffffffffc0abcdef t across_the_block_end\t[a_module]\n", 51);
	sb_add(sb, "FFFFFFFF81ABCDEF T after\n", 25);
}

UNIT_TEST(kallsyms_fast_block_boundary)
{
	struct strbuf sb = SB_INIT;
	bool same = true, placed = true;
	for (size_t k = 0; k <= 56; k++) {
		boundary_text(&sb, k);
		placed = placed && sb.len == 65536 - k + 51 + 25;
		same = same && same_both_ways(sb.buf, sb.len, NULL);
	}
	CHECK(placed);
	CHECK(same);
	sb_release(&sb);
}
