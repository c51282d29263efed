/*
 * http: one HTTP/1.1 exchange over a plain TCP socket: connect, send a
 * request the caller built (head and body), read the answer's status
 * line and the first line of its body. Stage: base. Small on purpose:
 * no TLS, no redirects, no keep-alive (the request says Connection:
 * close and the answer is read to its end, at most 64 KiB).
 *
 *   struct http_reply r = HTTP_REPLY_INIT;
 *   int rc = http_exchange("localhost", 4040, head, hlen, body, blen,
 *                          10000, &r, &err);
 *   ... rc == 0: r.status, r.reason, r.body_line ...
 *   http_reply_release(&r);
 *
 * The whole exchange (name lookup aside) must end within timeout_ms.
 * Failure: -ECONNREFUSED, -ETIMEDOUT, another -errno of connect/send/
 * recv, -ENOENT when the name does not resolve, -EPROTO when the answer
 * has no HTTP status line; err gets one line saying what happened
 * (without the URL: the caller names it). SIGPIPE is never raised.
 */
#ifndef SCORCH_BASE_HTTP_H
#define SCORCH_BASE_HTTP_H

#include <stddef.h>

#include "base/strbuf.h"

struct http_reply {
	int status;                 /* 100..999 */
	struct strbuf reason;       /* the status line's reason phrase */
	struct strbuf body_line;    /* first non-empty body line, printable
				     * ASCII (others as '?'), <= 200 bytes */
};

#define HTTP_REPLY_INIT { 0, SB_INIT, SB_INIT }

void http_reply_release(struct http_reply *r);
int http_exchange(const char *host, unsigned port, const void *head, size_t head_len,
		  const void *body, size_t body_len, int timeout_ms,
		  struct http_reply *r, struct strbuf *err);
/* Parse a whole answer (status line, headers, body) into r: 0 or -EPROTO.
 * (http_exchange's reader; separate for the tests and the fuzz target.) */
int http_reply_parse(const char *data, size_t len, struct http_reply *r);

#endif
