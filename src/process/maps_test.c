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
	CHECK(a->n == 100000);
	CHECK(proc_maps_find(a, 0x5000400) && !proc_maps_find(a, 0x5000900));
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
