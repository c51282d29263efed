/* Unit tests for process/maps: the treap against a per-address model,
 * sharing and copy on write. */
#include "process/maps.h"
#include "unit.h"

#include <string.h>

enum { SPAN = 96 };

/* model: for every address, which insert covers it and its file offset */
struct model {
	int who[SPAN];
	uint64_t off[SPAN];
};

static bool same(const struct proc_maps *ms, const struct model *md, struct sym_dso *d)
{
	for (uint64_t a = 0; a < SPAN; a++) {
		const struct proc_map *mp = proc_maps_find(ms, a);
		if (!mp != (md->who[a] < 0))
			return false;
		if (mp && (mp->dso != &d[md->who[a]] || mp->pgoff + (a - mp->start) != md->off[a]))
			return false;
	}
	return true;
}

UNIT_TEST(maps_treap_matches_model)
{
	static struct sym_dso d[400];
	struct proc_maps *ms = proc_maps_new();
	struct model md;
	uint32_t x = 12345;
	bool ok = true;
	for (int i = 0; i < SPAN; i++)
		md.who[i] = -1;
	for (int k = 0; k < 400 && ok; k++) {
		x = x * 1103515245u + 12345u;
		uint64_t s = (x >> 8) % SPAN, len = 1 + (x >> 20) % 20;
		uint64_t e = s + len > SPAN ? SPAN : s + len;
		struct proc_map mp = { s, e, 1000u * (unsigned)k, &d[k], false };
		proc_maps_insert(ms, &mp);
		for (uint64_t a = s; a < e; a++) {
			md.who[a] = k;
			md.off[a] = 1000u * (unsigned)k + (a - s);
		}
		ok = same(ms, &md, d);
	}
	CHECK(ok);
	size_t live = 0;
	for (uint64_t a = 0; a < SPAN; a = proc_maps_next_start(ms, a))
		live += proc_maps_find(ms, a) != NULL;
	CHECK(live == ms->n || live + 1 == ms->n);  /* a map at 0 is not "next" */
	proc_maps_put(ms);
}

UNIT_TEST(maps_descending_and_shared)
{
	static struct sym_dso d[2];
	struct proc_maps *a = proc_maps_new();
	for (uint64_t i = 100000; i > 0; i--) {
		struct proc_map mp = { i * 0x1000, i * 0x1000 + 0x800, 0, &d[0], false };
		proc_maps_insert(a, &mp);
	}
	CHECK(proc_maps_find(a, 0x5000400) && !proc_maps_find(a, 0x5000900));
	CHECK(a->n == 100000);
	CHECK(proc_maps_next_start(a, 0x5000000) == 0x5001000);
	struct proc_maps *b = proc_maps_share(a);
	CHECK(proc_maps_writable(&b) != a && a->refs == 1);
	struct proc_map mp = { 0x5000000, 0x5001000, 0, &d[1], false };
	proc_maps_insert(b, &mp);
	CHECK(proc_maps_find(b, 0x5000900)->dso == &d[1]);
	CHECK(!proc_maps_find(a, 0x5000900) && proc_maps_find(a, 0x5000400)->dso == &d[0]);
	proc_maps_put(a);
	proc_maps_put(b);
}

/* Inserts wait until the table is read: a table never read is never
 * put in order; the first read sees every insert, in its order. */
UNIT_TEST(maps_inserts_wait_for_a_read)
{
	static struct sym_dso d[3];
	struct proc_maps *a = proc_maps_new();
	struct proc_map m0 = { 0x1000, 0x5000, 0, &d[0], false };
	struct proc_map m1 = { 0x2000, 0x3000, 0x100, &d[1], false };
	proc_maps_insert(a, &m0);
	proc_maps_insert(a, &m1);
	CHECK(a->n == 0 && a->npend == 2);
	const struct proc_map *mp = proc_maps_find(a, 0x2800);
	CHECK(mp && mp->dso == &d[1] && a->npend == 0 && a->n == 3);
	mp = proc_maps_find(a, 0x4000);
	CHECK(mp && mp->dso == &d[0] && mp->start == 0x3000 && mp->pgoff == 0x2000);
	/* a copy applies what waits in the original first */
	struct proc_map m2 = { 0x1000, 0x2000, 0, &d[2], false };
	proc_maps_insert(a, &m2);
	struct proc_maps *b = proc_maps_share(a);
	CHECK(proc_maps_writable(&b) != a && a->npend == 0 && b->npend == 0);
	CHECK(proc_maps_find(b, 0x1800)->dso == &d[2] && proc_maps_find(a, 0x1800)->dso == &d[2]);
	/* cleared: what waited is gone too */
	proc_maps_insert(b, &m0);
	proc_maps_clear(b);
	CHECK(proc_maps_find(b, 0x1800) == NULL);
	/* many inserts unread: the list stays bounded */
	for (uint64_t i = 0; i < 1000; i++) {
		struct proc_map m = { 0x100000 + i * 0x1000, 0x100800 + i * 0x1000, 0, &d[0], false };
		proc_maps_insert(b, &m);
	}
	CHECK(b->npend <= 256 && b->n > 0);
	CHECK(proc_maps_next_start(b, 0x100000) == 0x101000);
	proc_maps_put(a);
	proc_maps_put(b);
}
