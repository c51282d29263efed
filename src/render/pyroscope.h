/*
 * pyroscope: the HTTP request of Grafana Pyroscope's ingest API, as
 * bytes: the server URL taken apart, the application name with its
 * labels, the query string, the request head and the body (folded text
 * or gzip'd pprof of a profile). Stage: render (an
 * export view; no I/O here, base/http.h sends it).
 *
 *   struct pyro_url u;
 *   if (pyro_url_parse("http://localhost:4040", &u, &err) < 0) ...
 *   struct pyro_ingest in = { .app = "web.cpu", .labels = l, .nlabels = 1,
 *           .from = 1700000000, .until = 1700000010, .format = "folded",
 *           .sample_rate = 100, .units = "samples", .aggregation = "sum" };
 *   pyro_request_head(&u, &in, "text/plain", body_len, &head);
 *
 * The request is POST BASE/ingest?name=APP{k=v,...}&from=S&until=S&
 * format=F&sampleRate=N&spyName=scorch&units=U&aggregationType=A
 * (Pyroscope's documented parameters), every value percent-encoded
 * (all but A-Z a-z 0-9 - . _ ~), HTTP/1.1 with Host, User-Agent,
 * Content-Type, Content-Length and Connection: close.
 *
 * Names: Pyroscope's key syntax app{k=v,k=v} has no escapes, so an app
 * name or label value holding one of , { } = (or a control byte) is
 * refused, and a label name must be [A-Za-z_][A-Za-z0-9_.]*; then
 * percent-encoding carries every other byte.
 * URLs: http://HOST[:PORT][/PATH] only (HOST a name, IPv4 or [IPv6]);
 * no user, query or fragment; https:// is refused with a hint (use an
 * HTTP proxy or a local forwarder such as stunnel).
 *
 * Failure: the parsers return -1 with one line in err (NUL-terminated,
 * without the value's context: the caller names it). Ownership: a
 * pyro_url's strings are its own until pyro_url_release.
 */
#ifndef SCORCH_RENDER_PYROSCOPE_H
#define SCORCH_RENDER_PYROSCOPE_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "base/strbuf.h"
#include "profile/profile.h"
#include "render/pprof.h"

struct pyro_url {
	struct strbuf host;       /* as written, brackets of IPv6 removed */
	struct strbuf path;       /* "" or "/prefix" (no trailing '/') */
	unsigned port;            /* 80 when not written */
	int ipv6;                 /* host was [IPv6] */
};

struct pyro_label {
	const char *name, *value;
};

struct pyro_ingest {
	const char *app;
	const struct pyro_label *labels;
	size_t nlabels;
	uint64_t from, until;     /* seconds since the epoch */
	const char *format;       /* "folded" or "pprof" */
	uint64_t sample_rate;
	const char *units, *aggregation;
};

void pyro_url_init(struct pyro_url *u);
void pyro_url_release(struct pyro_url *u);
int pyro_url_parse(const char *url, struct pyro_url *u, struct strbuf *err);

/* "k=v" into a label (pointers into s, which must outlive l; s is
 * split at its first '=' by writing a NUL there). */
int pyro_label_parse(char *s, struct pyro_label *l, struct strbuf *err);
/* App name check (non-empty, no , { } = or control bytes). */
int pyro_app_check(const char *app, struct strbuf *err);

/* s percent-encoded onto out. */
void pyro_escape(struct strbuf *out, const char *s, size_t len);
/* "APP{k=v,...}" (labels in the given order; "APP" with none). */
void pyro_name(struct strbuf *out, const struct pyro_ingest *in);
/* The request target: PATH/ingest?name=...&... */
void pyro_target(struct strbuf *out, const struct pyro_url *u, const struct pyro_ingest *in);
/* The whole request head, ending with the blank line. */
void pyro_request_head(struct strbuf *out, const struct pyro_url *u,
		       const struct pyro_ingest *in, const char *content_type,
		       size_t body_len);

/* What the values of a profile count, for the request: the sample rate
 * Pyroscope divides by (1e9 for cpu-clock and task-clock periods, which
 * are nanoseconds; else the event's frequency in Hz; else 100), the
 * app name "scorch.SUFFIX" appended to app (cpu, or the event's name
 * up to ':' with bytes other than [A-Za-z0-9] as '_'), and the pprof
 * sample type in m (cpu/nanoseconds, the weighted event's name/count,
 * else samples/count; comm labels for perf input alone). pi is the
 * first perf input's (profile/fold.h), perf whether there was one,
 * folded whether there were folded inputs too; m borrows pi's event. */
struct fold_perfdata_info;
void pyro_describe(const struct fold_perfdata_info *pi, bool perf, bool folded,
		   uint64_t *rate, struct strbuf *app, struct pprof_meta *m);
/* The default from and until (seconds since the epoch) of samples
 * whose times (ns, wall clock) run from first_ns to last_ns (last_ns 0:
 * no times; then input_ns, the input's own time, is from): from rounded
 * down, until rounded up and at least from + 1. */
void pyro_time_range(uint64_t first_ns, uint64_t last_ns, uint64_t input_ns,
		     uint64_t *from, uint64_t *until);

/* The body: p's folded lines (m NULL), or gzip'd pprof of the same
 * stacks with sample type m. Returns 0, or -1 when gzip fails. */
int pyro_body(const struct profile *p, struct prof_names *nm, const struct pprof_meta *m,
	      struct strbuf *out);
/* What --dry-run prints: the head without CRs, the body's size and, for
 * folded text, its first 5 lines. */
void pyro_dry_run_text(const struct strbuf *head, const struct strbuf *body, bool pprof,
		       struct strbuf *out);

#endif
