/*
 * push: `scorch push URL [INPUT...]`: send the stacks of the INPUTs to a
 * Grafana Pyroscope server's ingest API (POST URL/ingest, folded text or
 * pprof), or with --dry-run print the request. Stage: command. The
 * request (with what its values count and its default time range) is
 * built by render/pyroscope.h, sent by base/http.h.
 * Key invariant: nothing is sent before the whole body is built; an
 * answer other than 2xx is an error naming the URL.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(push, "send stacks to a Grafana Pyroscope server (ingest API)")

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/http.h"
#include "base/opt.h"
#include "base/xalloc.h"
#include "cmd/perfinput.h"
#include "cmd/sampleinput.h"
#include "cmd/symopts.h"
#include "render/pprof.h"
#include "render/pyroscope.h"

enum { O_APP = 1, O_LABEL, O_FORMAT, O_FROM, O_UNTIL, O_RATE, O_TIMEOUT, O_DRY };

static const struct opt_spec opts[] = {
	{ "app", 'a', OPT_REQ, "NAME", "application name (default scorch.cpu, or scorch.EVENT)", O_APP },
	{ "label", 'l', OPT_REQ, "K=V", "add a label (repeatable)", O_LABEL },
	{ "format", 'f', OPT_REQ, "FMT", "body format: folded (default) or pprof", O_FORMAT },
	{ "from", 0, OPT_REQ, "SECS", "start, seconds since the epoch (default: first sample)", O_FROM },
	{ "until", 0, OPT_REQ, "SECS", "end, seconds since the epoch (default: last sample)", O_UNTIL },
	{ "sample-rate", 0, OPT_REQ, "HZ", "samples per second of a count (default: from the event)", O_RATE },
	{ "timeout", 0, OPT_REQ, "SECS", "give up after SECS seconds (default 10)", O_TIMEOUT },
	{ "dry-run", 'n', OPT_NONE, NULL, "print the request instead of sending it", O_DRY },
	SYMOPTS_SPECS,
	OPT_END_SPEC
};

static const struct opt_cmd push_cmd = {
	"push", "scorch push [options] URL [INPUT...]",
	"Send the stacks of perf.data, perf script text or folded INPUTs "
	"(default: standard input) to the Pyroscope server at URL (http://HOST[:PORT]).",
	opts, true,
};

struct push_args {
	const char *app, *format, *from, *until, *rate, *timeout;
	bool dry;
	struct pyro_label *labels;
	char **label_text;
	size_t nlabels, cap;
	struct symopts so;              /* symbol options and filters */
	struct fold_perfdata_opts fo;
};

/* A whole number for an option, or false after a usage message. */
static bool number(const char *opt, const char *s, uint64_t max, uint64_t *v)
{
	char *end;
	if (!s)
		return true; /* not given: *v keeps its default */
	errno = 0;
	unsigned long long n = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || n > max) {
		opt_usage_error(&push_cmd, "--%s '%s': want a whole number up to %llu", opt, s,
				(unsigned long long)max);
		return false;
	}
	*v = n;
	return true;
}

static int make_body(struct sample_input *in, bool pprof, const struct pprof_meta *m,
		     const struct collapse_opts *co, struct strbuf *body)
{
	struct prof_names nm;
	prof_names_init(&nm, co);
	int rc = pyro_body(&in->prof, &nm, pprof ? m : NULL, body);
	prof_names_release(&nm);
	return rc;
}

static int send_request(const char *url, const struct pyro_url *u, const struct strbuf *head,
		const struct strbuf *body, uint64_t timeout)
{
	struct http_reply r = HTTP_REPLY_INIT;
	struct strbuf err = SB_INIT;
	int rc = http_exchange(u->host.buf, u->port, head->buf, head->len, body->buf, body->len,
			       (int)(timeout * 1000), &r, &err);
	const char *shown = url;
	if (rc == -ECONNREFUSED)
		diag_error("%s: connection refused (is Pyroscope listening there?)", shown);
	else if (rc == -ETIMEDOUT)
		diag_error("%s: no answer within %llu s (--timeout)", shown,
			   (unsigned long long)timeout);
	else if (rc)
		diag_error("%s: %s", shown, err.buf);
	else if (r.status < 200 || r.status > 299)
		diag_error("%s: HTTP %d %s%s%s", shown, r.status, r.reason.buf,
			   r.body_line.len ? ": " : "", r.body_line.buf);
	bool ok = !rc && r.status >= 200 && r.status <= 299;
	http_reply_release(&r);
	sb_release(&err);
	return ok ? 0 : 1;
}

static int parse_args(struct push_args *a, int argc, char **argv, struct opt_state *st)
{
	const char *arg;
	int id;
	while ((id = opt_next(st, argc, argv, &push_cmd, &arg)) > 0) {
		switch (id) {
		case O_APP: a->app = arg; break;
		case O_LABEL:
			XGROW(a->labels, a->cap, a->nlabels + 1);
			a->label_text = xreallocarray(a->label_text, a->cap, sizeof(char *));
			a->label_text[a->nlabels++] = xstrdup(arg);
			break;
		case O_FORMAT: a->format = arg; break;
		case O_FROM: a->from = arg; break;
		case O_UNTIL: a->until = arg; break;
		case O_RATE: a->rate = arg; break;
		case O_TIMEOUT: a->timeout = arg; break;
		case O_DRY: a->dry = true; break;
		default: symopts_option(&a->so, id, arg); break;
		}
	}
	symopts_to_fold(&a->so, &a->fo);
	return id;
}

/* Check the labels: 0, or 2 after a message. */
static int check_labels(struct push_args *a)
{
	struct strbuf err = SB_INIT;
	int rc = 0;
	for (size_t i = 0; i < a->nlabels && !rc; i++) {
		char *copy = xstrdup(a->label_text[i]);
		if (pyro_label_parse(a->label_text[i], &a->labels[i], &err) < 0)
			rc = opt_usage_error(&push_cmd, "--label '%s': %s", copy, err.buf);
		free(copy);
	}
	if (!rc && a->app && pyro_app_check(a->app, &err) < 0)
		rc = opt_usage_error(&push_cmd, "--app '%s': %s", a->app, err.buf);
	sb_release(&err);
	return rc;
}

static int push_run(struct push_args *a, const char *url, const struct pyro_url *u,
		    char **inputs, int n)
{
	uint64_t from = 0, until = 0, rate = 0, timeout = 10;
	if (!number("from", a->from, UINT32_MAX * 100ull, &from) ||
	    !number("until", a->until, UINT32_MAX * 100ull, &until) ||
	    !number("sample-rate", a->rate, UINT32_MAX, &rate) ||
	    !number("timeout", a->timeout, 86400, &timeout))
		return 2;
	if (a->timeout && !timeout)
		return opt_usage_error(&push_cmd, "--timeout 0: want at least 1 second");
	struct sample_input in;
	sample_input_init(&in, "push");
	int rc = n ? 0 : sample_input_read(&in, &a->fo, NULL);
	for (int i = 0; i < n && !rc; i++)
		rc = sample_input_read(&in, &a->fo, inputs[i]);
	struct strbuf app = SB_INIT, body = SB_INIT, head = SB_INIT;
	struct pprof_meta m;
	uint64_t drate, dfrom, duntil;
	pyro_describe(&in.info, in.perf_inputs > 0, in.folded_inputs > 0, &drate, &app, &m);
	bool pprof = !strcmp(a->format, "pprof");
	if (!rc && make_body(&in, pprof, &m, &a->fo.collapse, &body) < 0) {
		diag_error("gzip compression failed");
		rc = 1;
	}
	if (!rc) {
		pyro_time_range(in.first_ns, in.last_ns, in.input_ns, &dfrom, &duntil);
		struct pyro_ingest pi = { a->app ? a->app : app.buf, a->labels, a->nlabels,
			a->from ? from : dfrom, a->until ? until : duntil,
			pprof ? "pprof" : "folded", a->rate ? rate : drate, "samples", "sum" };
		pyro_request_head(&head, u, &pi, pprof ? "application/octet-stream" : "text/plain",
				  body.len);
		if (a->dry) {
			struct strbuf text = SB_INIT;
			pyro_dry_run_text(&head, &body, pprof, &text);
			fwrite(text.buf, 1, text.len, stdout);
			sb_release(&text);
		}
		else
			rc = send_request(url, u, &head, &body, timeout);
	}
	sb_release(&app);
	sb_release(&body);
	sb_release(&head);
	sample_input_release(&in);
	return rc;
}

int cmd_push(int argc, char **argv)
{
	struct push_args a = { .format = "folded" };
	a.fo = (struct fold_perfdata_opts)FOLD_PERFDATA_OPTS_INIT;
	struct opt_state st = OPT_STATE_INIT;
	int id = parse_args(&a, argc, argv, &st), rc = 0;
	struct pyro_url u;
	struct strbuf err = SB_INIT;
	pyro_url_init(&u);
	if (id == OPT_HELP || id < 0)
		rc = id == OPT_HELP ? 0 : 2;
	else if (st.ind >= argc)
		rc = opt_usage_error(&push_cmd, "no URL (e.g. http://localhost:4040)");
	else if (strcmp(a.format, "folded") && strcmp(a.format, "pprof"))
		rc = opt_usage_error(&push_cmd, "unknown format '%s' (known: folded, pprof)", a.format);
	else if (pyro_url_parse(argv[st.ind], &u, &err) < 0)
		rc = opt_usage_error(&push_cmd, "%s: %s", argv[st.ind], err.buf);
	else if (!(rc = check_labels(&a)))
		rc = push_run(&a, argv[st.ind], &u, argv + st.ind + 1, argc - st.ind - 1);
	for (size_t i = 0; i < a.nlabels; i++)
		free(a.label_text[i]);
	free(a.label_text);
	free(a.labels);
	pyro_url_release(&u);
	sb_release(&err);
	return rc;
}
