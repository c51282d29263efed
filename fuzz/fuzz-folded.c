/*
 * fuzz-folded: folded-stack lines through the parser, the call tree and
 * the SVG renderer (written to /dev/null), as scorch flame runs them.
 * The first byte picks tree options (reverse, flame chart, inverted) so
 * every merge path is reached.
 */
#include "render/flame.h"
#include "render/tree.h"
#include "stacks/folded.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (size < 1 || !sink)
		return 0;
	uint8_t mode = data[0];
	const char *p = (const char *)data + 1, *end = (const char *)data + size;
	struct render_tree t;
	render_tree_init(&t, mode & 1, mode & 2);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct stack_folded f;
		if (stack_folded_parse(p, len, &f) == 0)
			render_tree_add(&t, f.stack, f.stack_len, f.count,
					f.count - f.count1, f.two);
		p += len + 1;
	}
	struct render_flame_opts o;
	render_flame_opts_init(&o);
	o.inverted = mode & 4;
	o.flamechart = mode & 1;
	o.truncate_left = mode & 8;
	o.minwidth = (mode & 16) ? 0 : 0.1;
	struct diag d = DIAG_INIT;
	if (t.nodes[0].value > 0)
		render_flame_write(&t, &o, sink, &d);
	render_tree_release(&t);
	return 0;
}
