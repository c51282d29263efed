/* pyroscope_test: Pyroscope ingest requests (render/pyroscope.c): URLs
 * taken apart and refused, labels checked, percent-encoding (RFC 3986
 * unreserved bytes kept), the name with labels and the whole head. */
#include "render/pyroscope.h"
#include "profile/fold.h"
#include "unit.h"

#include <string.h>

static bool url_ok(const char *url, const char *host, unsigned port, const char *path)
{
	struct pyro_url u;
	struct strbuf err = SB_INIT;
	pyro_url_init(&u);
	bool ok = pyro_url_parse(url, &u, &err) == 0 && !strcmp(u.host.buf, host) &&
		  u.port == port && !strcmp(u.path.buf, path);
	pyro_url_release(&u);
	sb_release(&err);
	return ok;
}

static bool url_bad(const char *url, const char *why)
{
	struct pyro_url u;
	struct strbuf err = SB_INIT;
	pyro_url_init(&u);
	bool bad = pyro_url_parse(url, &u, &err) < 0 && strstr(err.buf, why);
	pyro_url_release(&u);
	sb_release(&err);
	return bad;
}

UNIT_TEST(pyroscope_urls)
{
	CHECK(url_ok("http://localhost:4040", "localhost", 4040, ""));
	CHECK(url_ok("HTTP://h", "h", 80, ""));
	CHECK(url_ok("http://10.0.0.1:8080/pyro/", "10.0.0.1", 8080, "/pyro"));
	CHECK(url_ok("http://[::1]:4040/a/b", "::1", 4040, "/a/b"));
	CHECK(url_bad("https://h", "https:// is not supported"));
	CHECK(url_bad("ftp://h", "want http://"));
	CHECK(url_bad("http://", "no host"));
	CHECK(url_bad("http://h:0", "port"));
	CHECK(url_bad("http://h:65536", "port"));
	CHECK(url_bad("http://h:12x", "port"));
	CHECK(url_bad("http://h:", "HOST[:PORT]"));
	CHECK(url_bad("http://u:p@h", "user"));
	CHECK(url_bad("http://h/p?x=1", "query"));
	CHECK(url_bad("http://h?x", "query"));
	CHECK(url_bad("http://h/a b", "path"));
	CHECK(url_bad("http://h\r\nX: y/", "host"));
	CHECK(url_bad("http://[::1", "]"));
}

static bool label_ok(const char *s, const char *name, const char *value)
{
	char buf[64];
	struct pyro_label l;
	struct strbuf err = SB_INIT;
	snprintf(buf, sizeof(buf), "%s", s);
	bool ok = pyro_label_parse(buf, &l, &err) == 0 && !strcmp(l.name, name) &&
		  !strcmp(l.value, value);
	sb_release(&err);
	return ok;
}

static bool label_bad(const char *s)
{
	char buf[64];
	struct pyro_label l;
	struct strbuf err = SB_INIT;
	snprintf(buf, sizeof(buf), "%s", s);
	bool bad = pyro_label_parse(buf, &l, &err) < 0 && err.len > 0;
	sb_release(&err);
	return bad;
}

UNIT_TEST(pyroscope_labels)
{
	CHECK(label_ok("env=prod", "env", "prod"));
	CHECK(label_ok("a.b_c=x y/z", "a.b_c", "x y/z"));
	CHECK(label_ok("k=", "k", ""));
	CHECK(label_bad("novalue"));
	CHECK(label_bad("=v"));
	CHECK(label_bad("1k=v"));
	CHECK(label_bad(".k=v"));
	CHECK(label_bad("k-x=v"));
	CHECK(label_bad("k=a,b"));
	CHECK(label_bad("k=a}"));
	CHECK(label_bad("k=a=b"));
	CHECK(label_bad("k=a\tb"));
	struct strbuf err = SB_INIT;
	CHECK(pyro_app_check("web.cpu", &err) == 0);
	CHECK(pyro_app_check("", &err) < 0);
	CHECK(pyro_app_check("a{b", &err) < 0);
	sb_release(&err);
}

UNIT_TEST(pyroscope_request)
{
	struct strbuf o = SB_INIT, err = SB_INIT;
	pyro_escape(&o, "aZ09-._~ {}=,/%+\xff", 17);
	CHECK_EQ_STR(o.buf, "aZ09-._~%20%7B%7D%3D%2C%2F%25%2B%FF");
	sb_reset(&o);
	struct pyro_url u;
	pyro_url_init(&u);
	CHECK(pyro_url_parse("http://[::1]:4040/p/", &u, &err) == 0);
	struct pyro_label l[2] = { { "env", "prod" }, { "r", "eu 1" } };
	struct pyro_ingest in = { "web.cpu", l, 2, 1700000000, 1700000010, "folded", 100,
				  "samples", "sum" };
	pyro_name(&o, &in);
	CHECK_EQ_STR(o.buf, "web.cpu{env=prod,r=eu 1}");
	sb_reset(&o);
	pyro_request_head(&o, &u, &in, "text/plain", 42);
	CHECK_EQ_STR(o.buf,
		     "POST /p/ingest?name=web.cpu%7Benv%3Dprod%2Cr%3Deu%201%7D&from=1700000000"
		     "&until=1700000010&format=folded&sampleRate=100&spyName=scorch&units=samples"
		     "&aggregationType=sum HTTP/1.1\r\nHost: [::1]:4040\r\nUser-Agent: scorch/"
		     SCORCH_VERSION "\r\nContent-Type: text/plain\r\nContent-Length: 42\r\n"
		     "Connection: close\r\n\r\n");
	sb_reset(&o);
	in.nlabels = 0;
	pyro_name(&o, &in);
	CHECK_EQ_STR(o.buf, "web.cpu");
	pyro_url_release(&u);
	sb_release(&o);
	sb_release(&err);
}

/* What the values count: clock periods are nanoseconds at 1e9 per
 * second, another event is named and sampled at its frequency, folded
 * text alone is cpu samples at 100 Hz. */
UNIT_TEST(pyroscope_describe)
{
	struct fold_perfdata_info pi = FOLD_PERFDATA_INFO_INIT;
	struct strbuf app = SB_INIT;
	struct pprof_meta m;
	uint64_t rate;
	sb_adds(&pi.event, "task-clock:u");
	pi.weighted = true;
	pyro_describe(&pi, true, false, &rate, &app, &m);
	CHECK(rate == 1000000000u && !strcmp(app.buf, "scorch.cpu"));
	CHECK(!strcmp(m.type[0], "cpu") && !strcmp(m.unit[0], "nanoseconds") && m.comm_label);
	sb_reset(&pi.event);
	sb_adds(&pi.event, "mem-loads:pp");
	pi.freq = true;
	pi.period = 4000;
	sb_reset(&app);
	pyro_describe(&pi, true, true, &rate, &app, &m);
	CHECK(rate == 4000 && !strcmp(app.buf, "scorch.mem_loads"));
	CHECK(!strcmp(m.type[0], "mem-loads:pp") && !strcmp(m.unit[0], "count") && !m.comm_label);
	sb_reset(&app);
	pyro_describe(&pi, false, true, &rate, &app, &m);
	CHECK(rate == 100 && !strcmp(app.buf, "scorch.cpu") && !strcmp(m.type[0], "samples"));
	sb_release(&app);
	fold_perfdata_info_release(&pi);
}

/* The time range: whole seconds around the samples, at least one. */
UNIT_TEST(pyroscope_time_range)
{
	uint64_t from, until;
	pyro_time_range(1700000000500000000ull, 1700000003200000000ull, 0, &from, &until);
	CHECK(from == 1700000000 && until == 1700000004);
	pyro_time_range(1700000000000000000ull, 1700000000000000000ull, 0, &from, &until);
	CHECK(from == 1700000000 && until == 1700000001);
	pyro_time_range(0, 0, 1700000009900000000ull, &from, &until);
	CHECK(from == 1700000009 && until == 1700000010);
}
