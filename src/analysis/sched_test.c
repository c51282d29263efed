/*
 * sched_test: the notes of the latency table and perf's timehist
 * defaults (analysis/schedlat.c, analysis/timehist.c). Stage: analysis
 * (unit tests). The tables themselves are compared with perf sched on
 * recordings (tests/t7504, t7520, t7521).
 */
#include "analysis/sched.h"
#include "unit.h"

#include <string.h>

UNIT_TEST(sched_latency_notes)
{
	struct an_sched s;
	struct strbuf sb = SB_INIT;
	an_sched_init(&s);
	s.have_runtime = true;
	s.nr_runtime = 3;
	an_sched_latency_notes(&s, "p.data", &sb);
	CHECK(sb.len == 0); /* all is well */
	s.nr_runtime = 0;
	s.nr_lost = 7;
	an_sched_latency_notes(&s, "p.data", &sb);
	CHECK(!strncmp(sb.buf, "p.data: no sched:sched_stat_runtime events", 42));
	CHECK(strstr(sb.buf, AN_SCHED_EVENTS "\n") && !strstr(sb.buf, "lost"));
	sb_reset(&sb);
	s.nr_runtime = 1;
	s.nr_cs_bugs = 2; /* lost events explain them */
	an_sched_latency_notes(&s, "p.data", &sb);
	CHECK(!strncmp(sb.buf, "p.data: 7 events were lost while recording", 42));
	CHECK(sb.buf[sb.len - 1] == '\n' && !strchr(sb.buf, '\n')[1]);
	sb_release(&sb);
	an_sched_release(&s);
}

UNIT_TEST(sched_timehist_defaults)
{
	struct an_timehist_opts o;
	memset(&o, 0xff, sizeof(o));
	an_timehist_opts_init(&o);
	CHECK(o.rows && o.callchain && o.max_stack == 5);
	CHECK(!o.wakeups && !o.state && !o.visual && !o.summary && !o.cpus.set);
}
