/* flame_test: unit tests for the flame graph's option values (render/flame.c). */
#include "render/flame.h"
#include "unit.h"

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
