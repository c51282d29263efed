/* flame_test: unit tests for the flame graph's option values and labels (render/flame.c). */
#include "render/flame.h"
#include "profile/fold.h"
#include "unit.h"

#include <string.h>

UNIT_TEST(flame_opts_number_ranges)
{
	struct render_flame_opts o;
	render_flame_opts_init(&o);
	CHECK(render_flame_opts_number(&o, "width", "800") == 0 && o.width == 800);
	CHECK(render_flame_opts_number(&o, "width", "39") < 0);      /* below 40 */
	CHECK(render_flame_opts_number(&o, "minwidth", "0.5%") == 0 &&
	      o.minwidth_pct && o.minwidth == 0.5);
	CHECK(render_flame_opts_number(&o, "minwidth", "5%%") < 0);
	CHECK(render_flame_opts_number(&o, "factor", "x") < 0);
	CHECK(render_flame_opts_number(&o, "title", "T") == 1);      /* not numeric */
}

/* flamegraph.pl's text and flag options by name; the options that are
 * the command's (files, --reverse) are not the graph's. */
UNIT_TEST(flame_opts_set_by_name)
{
	struct render_flame_opts o;
	render_flame_opts_init(&o);
	CHECK(render_flame_opts_set(&o, "title", "T") == 0 && !strcmp(o.title, "T"));
	CHECK(render_flame_opts_set(&o, "search-color", "red") == 0 &&
	      !strcmp(o.search_color, "red"));
	CHECK(render_flame_opts_set(&o, "width", "900") == 0 && o.width == 900);
	CHECK(render_flame_opts_set(&o, "colors", "java") == 0 && o.palette == PAL_JAVA);
	CHECK(render_flame_opts_set(&o, "colors", "nope") < 0 && o.palette == PAL_JAVA);
	CHECK(render_flame_opts_set(&o, "bgcolors", "#102030") == 0);
	CHECK(render_flame_opts_set(&o, "bgcolors", "nope") < 0);
	CHECK(render_flame_opts_set(&o, "hash", NULL) == 0 && o.color_mode == COLOR_HASH);
	CHECK(render_flame_opts_set(&o, "truncate-text-left", NULL) == 0 && o.truncate_left);
	CHECK(render_flame_opts_set(&o, "truncate-text-right", NULL) == 0 && !o.truncate_left);
	CHECK(render_flame_opts_set(&o, "inverted", NULL) == 0 && o.inverted);
	CHECK(render_flame_opts_set(&o, "reverse", NULL) == 1);
	CHECK(render_flame_opts_set(&o, "nameattr", "f") == 1);
}

/* A graph of perf input takes the event's labels, except where told. */
UNIT_TEST(flame_opts_perf_labels)
{
	struct render_flame_opts o;
	struct fold_perfdata_info in = FOLD_PERFDATA_INFO_INIT;
	struct strbuf title = SB_INIT;
	sb_adds(&in.event, "cycles");
	in.weighted = true;
	render_flame_opts_init(&o);
	render_flame_opts_perf_labels(&o, &in, false, false, &title);
	CHECK(!strcmp(o.title, "cycles") && !strcmp(o.countname, "cycles") && o.factor == 1);
	render_flame_opts_init(&o);
	o.title = "mine";
	o.countname = "ms";
	o.factor = 2;
	render_flame_opts_perf_labels(&o, &in, true, true, &title);
	CHECK(!strcmp(o.title, "mine") && !strcmp(o.countname, "ms") && o.factor == 2);
	sb_release(&title);
	fold_perfdata_info_release(&in);
}
