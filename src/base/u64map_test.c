/* Unit tests for base/u64map. */
#include "base/u64map.h"
#include "unit.h"

static void add_value(uint64_t val, void *ctx)
{
	uint64_t *sum = ctx;
	sum[0] += val;
	sum[1]++;
}

UNIT_TEST(u64map_basics)
{
	struct u64map m = U64MAP_INIT;
	bool added, ok = true;
	CHECK(u64map_find(&m, 5) == NULL);
	for (uint64_t k = 0; k < 5000; k++) {
		uint64_t *v = u64map_put(&m, k * 7919, &added);
		ok &= added && *v == 0;
		*v = k;
	}
	CHECK(ok);
	ok = true;
	for (uint64_t k = 0; k < 5000; k++) {
		uint64_t *v = u64map_find(&m, k * 7919);
		ok &= v && *v == k;
	}
	CHECK(ok && m.used == 5000 && u64map_find(&m, 3) == NULL);
	uint64_t *v = u64map_put(&m, 7919, &added);
	CHECK(!added && *v == 1);
	/* the key that can't be stored as key + 1 */
	v = u64map_put(&m, UINT64_MAX, &added);
	CHECK(added && m.has_top);
	*v = 9;
	CHECK(u64map_find(&m, UINT64_MAX) && *u64map_find(&m, UINT64_MAX) == 9);
	uint64_t sum[2] = { 0, 0 };   /* of the values, and how many */
	u64map_each(&m, add_value, sum);
	CHECK(sum[1] == 5001 && sum[0] == 4999ULL * 5000 / 2 + 9);
	u64map_clear(&m);
	CHECK(m.used == 0 && !m.has_top && u64map_find(&m, 7919) == NULL);
	u64map_release(&m);
	CHECK(m.cap == 0);
}
