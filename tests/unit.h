/*
 * unit: the tiny unit-test harness linked into build/unit-tests.
 * A test file (src/<stage>/<name>_test.c) defines functions with
 *   UNIT_TEST(strbuf_append) { CHECK(...); CHECK_EQ_STR(a, b); }
 * at the start of a line; the Makefile collects them. Each CHECK prints
 * a TAP-style "ok"/"not ok" line that tests/run.sh counts.
 */
#ifndef SCORCH_TESTS_UNIT_H
#define SCORCH_TESTS_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

void unit_check(bool ok, const char *file, int line, const char *what);
/* The path of rel under $SHARED (the optional reference corpus ../shared)
 * in buf, or NULL when it is not there: the test is then reported as
 * skipped with the reason (under CI, where ../shared is always present,
 * as failed) and should return. */
const char *unit_need_shared(char *buf, size_t len, const char *rel);

#define UNIT_TEST(name) void unit_##name(void)
#define CHECK(cond) unit_check((cond), __FILE__, __LINE__, #cond)
#define CHECK_EQ_STR(a, b) unit_check(strcmp((a), (b)) == 0, __FILE__, __LINE__, #a " == " #b)

#endif
