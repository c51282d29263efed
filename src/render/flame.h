/*
 * flame: render a merged call tree as an interactive SVG flame graph.
 * Stage: render. Input is a struct render_tree (render/tree.h); output
 * is one self-contained SVG written to a FILE in a single pass over the
 * frames that are drawn. Frames narrower than the minimum width are not
 * drawn but stay counted in their parent's width (the parent's
 * remainder), so totals never change and the SVG size is bounded by
 * width / minwidth frames per level, whatever the number of stacks.
 * Key invariants: every name and user string is XML-escaped (invalid
 * UTF-8 becomes U+FFFD), frames are written in depth-first pre-order as
 * the children of <g id="frames"> with their labels apart in
 * <g id="labels"> (the embedded script relies on both), and the output
 * is a pure function of tree and options (except --random colours).
 */
#ifndef SCORCH_RENDER_FLAME_H
#define SCORCH_RENDER_FLAME_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "render/nameattr.h"
#include "render/palette.h"
#include "render/tree.h"
#include "stacks/table.h"

struct render_flame_opts {
	const char *title;       /* NULL: "Flame Graph" / "Icicle Graph" / "Flame Chart" */
	const char *subtitle;    /* NULL or "" for none */
	int width;               /* image width, px */
	int frameheight;         /* px per level */
	double minwidth;         /* px, or percent of the total when minwidth_pct */
	bool minwidth_pct;
	const char *fonttype;
	double fontsize;
	double fontwidth;        /* average glyph width / font size */
	const char *countname;   /* "samples" */
	const char *nametype;    /* "Function:" */
	double factor;           /* multiplies counts shown in tooltips */
	double total;            /* > actual total: widths relative to it */
	enum render_palette palette;
	enum render_color_mode color_mode;
	const char *bgcolor;     /* NULL: by palette */
	const char *search_color;
	const char *notes;
	const char *encoding;    /* XML declaration encoding, or NULL */
	bool inverted;           /* icicle: root at the top */
	bool flamechart;         /* title default only; the tree keeps order */
	bool negate;             /* differential: swap red and blue */
	bool truncate_left;      /* labels keep their end: "..name" */
	struct render_palette_map *palette_map; /* --cp, or NULL */
	const struct render_nameattr *nameattr; /* or NULL */
};

void render_flame_opts_init(struct render_flame_opts *o);
/* Set the numeric option called name (flamegraph.pl's --width, --height,
 * --minwidth PX or PX%, --fontsize, --fontwidth, --factor, --total) from
 * its text, within its range. Returns 0, -EINVAL for a bad value, or 1
 * when name is not a numeric option. */
int render_flame_opts_number(struct render_flame_opts *o, const char *name,
			     const char *arg);

/* Write the SVG for t. Returns 0, or -errno when writing failed.
 * Frames sit where flamegraph.pl draws them: left to right in the order
 * of the folded lines sorted as text (a frame's own samples before its
 * children), or in time order when t->flamechart; rect edges rounded to
 * 0.1 px as flamegraph.pl rounds them. */
int render_flame_write(struct render_tree *t, const struct render_flame_opts *o,
		       FILE *out, struct diag *d);

/* Write the SVG of the stacks of st (sorted, as folded text), or the
 * "No samples" one when st has none. Returns as render_flame_write. */
int render_flame_write_table(const struct stack_table *st,
			     const struct render_flame_opts *o, FILE *out,
			     struct diag *d);

/* Write the well-formed "No samples" SVG flamegraph.pl also draws for
 * empty input. Returns 0 or -errno. */
int render_flame_write_empty(const struct render_flame_opts *o, FILE *out);

/* The viewer script (render/flame_js.c, generated from flame.js). */
extern const char render_flame_js[];

#endif
