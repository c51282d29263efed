/*
 * Unit tests for profile/filter: option parsing and its messages, which
 * samples each filter keeps, and the note when none is kept.
 */
#include "profile/filter.h"
#include "unit.h"

#include <errno.h>
#include <string.h>

struct fake {
	struct pd_attr attr;
	struct pd_sample s;
	struct proc_thread t;
	struct proc_sample ps;
};

static const struct proc_sample *fake(struct fake *f, uint64_t time, uint32_t cpu,
				      const char *comm, const char *event)
{
	memset(f, 0, sizeof(*f));
	f->attr.name = event;
	f->s.attr = &f->attr;
	f->s.sample_type = PD_SAMPLE_TIME | PD_SAMPLE_CPU;
	f->s.time = time;
	f->s.cpu = cpu;
	f->t.comm = comm;
	f->ps.s = &f->s;
	f->ps.thread = &f->t;
	return &f->ps;
}

UNIT_TEST(filter_bad_options_say_which)
{
	struct prof_filter f;
	struct diag d = DIAG_INIT;
	CHECK(prof_filter_init(&f, "1", NULL, NULL, NULL, &d) == -EINVAL);
	CHECK(strstr(d.msg, "bad --time '1'") != NULL);
	struct diag d2 = DIAG_INIT;
	CHECK(prof_filter_init(&f, NULL, "3-1", NULL, NULL, &d2) == -EINVAL);
	CHECK(strstr(d2.msg, "bad --cpu '3-1'") != NULL);
	struct diag d3 = DIAG_INIT;
	CHECK(prof_filter_init(&f, "+1.5,", "0-3,6", "a,b", "cycles", &d3) == 0);
	CHECK(!d3.set);
}

UNIT_TEST(filter_keeps_what_each_option_asks)
{
	struct prof_filter f;
	struct diag d = DIAG_INIT;
	struct fake x;
	CHECK(prof_filter_init(&f, "+1,+2", "0-3,6", "a,bc", "cycles", &d) == 0);
	CHECK(prof_filter_keep(&f, fake(&x, 5000000000u, 0, "a", "cycles")) == false);
	CHECK(prof_filter_keep(&f, fake(&x, 6500000000u, 6, "bc", "cycles:u")) == true);
	CHECK(prof_filter_keep(&f, fake(&x, 6500000000u, 4, "bc", "cycles")) == false);
	CHECK(prof_filter_keep(&f, fake(&x, 6500000000u, 1, "b", "cycles")) == false);
	CHECK(prof_filter_keep(&f, fake(&x, 6500000000u, 1, "a", "cycles:x")) == false);
	CHECK(prof_filter_keep(&f, fake(&x, 7500000000u, 1, "a", "cycles")) == false);
	CHECK(f.seen == 6 && f.kept == 1);
	CHECK(f.out_time == 2 && f.out_cpu == 1 && f.out_comm == 1 && f.out_event == 1);
	CHECK_EQ_STR(prof_event_name(fake(&x, 0, 0, "a", "instructions")), "instructions");
}

UNIT_TEST(filter_note_when_nothing_kept)
{
	struct prof_filter f;
	struct diag d = DIAG_INIT;
	struct fake x;
	struct strbuf sb = SB_INIT;
	CHECK(prof_filter_init(&f, NULL, "9", NULL, NULL, &d) == 0);
	CHECK(!prof_filter_note(&f, "p.data", &sb)); /* nothing seen */
	CHECK(!prof_filter_keep(&f, fake(&x, 1, 1, "a", "cycles")));
	CHECK(prof_filter_note(&f, "p.data", &sb));
	CHECK_EQ_STR(sb.buf, "p.data: no sample matches --cpu 9 (of 1 samples)");
	sb_reset(&sb);
	CHECK(prof_filter_init(&f, "10,", NULL, NULL, NULL, &d) == 0);
	CHECK(!prof_filter_keep(&f, fake(&x, 2000000000u, 0, "a", "cycles")));
	CHECK(prof_filter_note(&f, "p.data", &sb));
	CHECK_EQ_STR(sb.buf, "p.data: no sample in --time 10,: the 1 samples span "
		     "2.000000 to 2.000000 s (+0.000000 s)");
	sb_release(&sb);
}
