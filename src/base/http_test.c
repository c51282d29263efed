/* http_test: reading an HTTP answer (base/http.c's http_reply_parse):
 * the status line, the first non-empty body line (plain and chunked),
 * control bytes shown as '?', and answers that are not HTTP. */
#include "base/http.h"
#include "unit.h"

#include <errno.h>
#include <string.h>

static int parse(const char *s, struct http_reply *r)
{
	return http_reply_parse(s, strlen(s), r);
}

UNIT_TEST(http_reply)
{
	struct http_reply r = HTTP_REPLY_INIT;
	CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", &r) == 0);
	CHECK(r.status == 200);
	CHECK_EQ_STR(r.reason.buf, "OK");
	CHECK_EQ_STR(r.body_line.buf, "");
	CHECK(parse("HTTP/1.0 500 Internal Server Error\r\nX: y\r\n\r\n\r\nfirst\x01 line\r\nsecond\r\n",
		    &r) == 0);
	CHECK(r.status == 500);
	CHECK_EQ_STR(r.reason.buf, "Internal Server Error");
	CHECK_EQ_STR(r.body_line.buf, "first? line");
	CHECK(parse("HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n"
		    "1a\r\ninvalid name: bad\r\n0\r\n\r\n", &r) == 0);
	CHECK(r.status == 400);
	CHECK_EQ_STR(r.body_line.buf, "invalid name: bad");
	CHECK(parse("HTTP/1.1 204\r\n\r\n", &r) == 0 && r.status == 204);
	CHECK(parse("HTTP/1.1 404 Not Found\r\nServer: x\r\n", &r) == 0 && r.status == 404);
	CHECK(parse("SSH-2.0-OpenSSH\r\n", &r) == -EPROTO);
	CHECK(parse("HTTP/1.1 2x0 OK\r\n\r\n", &r) == -EPROTO);
	CHECK(parse("HTTP/1.1 099 Low\r\n\r\n", &r) == -EPROTO);
	CHECK(parse("HTTP/1.1 2000 OK\r\n\r\n", &r) == -EPROTO);
	CHECK(parse("HTTP/1.1 200 OK", &r) == -EPROTO);
	CHECK(parse("", &r) == -EPROTO);
	http_reply_release(&r);
}
