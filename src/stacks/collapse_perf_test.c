/* Unit tests for stacks/collapse_perf: the public naming functions the
 * perf.data path shares with the text parser, and the line classifiers. */
#include "stacks/collapse_perf.h"
#include "unit.h"

#include <string.h>

static const char *frame(const struct collapse_opts *o, bool java,
			 const char *pc, const char *sym, const char *dso)
{
	static struct stack_builder b = STACK_BUILDER_INIT;
	static struct strbuf out = SB_INIT;
	struct collapse_frame f = { pc, strlen(pc), sym, strlen(sym), dso,
				    strlen(dso), NULL, NULL };
	stack_builder_reset(&b);
	collapse_perf_frame(o, java, &f, &b);
	size_t len;
	const char *s = stack_builder_join(&b, STACK_LEAF_FIRST, &len);
	sb_reset(&out);
	sb_add(&out, s, len);
	return out.buf;
}

UNIT_TEST(collapse_perf_frame_names)
{
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	CHECK_EQ_STR(frame(&o, false, "1", "main+0x1f", "/bin/x"), "main");
	CHECK_EQ_STR(frame(&o, false, "1", "main+0x1F", "/bin/x"), "main+0x1F");
	CHECK_EQ_STR(frame(&o, false, "1", "[unknown]", "/usr/lib/libc.so.6"), "[libc.so.6]");
	CHECK_EQ_STR(frame(&o, false, "1", "[unknown]", "[unknown]"), "[unknown]");
	CHECK_EQ_STR(frame(&o, false, "1", "f(int, char)", "/bin/x"), "f");
	CHECK_EQ_STR(frame(&o, false, "1", "a;b", "/bin/x"), "a:b");
	CHECK_EQ_STR(frame(&o, false, "1", "(anon)", "/bin/x"), "");
	CHECK_EQ_STR(frame(&o, false, "1", "a->b->c", "/bin/x"), "a;b_[i];c_[i]");
	CHECK_EQ_STR(frame(&o, false, "1", "->a->", "/bin/x"), ";a_[i]");
	CHECK_EQ_STR(frame(&o, false, "1", "a->b_[i]", "/bin/x"), "a;b_[i]");
	CHECK_EQ_STR(frame(&o, true, "1", "Ljava/lang/Thread;.run()V", "/tmp/perf-1.map"),
		     "java/lang/Thread:.run");
	CHECK_EQ_STR(frame(&o, false, "1", "Ljava/lang/Thread;.run()V", "/tmp/perf-1.map"),
		     "Ljava/lang/Thread:.run");
	CHECK_EQ_STR(frame(&o, false, "1", "main.(*T).M", "/bin/go"), "main.(*T).M");
}

UNIT_TEST(collapse_perf_annotations)
{
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	o.all = true;
	o.addrs = true;
	collapse_opts_finish(&o);
	CHECK_EQ_STR(frame(&o, false, "ff", "schedule+0x1", "[kernel.kallsyms]"), "schedule_[k]");
	CHECK_EQ_STR(frame(&o, false, "ff", "f", "/boot/vmlinux"), "f_[k]");
	CHECK_EQ_STR(frame(&o, false, "ff", "[unknown]", "[unknown]"), "[unknown <ff>]");
	CHECK_EQ_STR(frame(&o, false, "ff", "[unknown]", "/usr/bin/x"), "[x <ff>]");
	CHECK_EQ_STR(frame(&o, false, "ff", "f_[j]", "/tmp/perf-12.map"), "f_[j]");
	CHECK_EQ_STR(frame(&o, false, "ff", "f", "/tmp/perf-12.map"), "f_[j]");
	CHECK_EQ_STR(frame(&o, false, "ff", "f", "/tmp/perf-x.map"), "f");
}

UNIT_TEST(collapse_perf_comm_names)
{
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	struct strbuf sb = SB_INIT;
	collapse_perf_comm(&o, "V8 Worker", 9, "1", 1, "2", 1, &sb);
	CHECK_EQ_STR(sb.buf, "V8_Worker");
	o.pid = true;
	sb_reset(&sb);
	collapse_perf_comm(&o, "a b", 3, NULL, 0, "7", 1, &sb);
	CHECK_EQ_STR(sb.buf, "a_b-?");
	o.tid = true;
	sb_reset(&sb);
	collapse_perf_comm(&o, "java", 4, "10", 2, "11", 2, &sb);
	CHECK_EQ_STR(sb.buf, "java-10/11");
	CHECK(collapse_perf_is_java(sb.buf, sb.len));
	CHECK(!collapse_perf_is_java("jav", 3));
	sb_release(&sb);
}

UNIT_TEST(collapse_perf_classify)
{
	CHECK(collapse_perf_is_header("perf 16654 [000]  2410.9: x:", 28));
	CHECK(!collapse_perf_is_header(" perf 1 2", 9));
	CHECK(!collapse_perf_is_header("x 1", 3));
	CHECK(collapse_perf_is_frame("\t12ab foo (/bin/x)", 18));
	CHECK(collapse_perf_is_frame("12ab (/bin/x)", 13));
	CHECK(!collapse_perf_is_frame("\t(foo) (/bin/x)", 15));
	CHECK(!collapse_perf_is_frame("\t12ab foo /bin/x", 16));
}
