/* palette_test: unit tests for frame colours (render/palette.c). */
#include "render/palette.h"
#include "unit.h"

#include <string.h>

static bool is(struct render_rgb c, int r, int g, int b)
{
	return c.r == r && c.g == g && c.b == b;
}

static struct render_rgb hot(const char *name)
{
	return render_palette_color(PAL_HOT, COLOR_NAME, name, strlen(name));
}

UNIT_TEST(palette_default_matches_flamegraph_pl)
{
	/* values flamegraph.pl draws (code-point-sum seeded drand48) */
	CHECK(is(hot("Perl_pp_leavesub"), 212, 35, 8));
	CHECK(is(hot("__split_vma"), 237, 150, 36));
	CHECK(is(hot("[unknown]"), 210, 24, 5));
	CHECK(is(hot(""), 213, 39, 9));
}

UNIT_TEST(palette_multi_palettes)
{
	struct render_rgb c;
	c = render_palette_color(PAL_JAVA, COLOR_NAME, "java/lang/Thread.run", 20);
	CHECK(c.g >= 200 && c.r <= 110);  /* green */
	c = render_palette_color(PAL_JAVA, COLOR_NAME, "do_syscall_64_[k]", 17);
	CHECK(c.b == 0 && c.r >= 190);    /* orange */
	c = render_palette_color(PAL_RUST, COLOR_NAME, "std::rt::lang_start", 19);
	CHECK(c.b == 0);                  /* orange */
	c = render_palette_color(PAL_PYTHON, COLOR_NAME, "/usr/lib/python3/dist-packages/x.py", 35);
	CHECK(c.g >= 165 && c.b >= 165 && c.r <= 110); /* aqua */
}

UNIT_TEST(palette_delta_colours)
{
	CHECK(is(render_palette_delta(0, 10), 255, 255, 255));
	CHECK(is(render_palette_delta(10, 10), 255, 0, 0));
	CHECK(is(render_palette_delta(-10, 10), 0, 0, 255));
	CHECK(is(render_palette_delta(5, 10), 255, 105, 105));
}

UNIT_TEST(palette_names_and_backgrounds)
{
	enum render_palette p;
	const char *a, *b;
	CHECK(render_palette_parse("python", &p) == 0 && p == PAL_PYTHON);
	CHECK(render_palette_parse("nope", &p) < 0);
	CHECK(render_palette_bg(NULL, PAL_MEM, &a, &b) == 0 && strcmp(b, "#e0ffe0") == 0);
	CHECK(render_palette_bg("#123456", PAL_HOT, &a, &b) == 0 && strcmp(a, "#123456") == 0);
	CHECK(render_palette_bg("pink", PAL_HOT, &a, &b) < 0);
}
