/* unit_main: runs every UNIT_TEST listed in build/gen/unit_tests.h. */
#include "unit.h"

#include <stdio.h>
#include <string.h>

static int failed;
static const char *current;

void unit_check(bool ok, const char *file, int line, const char *what)
{
	printf("%s - unit %s: %s:%d: %s\n", ok ? "ok" : "not ok", current,
	       file, line, what);
	if (!ok)
		failed++;
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
