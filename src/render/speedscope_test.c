/* speedscope_test: JSON string escaping and the speedscope file of small
 * profiles (render/speedscope.c), against text written by hand from the
 * JSON rules (RFC 8259) and speedscope's file format. */
#include "render/speedscope.h"
#include "unit.h"

#include <string.h>

static const char *esc(struct strbuf *sb, const char *s, size_t n)
{
	sb_reset(sb);
	speedscope_json_string(sb, s, n);
	return sb->buf;
}

#define ESC(s, want) CHECK_EQ_STR(esc(&o, s, sizeof(s) - 1), want)

UNIT_TEST(speedscope_json_escaping)
{
	struct strbuf o = SB_INIT;
	ESC("", "\"\"");
	ESC("main", "\"main\"");
	ESC("a\"b\\c", "\"a\\\"b\\\\c\"");
	ESC("\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\"");
	ESC("\x01\x1f\x7f", "\"\\u0001\\u001f\x7f\"");
	ESC("a\0b", "\"a\\u0000b\"");
	ESC("\xc3\xa9\xe2\x82\xac\xf0\x9f\x94\xa5", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x94\xa5\"");
	/* a bad byte, an overlong '/', a surrogate, a cut sequence, > U+10FFFF */
	ESC("\xff", "\"\xef\xbf\xbd\"");
	ESC("\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"");
	ESC("\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
	ESC("x\xe2\x82", "\"x\xef\xbf\xbd\xef\xbf\xbd\"");
	ESC("\xf4\x90\x80\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
	sb_release(&o);
}

static uint32_t comm(struct profile *p, const char *name, int32_t pid, int32_t tid)
{
	struct prof_frame_desc d = { .kind = PROF_FRAME_COMM, .name = name,
				     .name_len = strlen(name), .pid = pid, .tid = tid };
	return prof_frames_intern(&p->frames, &d);
}

static uint32_t sym(struct profile *p, const char *name, const char *dso)
{
	struct prof_frame_desc d = { .kind = PROF_FRAME_SYMBOL, .name = name,
				     .name_len = strlen(name), .dso = dso,
				     .dso_len = strlen(dso), .flags = PROF_F_USER };
	return prof_frames_intern(&p->frames, &d);
}

/* A profile of two threads of process 10 and one of process 7. */
static void three_threads(struct profile *p)
{
	uint32_t a = comm(p, "app", 10, 10), b = comm(p, "worker", 10, 11);
	uint32_t c = comm(p, "sh", 7, 7);
	uint32_t m = sym(p, "main", "/bin/app"), f = sym(p, "f", "/bin/app");
	uint32_t g = sym(p, "g", "/lib/x.so"), r = sym(p, "run", "/bin/sh");
	uint32_t s1[] = { a, m, f }, s2[] = { a, m, g }, s3[] = { b, m, f }, s4[] = { c, r };
	uint32_t ids[4] = { profile_stack(p, s1, 3), profile_stack(p, s2, 3),
			    profile_stack(p, s3, 3), profile_stack(p, s4, 2) };
	/* time, stack, weight: app 10/10 f g f, worker f, sh run */
	static const struct { uint64_t t; int st; uint64_t w; } rows[] = {
		{ 1000, 0, 100 }, { 1100, 1, 100 }, { 1500, 0, 100 },
		{ 1200, 2, 50 }, { 900, 3, 300 }, { 1550, 0, 100 },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct prof_sample smp = { rows[i].t, 0, 0, 0 };
		profile_sample(p, ids[rows[i].st], rows[i].w, &smp);
	}
}

static const char *ss(struct profile *p, enum speedscope_per per, bool evented,
		      struct strbuf *out)
{
	struct collapse_opts co = COLLAPSE_OPTS_INIT;
	struct prof_names nm;
	prof_names_init(&nm, &co);
	struct speedscope_opts o = { "in\"put", "scorch test", "nanoseconds", per, evented };
	sb_reset(out);
	int rc = speedscope_write(p, &nm, &o, out);
	prof_names_release(&nm);
	return rc ? NULL : out->buf;
}

#define HEAD "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n" \
	"\"exporter\":\"scorch test\",\"name\":\"in\\\"put\","

UNIT_TEST(speedscope_sampled_per_thread)
{
	struct profile p;
	profile_init(&p, PROF_COL_TIME);
	three_threads(&p);
	struct strbuf out = SB_INIT;
	CHECK_EQ_STR(ss(&p, SPEEDSCOPE_PER_THREAD, false, &out), HEAD
		"\"activeProfileIndex\":1,\n"
		"\"shared\":{\"frames\":[\n"
		"{\"name\":\"main\",\"file\":\"/bin/app\"},\n"
		"{\"name\":\"f\",\"file\":\"/bin/app\"},\n"
		"{\"name\":\"g\",\"file\":\"/lib/x.so\"},\n"
		"{\"name\":\"run\",\"file\":\"/bin/sh\"}]},\n"
		"\"profiles\":[\n"
		"{\"name\":\"sh 7/7\",\"type\":\"sampled\",\"unit\":\"nanoseconds\","
		"\"startValue\":0,\"endValue\":300,\"samples\":[[3]],\"weights\":[300]},\n"
		"{\"name\":\"app 10/10\",\"type\":\"sampled\",\"unit\":\"nanoseconds\","
		"\"startValue\":0,\"endValue\":400,\"samples\":[[0,1],[0,2]],\"weights\":[300,100]},\n"
		"{\"name\":\"worker 10/11\",\"type\":\"sampled\",\"unit\":\"nanoseconds\","
		"\"startValue\":0,\"endValue\":50,\"samples\":[[0,1]],\"weights\":[50]}]}\n");
	/* per process: app's main thread names it, its threads' equal
	 * stacks are one sample; one profile: comms kept */
	const char *s = ss(&p, SPEEDSCOPE_PER_PROCESS, false, &out);
	CHECK(strstr(s, "{\"name\":\"app 10\",\"type\":\"sampled\",\"unit\":\"nanoseconds\","
		     "\"startValue\":0,\"endValue\":450,\"samples\":[[0,1],[0,2]],"
		     "\"weights\":[350,100]}]}\n") != NULL);
	s = ss(&p, SPEEDSCOPE_PER_NONE, false, &out);
	CHECK(strstr(s, "\"profiles\":[\n{\"name\":\"in\\\"put\",\"type\":\"sampled\","
		     "\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":750,"
		     "\"samples\":[[0,1,2],[0,1,3],[4,1,2],[5,6]],"
		     "\"weights\":[300,100,50,300]}]}\n") != NULL);
	sb_release(&out);
	profile_release(&p);
}

UNIT_TEST(speedscope_evented)
{
	struct profile p;
	profile_init(&p, PROF_COL_TIME);
	three_threads(&p);
	struct strbuf out = SB_INIT;
	const char *s = ss(&p, SPEEDSCOPE_PER_THREAD, true, &out);
	/* times since the earliest sample (900); app: f at 100, g at 200
	 * (f closed), f at 600 (after a gap: all closed at 300), f at 650,
	 * until 750 */
	CHECK(s && strstr(s, "{\"name\":\"app 10/10\",\"type\":\"evented\","
		"\"unit\":\"nanoseconds\",\"startValue\":100,\"endValue\":750,\"events\":[\n"
		"{\"type\":\"O\",\"frame\":0,\"at\":100},\n"
		"{\"type\":\"O\",\"frame\":1,\"at\":100},\n"
		"{\"type\":\"C\",\"frame\":1,\"at\":200},\n"
		"{\"type\":\"O\",\"frame\":2,\"at\":200},\n"
		"{\"type\":\"C\",\"frame\":2,\"at\":300},\n"
		"{\"type\":\"C\",\"frame\":0,\"at\":300},\n"
		"{\"type\":\"O\",\"frame\":0,\"at\":600},\n"
		"{\"type\":\"O\",\"frame\":1,\"at\":600},\n"
		"{\"type\":\"C\",\"frame\":1,\"at\":750},\n"
		"{\"type\":\"C\",\"frame\":0,\"at\":750}]}") != NULL);
	CHECK(s && strstr(s, "{\"name\":\"sh 7/7\",\"type\":\"evented\","
		"\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":300,\"events\":[\n"
		"{\"type\":\"O\",\"frame\":3,\"at\":0},\n"
		"{\"type\":\"C\",\"frame\":3,\"at\":300}]}") != NULL);
	profile_release(&p);
	/* no times kept: no evented file */
	profile_init(&p, 0);
	three_threads(&p);
	CHECK(ss(&p, SPEEDSCOPE_PER_THREAD, true, &out) == NULL);
	CHECK(ss(&p, SPEEDSCOPE_PER_THREAD, false, &out) != NULL);
	profile_release(&p);
	sb_release(&out);
}

UNIT_TEST(speedscope_folded_text)
{
	struct profile p;
	profile_init(&p, 0);
	profile_add_folded(&p, "a;b\"\x01\xff", 6, 1, 5);
	profile_add_folded(&p, "a", 1, 1, 2);
	struct strbuf out = SB_INIT;
	CHECK_EQ_STR(ss(&p, SPEEDSCOPE_PER_THREAD, false, &out), HEAD
		"\"activeProfileIndex\":0,\n"
		"\"shared\":{\"frames\":[\n"
		"{\"name\":\"a\"},\n"
		"{\"name\":\"b\\\"\\u0001\xef\xbf\xbd\"}]},\n"
		"\"profiles\":[\n"
		"{\"name\":\"in\\\"put\",\"type\":\"sampled\",\"unit\":\"nanoseconds\","
		"\"startValue\":0,\"endValue\":7,\"samples\":[[0,1],[0]],\"weights\":[5,2]}]}\n");
	sb_release(&out);
	profile_release(&p);
}

UNIT_TEST(speedscope_stacks_named_alike_are_one_sample)
{
	struct profile p;
	profile_init(&p, 0);
	uint32_t a = comm(&p, "app", 10, 10);
	struct prof_frame_desc d = { .kind = PROF_FRAME_ADDRESS, .addr = 0x10,
				     .dso = "/lib/x.so", .dso_len = 9 };
	uint32_t x1 = prof_frames_intern(&p.frames, &d);
	d.addr = 0x20;
	uint32_t x2 = prof_frames_intern(&p.frames, &d);
	uint32_t s1[] = { a, x1 }, s2[] = { a, x2 };
	profile_add(&p, profile_stack(&p, s1, 2), 3);
	profile_add(&p, profile_stack(&p, s2, 2), 4);
	struct strbuf out = SB_INIT;
	const char *s = ss(&p, SPEEDSCOPE_PER_THREAD, false, &out);
	CHECK(strstr(s, "{\"name\":\"[x.so]\",\"file\":\"/lib/x.so\"}]}") != NULL);
	CHECK(strstr(s, "\"endValue\":7,\"samples\":[[0]],\"weights\":[7]}") != NULL);
	sb_release(&out);
	profile_release(&p);
}
