/*
 * pyroscope: Pyroscope ingest requests as text (see pyroscope.h).
 * Stage: render. Key invariant: nothing from the user reaches the
 * request line or headers unchecked: the host and path are validated,
 * every query value is percent-encoded.
 */
#include "render/pyroscope.h"

#include "profile/fold.h"
#include "stacks/table.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void pyro_url_init(struct pyro_url *u)
{
	sb_init(&u->host);
	sb_init(&u->path);
	u->port = 80;
	u->ipv6 = 0;
}

void pyro_url_release(struct pyro_url *u)
{
	sb_release(&u->host);
	sb_release(&u->path);
	pyro_url_init(u);
}

static int fail(struct strbuf *err, const char *msg)
{
	sb_reset(err);
	sb_adds(err, msg);
	return -1;
}

static bool host_char(char c, bool v6)
{
	if (v6)
		return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
		       (c >= 'A' && c <= 'F') || c == ':' || c == '.';
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '.' || c == '-' || c == '_';
}

/* host (or [v6]) and an optional :port from s[0..n). */
static int parse_authority(const char *s, size_t n, struct pyro_url *u, struct strbuf *err)
{
	size_t i = 0, start, end;
	if (memchr(s, '@', n))
		return fail(err, "user names in the URL are not supported");
	if (n && s[0] == '[') {
		const char *rb = memchr(s, ']', n);
		if (!rb)
			return fail(err, "no ']' after the IPv6 address");
		start = 1;
		end = (size_t)(rb - s);
		i = end + 1;
		u->ipv6 = 1;
	} else {
		const char *colon = memchr(s, ':', n);
		start = 0;
		end = colon ? (size_t)(colon - s) : n;
		i = end;
	}
	if (end == start)
		return fail(err, "no host");
	for (size_t k = start; k < end; k++)
		if (!host_char(s[k], u->ipv6))
			return fail(err, "bad character in the host");
	sb_add(&u->host, s + start, end - start);
	if (i == n)
		return 0;
	if (s[i] != ':' || i + 1 == n)
		return fail(err, "want HOST[:PORT]");
	unsigned long port = 0;
	for (size_t k = i + 1; k < n; k++) {
		if (s[k] < '0' || s[k] > '9' || port > 65535)
			return fail(err, "bad port");
		port = port * 10 + (unsigned long)(s[k] - '0');
	}
	if (port == 0 || port > 65535)
		return fail(err, "port out of range (1-65535)");
	u->port = (unsigned)port;
	return 0;
}

int pyro_url_parse(const char *url, struct pyro_url *u, struct strbuf *err)
{
	sb_reset(&u->host);
	sb_reset(&u->path);
	u->port = 80;
	u->ipv6 = 0;
	if (!strncasecmp(url, "https://", 8))
		return fail(err, "https:// is not supported (scorch sends plain HTTP): "
			    "give an http:// URL, e.g. through an HTTP proxy or a local TLS "
			    "forwarder such as stunnel");
	if (strncasecmp(url, "http://", 7))
		return fail(err, "want http://HOST[:PORT][/PATH]");
	const char *a = url + 7, *slash = strchr(a, '/');
	size_t alen = slash ? (size_t)(slash - a) : strlen(a);
	if (memchr(a, '?', alen) || memchr(a, '#', alen))
		return fail(err, "no query or fragment: want http://HOST[:PORT][/PATH]");
	if (parse_authority(a, alen, u, err) < 0)
		return -1;
	const char *p = a + alen;
	size_t plen = strlen(p);
	for (size_t k = 0; k < plen; k++) {
		unsigned char c = (unsigned char)p[k];
		if (c == '?' || c == '#')
			return fail(err, "no query or fragment: want http://HOST[:PORT][/PATH]");
		if (c <= ' ' || c >= 0x7f)
			return fail(err, "bad character in the path (percent-encode it)");
	}
	while (plen && p[plen - 1] == '/')
		plen--;
	sb_add(&u->path, p, plen);
	return 0;
}

/* A name or value Pyroscope's key syntax can carry. */
static bool key_text_ok(const char *s)
{
	for (; *s; s++)
		if (strchr(",{}=", *s) || (unsigned char)*s < ' ' || *s == 0x7f)
			return false;
	return true;
}

int pyro_app_check(const char *app, struct strbuf *err)
{
	if (!*app)
		return fail(err, "empty application name");
	if (!key_text_ok(app))
		return fail(err, "an application name cannot hold , { } = or control characters");
	return 0;
}

int pyro_label_parse(char *s, struct pyro_label *l, struct strbuf *err)
{
	char *eq = strchr(s, '=');
	if (!eq)
		return fail(err, "want NAME=VALUE");
	*eq = 0;
	l->name = s;
	l->value = eq + 1;
	if (!*s)
		return fail(err, "empty label name");
	for (const char *p = s; *p; p++) {
		bool alpha = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_';
		bool digit = (*p >= '0' && *p <= '9') || *p == '.';
		if (!alpha && !(digit && p != s))
			return fail(err, "a label name is letters, digits, '_' and '.' "
				    "(not starting with a digit or '.')");
	}
	if (!key_text_ok(l->value))
		return fail(err, "a label value cannot hold , { } = or control characters");
	return 0;
}

void pyro_escape(struct strbuf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~') {
			sb_addc(out, (char)c);
		} else {
			sb_addc(out, '%');
			sb_addc(out, hex[c >> 4]);
			sb_addc(out, hex[c & 15]);
		}
	}
}

void pyro_name(struct strbuf *out, const struct pyro_ingest *in)
{
	sb_adds(out, in->app);
	if (!in->nlabels)
		return;
	sb_addc(out, '{');
	for (size_t i = 0; i < in->nlabels; i++)
		sb_addf(out, "%s%s=%s", i ? "," : "", in->labels[i].name, in->labels[i].value);
	sb_addc(out, '}');
}

static void param(struct strbuf *out, const char *key, const char *v, size_t len)
{
	sb_addf(out, "&%s=", key);
	pyro_escape(out, v, len);
}

void pyro_target(struct strbuf *out, const struct pyro_url *u, const struct pyro_ingest *in)
{
	struct strbuf name = SB_INIT;
	char num[3][24];
	pyro_name(&name, in);
	sb_add(out, u->path.buf, u->path.len);
	sb_adds(out, "/ingest?name=");
	pyro_escape(out, name.buf, name.len);
	snprintf(num[0], sizeof(num[0]), "%llu", (unsigned long long)in->from);
	snprintf(num[1], sizeof(num[1]), "%llu", (unsigned long long)in->until);
	snprintf(num[2], sizeof(num[2]), "%llu", (unsigned long long)in->sample_rate);
	param(out, "from", num[0], strlen(num[0]));
	param(out, "until", num[1], strlen(num[1]));
	param(out, "format", in->format, strlen(in->format));
	param(out, "sampleRate", num[2], strlen(num[2]));
	param(out, "spyName", "scorch", 6);
	param(out, "units", in->units, strlen(in->units));
	param(out, "aggregationType", in->aggregation, strlen(in->aggregation));
	sb_release(&name);
}

void pyro_request_head(struct strbuf *out, const struct pyro_url *u,
		       const struct pyro_ingest *in, const char *content_type,
		       size_t body_len)
{
	sb_adds(out, "POST ");
	pyro_target(out, u, in);
	sb_adds(out, " HTTP/1.1\r\nHost: ");
	sb_adds(out, u->ipv6 ? "[" : "");
	sb_add(out, u->host.buf, u->host.len);
	sb_adds(out, u->ipv6 ? "]" : "");
	if (u->port != 80)
		sb_addf(out, ":%u", u->port);
	sb_addf(out, "\r\nUser-Agent: scorch/%s\r\nContent-Type: %s\r\n"
		"Content-Length: %zu\r\nConnection: close\r\n\r\n",
		SCORCH_VERSION, content_type, body_len);
}

/* ---- the body ---- */

int pyro_body(const struct profile *p, struct prof_names *nm, const struct pprof_meta *m,
	      struct strbuf *out)
{
	if (!m) {
		profile_fold_write_sb(p, nm, out);
		return 0;
	}
	struct strbuf pb = SB_INIT;
	pprof_from_profile(p, nm, m, &pb);
	int rc = pprof_gzip(pb.buf, pb.len, out);
	sb_release(&pb);
	return rc;
}

void pyro_dry_run_text(const struct strbuf *head, const struct strbuf *body, bool pprof,
		       struct strbuf *out)
{
	for (size_t i = 0; i < head->len; i++)
		if (head->buf[i] != '\r')
			sb_addc(out, head->buf[i]);
	if (pprof) {
		sb_addf(out, "body: %zu bytes of gzip'd pprof (not sent: --dry-run)\n", body->len);
		return;
	}
	size_t lines = 0, shown = 0;
	for (size_t i = 0; i < body->len; i++)
		lines += body->buf[i] == '\n';
	sb_addf(out, "body: %zu bytes, %zu folded lines (not sent: --dry-run)\n", body->len, lines);
	const char *p = body->buf, *end = body->buf + body->len;
	for (; shown < 5 && p < end; shown++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		sb_add(out, p, n);
		sb_addc(out, '\n');
		p += n + 1;
	}
}

void pyro_describe(const struct fold_perfdata_info *pi, bool perf, bool folded,
		   uint64_t *rate, struct strbuf *app, struct pprof_meta *m)
{
	bool ns = perf && pi->weighted && pi->event.len && fold_perfdata_counts_ns(pi);
	*m = (struct pprof_meta){ .type = { "samples" }, .unit = { "count" }, .ntypes = 1,
				  .comm_label = perf && !folded };
	uint64_t freq = pi->freq ? pi->period : 0; /* Hz, 0: every period events */
	*rate = ns ? 1000000000u : perf && freq ? freq : 100;
	sb_adds(app, "scorch.");
	if (ns || !perf || !pi->event.len) {
		sb_adds(app, "cpu");
	} else {
		for (size_t i = 0; i < pi->event.len && pi->event.buf[i] != ':'; i++) {
			char c = pi->event.buf[i];
			sb_addc(app, (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				(c >= '0' && c <= '9') ? c : '_');
		}
	}
	if (ns) {
		m->type[0] = "cpu";
		m->unit[0] = "nanoseconds";
	} else if (perf && pi->weighted && pi->event.len) {
		m->type[0] = pi->event.buf;
	}
}

void pyro_time_range(uint64_t first_ns, uint64_t last_ns, uint64_t input_ns,
		     uint64_t *from, uint64_t *until)
{
	uint64_t f = last_ns ? first_ns / 1000000000u : input_ns / 1000000000u;
	uint64_t l = last_ns ? (last_ns + 999999999u) / 1000000000u : f;
	*from = f;
	*until = l > f ? l : f + 1;
}
