/*
 * reporttext_test: perf report's -g values as scorch report parses them
 * (render/reporttext.c). Stage: render (unit tests). The text itself is
 * compared with perf report on recordings (tests/t7720-t7725).
 */
#include "render/reporttext.h"
#include "unit.h"

UNIT_TEST(reporttext_parse_graph)
{
	struct rep_graph_opts g = REP_GRAPH_OPTS_INIT;
	CHECK(rep_text_parse_graph(REP_GRAPH_DEFAULT, &g) == 0);
	CHECK(g.mode == REP_G_GRAPH && g.min == 0.5 && g.limit == 0 &&
	      g.order == REP_CALLER && !g.period);
	/* the first number is the threshold, the second the print limit */
	CHECK(rep_text_parse_graph("fractal,2,10,callee,period", &g) == 0);
	CHECK(g.mode == REP_G_FRACTAL && g.min == 2 && g.limit == 10 &&
	      g.order == REP_CALLEE && g.period);
	/* what is not given keeps its value */
	CHECK(rep_text_parse_graph("folded", &g) == 0);
	CHECK(g.mode == REP_G_FOLDED && g.min == 2 && g.limit == 10 && g.period);
	CHECK(rep_text_parse_graph("flat,percent", &g) == 0);
	CHECK(g.mode == REP_G_FLAT && !g.period);
	CHECK(rep_text_parse_graph("none", &g) == 0 && g.mode == REP_G_NONE);
	/* refused: perf 6.1's address and count, a third number, a
	 * negative limit, a value too long */
	CHECK(rep_text_parse_graph("graph,0.5,caller,address", &g) < 0);
	CHECK(rep_text_parse_graph("graph,count", &g) < 0);
	CHECK(rep_text_parse_graph("1,2,3", &g) < 0);
	CHECK(rep_text_parse_graph("graph,1,-2", &g) < 0);
	char big[200];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK(rep_text_parse_graph(big, &g) < 0);
}
