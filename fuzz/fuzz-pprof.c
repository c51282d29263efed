/*
 * fuzz-pprof: bytes through the pprof reader (stacks/pprof_read.c) as
 * fold, flame and diff run it: detection, gzip inflation, the protobuf
 * decoder and the stacks it adds. The input is the file; its size
 * picks the sample type asked (none, "samples", "cpu",
 * "cpu/nanoseconds"), so seeds are plain .pb.gz and .pb files.
 * Checks: a failed read adds nothing to the table.
 */
#include "stacks/pprof_read.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *types[4] = { NULL, "samples", "cpu", "cpu/nanoseconds" };
	const char *type = types[size & 3];
	(void)stack_pprof_detect(data, size);
	struct strbuf pb = SB_INIT;
	struct diag d = DIAG_INIT;
	struct stack_table t;
	stack_table_init(&t);
	if (stack_pprof_inflate(data, size, &pb, &d) == 0 &&
	    stack_pprof_fold(pb.buf, pb.len, type, &t, &d) < 0 &&
	    stack_table_count(&t) != 0)
		abort(); /* a bad profile must add nothing */
	stack_table_release(&t);
	sb_release(&pb);
	return 0;
}
