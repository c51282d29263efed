/*
 * Unit tests for base/ edge cases that fuzzing of the commands found.
 * Stage: base (tests). Invariant: each case once made the sanitizer build
 * abort; it must stay clean under SAN=1 (UBSan does not recover there).
 */
#include "base/strbuf.h"
#include "unit.h"

#include <stddef.h>
#include <stdlib.h>

/* scorch script cached a sample's empty call chain with
 * sb_add(k, NULL, 0) (a queued sample with nr 0 has no chain copy):
 * memcpy from NULL is undefined even for 0 bytes. */
UNIT_TEST(strbuf_add_nothing_from_null)
{
	struct strbuf sb = SB_INIT;
	sb_add(&sb, NULL, 0);
	CHECK(sb.len == 0 && sb.buf[0] == '\0');
	sb_adds(&sb, "ab");
	sb_add(&sb, NULL, 0);
	CHECK(sb.len == 2 && sb.buf[2] == '\0');
	sb_release(&sb);
}
