/*
 * schedlist_test: the CPU and id lists of the sched options.
 * Stage: analysis (unit tests).
 */
#include "analysis/schedlist.h"
#include "unit.h"

UNIT_TEST(schedlist_cpus)
{
	struct an_cpuset s;
	CHECK(an_cpuset_has(&(struct an_cpuset){ 0 }, 7)); /* no list: every CPU */
	CHECK(an_cpuset_parse(&s, "0-2,5") == 0);
	CHECK(s.set && an_cpuset_has(&s, 0) && an_cpuset_has(&s, 2) && an_cpuset_has(&s, 5));
	CHECK(!an_cpuset_has(&s, 3) && !an_cpuset_has(&s, 6) && !an_cpuset_has(&s, 5000));
	CHECK(an_cpuset_parse(&s, "4095") == 0 && an_cpuset_has(&s, 4095));
	CHECK(an_cpuset_parse(&s, "4096") < 0 && !s.set);
	CHECK(an_cpuset_parse(&s, "3-1") < 0);
	CHECK(an_cpuset_parse(&s, "1,") < 0);
	CHECK(an_cpuset_parse(&s, "") < 0);
	CHECK(an_cpuset_parse(&s, "-1") < 0);
	CHECK(an_cpuset_parse(&s, "1x") < 0);
}

UNIT_TEST(schedlist_ids)
{
	struct an_idlist l;
	CHECK(an_idlist_parse(&l, "30,-1,7") == 0);
	CHECK(l.n == 3 && an_idlist_has(&l, -1) && an_idlist_has(&l, 7) && an_idlist_has(&l, 30));
	CHECK(!an_idlist_has(&l, 8));
	an_idlist_release(&l);
	CHECK(l.ids == NULL && l.n == 0);
	CHECK(an_idlist_parse(&l, "1,,2") < 0 && l.ids == NULL);
	CHECK(an_idlist_parse(&l, "abc") < 0);
	CHECK(an_idlist_parse(&l, "99999999999") < 0);
	CHECK(an_idlist_parse(&l, "") < 0);
}
