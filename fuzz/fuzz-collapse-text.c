/*
 * fuzz-collapse-text: libFuzzer entry for format detection and the
 * DTrace / SystemTap collapsers (stacks/detect, stacks/collapse_counted).
 * Stage: fuzz. Detects the format of the input, then feeds every line to
 * both counted-stack parsers and prints the table. Invariant under test:
 * no crash, leak or undefined behaviour on any bytes.
 */
#include "base/diag.h"
#include "stacks/collapse_counted.h"
#include "stacks/detect.h"
#include "stacks/table.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;
	struct diag d = DIAG_INIT;
	(void)stack_format_detect(s, size, true, &d);
	(void)stack_format_detect(s, size, false, &d);
	struct stack_table t = STACK_TABLE_INIT;
	struct collapse_counted dt, st;
	collapse_counted_init(&dt, COUNTED_DTRACE, &t);
	collapse_counted_init(&st, COUNTED_STAP, &t);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		collapse_counted_line(&dt, s, len);
		collapse_counted_line(&st, s, len);
		s = nl ? nl + 1 : end;
	}
	struct strbuf out = SB_INIT;
	stack_table_write_sb(&t, &out);
	sb_release(&out);
	collapse_counted_release(&dt);
	collapse_counted_release(&st);
	stack_table_release(&t);
	return 0;
}
