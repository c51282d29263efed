/*
 * http: one HTTP/1.1 request and its answer over TCP (see http.h).
 * Stage: base. Key invariant: every wait is bounded by the deadline.
 */
#include "base/http.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { REPLY_MAX = 65536, LINE_MAX_SHOWN = 200 };

void http_reply_release(struct http_reply *r)
{
	sb_release(&r->reason);
	sb_release(&r->body_line);
	r->status = 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for events on fd until the deadline: 0, or -ETIMEDOUT / -errno. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	for (;;) {
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		struct pollfd p = { fd, events, 0 };
		int n = poll(&p, 1, left > 60000 ? 60000 : (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

static int connect_one(const struct addrinfo *ai, int64_t deadline, int *out)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
			ai->ai_protocol);
	if (fd < 0)
		return -errno;
	int rc = 0;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		rc = errno == EINPROGRESS ? wait_fd(fd, POLLOUT, deadline) : -errno;
		int soerr = 0;
		socklen_t sl = sizeof(soerr);
		if (!rc && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == 0 && soerr)
			rc = -soerr;
	}
	if (rc) {
		close(fd);
		return rc;
	}
	*out = fd;
	return 0;
}

static int connect_host(const char *host, unsigned port, int64_t deadline, int *fd,
			struct strbuf *err)
{
	struct addrinfo hints, *res = NULL;
	char serv[8];
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(serv, sizeof(serv), "%u", port);
	int g = getaddrinfo(host, serv, &hints, &res);
	if (g) {
		sb_addf(err, "cannot resolve %s: %s", host, gai_strerror(g));
		return -ENOENT;
	}
	int rc = -ECONNREFUSED;
	for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		rc = connect_one(ai, deadline, fd);
		if (!rc || rc == -ETIMEDOUT)
			break;
	}
	freeaddrinfo(res);
	return rc;
}

static int send_all(int fd, const char *p, size_t n, int64_t deadline)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		int rc = wait_fd(fd, POLLOUT, deadline);
		if (rc)
			return rc;
	}
	return 0;
}

/* Whether in holds a whole answer by its Content-Length (a server that
 * keeps the connection open despite Connection: close). */
static bool complete(const struct strbuf *in)
{
	const char *end = memmem(in->buf, in->len, "\r\n\r\n", 4);
	if (!end)
		return false;
	for (const char *p = in->buf; p < end; ) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		if (e - p > 15 && !strncasecmp(p, "content-length:", 15)) {
			unsigned long long n = strtoull(p + 15, NULL, 10);
			return (size_t)(in->buf + in->len - (end + 4)) >= n;
		}
		p = e + 1;
	}
	return false;
}

/* Read until the peer closes, the answer is whole, or REPLY_MAX bytes. */
static int recv_all(int fd, struct strbuf *in, int64_t deadline)
{
	while (in->len < REPLY_MAX && !complete(in)) {
		sb_grow(in, 4096);
		ssize_t r = recv(fd, in->buf + in->len, REPLY_MAX - in->len < 4096
				 ? REPLY_MAX - in->len : 4096, 0);
		if (r > 0) {
			sb_setlen(in, in->len + (size_t)r);
			continue;
		}
		if (r == 0)
			return 0;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return in->len ? 0 : -errno; /* a reset after the answer */
		int rc = wait_fd(fd, POLLIN, deadline);
		if (rc)
			return rc == -ETIMEDOUT && in->len && memmem(in->buf, in->len, "\r\n\r\n", 4)
				? 0 : rc; /* headers came: enough to report */
	}
	return 0;
}

static void add_shown(struct strbuf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n && out->len < LINE_MAX_SHOWN; i++)
		sb_addc(out, s[i] >= ' ' && s[i] < 0x7f ? s[i] : '?');
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? nl : end;
}

/* Whether the headers [p, end) say Transfer-Encoding: chunked. */
static bool chunked(const char *p, const char *end)
{
	while (p < end) {
		const char *e = line_end(p, end);
		size_t n = (size_t)(e - p);
		if (n > 18 && !strncasecmp(p, "transfer-encoding:", 18) &&
		    memmem(p, n, "chunked", 7))
			return true;
		p = e + (e < end);
	}
	return false;
}

int http_reply_parse(const char *data, size_t len, struct http_reply *r)
{
	const char *end = data + len, *e = line_end(data, end);
	sb_reset(&r->reason);
	sb_reset(&r->body_line);
	r->status = 0;
	if (len < 12 || memcmp(data, "HTTP/", 5) || e == end)
		return -EPROTO;
	const char *sp = memchr(data, ' ', (size_t)(e - data));
	if (!sp || e - sp < 4)
		return -EPROTO;
	for (int i = 1; i <= 3; i++) {
		if (sp[i] < '0' || sp[i] > '9')
			return -EPROTO;
		r->status = r->status * 10 + (sp[i] - '0');
	}
	if (r->status < 100 || (sp + 4 < e && sp[4] != ' ' && sp[4] != '\r'))
		return -EPROTO;
	const char *rs = sp + 4 + (sp + 4 < e && sp[4] == ' ');
	size_t rl = (size_t)(e - rs);
	if (rl && rs[rl - 1] == '\r')
		rl--;
	add_shown(&r->reason, rs, rl);
	const char *hdr = e + 1, *body = memmem(hdr, (size_t)(end - hdr), "\r\n\r\n", 4);
	const char *blank = body ? NULL : memmem(hdr, (size_t)(end - hdr), "\n\n", 2);
	if (!body && !blank)
		return 0; /* headers not complete: no body line */
	bool ch = chunked(hdr, body ? body : blank);
	const char *p = body ? body + 4 : blank + 2;
	if (ch && p < end)
		p = line_end(p, end) + 1; /* the first chunk's size */
	while (p < end) {
		const char *le = line_end(p, end);
		size_t n = (size_t)(le - p);
		if (n && p[n - 1] == '\r')
			n--;
		if (n) {
			add_shown(&r->body_line, p, n);
			break;
		}
		p = le + 1;
	}
	return 0;
}

int http_exchange(const char *host, unsigned port, const void *head, size_t head_len,
		  const void *body, size_t body_len, int timeout_ms,
		  struct http_reply *r, struct strbuf *err)
{
	int64_t deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 1);
	int fd = -1;
	sb_reset(err);
	int rc = connect_host(host, port, deadline, &fd, err);
	struct strbuf in = SB_INIT;
	if (!rc)
		rc = send_all(fd, head, head_len, deadline);
	if (!rc)
		rc = send_all(fd, body, body_len, deadline);
	if (rc == -EPIPE || rc == -ECONNRESET) /* answered before reading it all? */
		rc = recv_all(fd, &in, deadline) == 0 && in.len ? 0 : rc;
	else if (!rc)
		rc = recv_all(fd, &in, deadline);
	if (!rc && http_reply_parse(in.buf, in.len, r) < 0) {
		rc = -EPROTO;
		sb_adds(err, "the answer is not HTTP: ");
		add_shown(err, in.buf, line_end(in.buf, in.buf + in.len) - in.buf);
	}
	if (rc && !err->len)
		sb_adds(err, rc == -ETIMEDOUT ? "timed out" : strerror(-rc));
	if (fd >= 0)
		close(fd);
	sb_release(&in);
	return rc;
}
