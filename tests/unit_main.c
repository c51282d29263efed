/* unit_main: runs every UNIT_TEST listed in build/gen/unit_tests.h. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failed;
static const char *current;

void unit_check(bool ok, const char *file, int line, const char *what)
{
	printf("%s - unit %s: %s:%d: %s\n", ok ? "ok" : "not ok", current,
	       file, line, what);
	if (!ok)
		failed++;
}

const char *unit_need_shared(char *buf, size_t len, const char *rel)
{
	const char *sh = getenv("SHARED");
	snprintf(buf, len, "%s/%s", sh && *sh ? sh : "../shared", rel);
	if (access(buf, R_OK) == 0)
		return buf;
	if (getenv("CI") && *getenv("CI")) {
		printf("not ok - unit %s: reference data missing: %s\n", current, buf);
		failed++;
	} else {
		printf("ok - unit %s: reference data # SKIP ../shared (the optional "
		       "reference corpus) lacks %s\n", current, rel);
	}
	return NULL;
}

#undef UNIT_TEST
#define UNIT_TEST(name) void unit_##name(void);
#include "unit_tests.h"
#undef UNIT_TEST

struct unit { const char *name; void (*fn)(void); };

static const struct unit units[] = {
#define UNIT_TEST(name) { #name, unit_##name },
#include "unit_tests.h"
#undef UNIT_TEST
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	for (const struct unit *u = units; u->name; u++) {
		if (argc > 1 && !strstr(u->name, argv[1]))
			continue;
		current = u->name;
		u->fn();
	}
	return failed ? 1 : 0;
}
