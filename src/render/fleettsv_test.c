/* fleettsv_test: the fleet TSV rows (render/fleettsv.c): escaping by
 * ClickHouse's TabSeparated rules, the documented FNV-1a hash (values
 * computed with Python from the description in fleettsv.h), UTC bucket
 * times, and whole rows of a small profile with and without sample rows. */
#include "render/fleettsv.h"
#include "unit.h"

#include <string.h>

static bool sb_is(struct strbuf *sb, const char *want)
{
	bool ok = sb->len == strlen(want) && memcmp(sb->buf, want, sb->len) == 0;
	sb_reset(sb);
	return ok;
}

static uint64_t hash_of(const char *const *names, size_t n)
{
	uint64_t h = FLEETTSV_HASH_INIT;
	for (size_t i = 0; i < n; i++)
		h = fleettsv_hash_add(h, names[i], strlen(names[i]));
	return h;
}

UNIT_TEST(fleettsv_escape)
{
	struct strbuf o = SB_INIT;
	fleettsv_escape(&o, "plain", 5);
	CHECK(sb_is(&o, "plain"));
	fleettsv_escape(&o, "a\tb\nc\\d'e\"f", 11);
	CHECK(sb_is(&o, "a\\tb\\nc\\\\d'e\"f"));
	fleettsv_escape(&o, "\r\b\f\0x", 5);
	CHECK(sb_is(&o, "\\r\\b\\f\\0x"));
	fleettsv_quote(&o, "it's [a,b] \\ \t", 14);
	CHECK(sb_is(&o, "'it\\'s [a,b] \\\\ \\t'"));
	fleettsv_quote(&o, "", 0);
	CHECK(sb_is(&o, "''"));
	sb_release(&o);
}

UNIT_TEST(fleettsv_hash)
{
	static const char *const one[] = { "a" }, *const two[] = { "a", "b" },
		*const ab[] = { "ab" }, *const three[] = { "sh", "main", "f\tg" };
	CHECK(hash_of(NULL, 0) == 14695981039346656037ull);
	CHECK(hash_of(one, 1) == 15568114530681347455ull);
	CHECK(hash_of(two, 2) == 7543444403468016116ull);
	CHECK(hash_of(ab, 1) == 10544331216450218400ull); /* lengths keep a;b and ab apart */
	CHECK(hash_of(three, 3) == 16875446900100374564ull);
}

UNIT_TEST(fleettsv_time)
{
	struct strbuf o = SB_INIT;
	fleettsv_time(&o, 0);
	CHECK(sb_is(&o, "1970-01-01 00:00:00"));
	fleettsv_time(&o, 1700000000);
	CHECK(sb_is(&o, "2023-11-14 22:13:20"));
	sb_release(&o);
}

static void add_rows(struct profile *p, uint32_t st, uint64_t t_ns, int32_t pid,
		     uint64_t weight)
{
	struct prof_sample s = { t_ns, pid, pid, 0 };
	profile_sample(p, st, weight, &s);
}

UNIT_TEST(fleettsv_rows)
{
	struct profile p;
	struct prof_names nm;
	struct collapse_opts co = COLLAPSE_OPTS_INIT;
	struct strbuf o = SB_INIT;
	profile_init(&p, PROF_COL_TIME | PROF_COL_PID);
	prof_names_init(&nm, &co);
	/* a folded stack with no rows: default bucket, pid 0 */
	profile_add_folded(&p, "sh;main", 7, 3, 30);
	/* a stack with rows in two buckets of 10 s, two pids */
	uint32_t st = profile_add_folded(&p, "x'y;f\tg", 7, 0, 0);
	add_rows(&p, st, 1700000001000000000ull, 42, 5);
	add_rows(&p, st, 1700000009999999999ull, 42, 6);
	add_rows(&p, st, 1700000010000000000ull, 42, 7);
	add_rows(&p, st, 1700000002000000000ull, 7, 1);
	struct fleettsv_opts fo = { "h\t1", 10, 1600000000000000000ull };
	fleettsv_write(&p, &nm, &fo, &o);
	static const char *const n2[] = { "x'y", "f\tg" };
	char want[1024];
	unsigned long long h1 = 11367274808284706085ull; /* sh;main (Python) */
	unsigned long long h2 = (unsigned long long)hash_of(n2, 2);
	static const char *const n1[] = { "sh", "main" };
	CHECK(hash_of(n1, 2) == h1);
	snprintf(want, sizeof(want),
		 "h\\t1\t2020-09-13 12:26:40\tsh\t0\t%llu\t['sh','main']\t3\t30\n"
		 "h\\t1\t2023-11-14 22:13:20\tx'y\t7\t%llu\t['x\\'y','f\\tg']\t1\t1\n"
		 "h\\t1\t2023-11-14 22:13:20\tx'y\t42\t%llu\t['x\\'y','f\\tg']\t2\t11\n"
		 "h\\t1\t2023-11-14 22:13:30\tx'y\t42\t%llu\t['x\\'y','f\\tg']\t1\t7\n",
		 h1, h2, h2, h2);
	CHECK(sb_is(&o, want));
	/* the same profile writes the same bytes */
	fleettsv_write(&p, &nm, &fo, &o);
	CHECK(sb_is(&o, want));
	prof_names_release(&nm);
	profile_release(&p);
	sb_release(&o);
}
