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
#include "base/strbuf.h"
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
/* Set the option called name: a numeric one (render_flame_opts_number)
 * or one of flamegraph.pl's text and flag options: --title,
 * --subtitle, --fonttype, --countname, --nametype, --notes,
 * --search-color, --encoding (arg borrowed), --colors, --bgcolors,
 * --hash, --random, --deterministic, --inverted, --flamechart,
 * --negate, --truncate-text-right, --truncate-text-left (arg ignored).
 * Returns 0, -EINVAL for a bad value (a palette or background that
 * render/palette does not know), or 1 when name is none of these. */
int render_flame_opts_set(struct render_flame_opts *o, const char *name,
			  const char *arg);
/* A graph of folded perf input labelled by what its counts are
 * (fold_perfdata_labels, profile/fold.h: "EVENT: COMMAND" made in title;
 * "samples", "µs" or the event's name): the title unless keep_title,
 * the count name and factor unless keep_counts (options given for
 * them). o then borrows title and info's event: both must outlive o's
 * use. */
struct fold_perfdata_info;
void render_flame_opts_perf_labels(struct render_flame_opts *o,
				   const struct fold_perfdata_info *info, bool keep_title,
				   bool keep_counts, struct strbuf *title);

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

/* ---- the side files (flame_files.c) ---- */

/* The files a flame graph is drawn with besides its stacks, flamegraph.pl's
 * --nameattr (SVG attributes per function) and --cp/--palette (colours
 * kept from one graph to the next): loaded before drawing and hooked into
 * the options, the palette map written back after drawing when it gained
 * a colour (or had none).
 *   struct render_flame_files ff;
 *   render_flame_files_init(&ff);
 *   ff.nameattr_path = ...; ff.palette_path = ...;       // NULL: none
 *   if (render_flame_files_load(&ff, &o, &notes, &d) < 0) diag_print(&d, ff.failed);
 *   ... render_flame_write(&tree, &o, out, &d) ...
 *   if (render_flame_files_save(&ff, &d) < 0) diag_print(&d, ff.failed);
 *   render_flame_files_release(&ff);
 * Ownership: the paths are borrowed; o points into ff until release. */
struct render_flame_files {
	const char *nameattr_path, *palette_path;
	struct render_nameattr na;
	struct render_palette_map map;
	const char *failed;      /* the file a failed call is about */
};

void render_flame_files_init(struct render_flame_files *ff);
void render_flame_files_release(struct render_flame_files *ff);
/* Load the files given and set o->nameattr, o->palette_map. Lines that
 * are not understood are skipped, one warning line a file added to notes
 * ("FILE: ignored N invalid attributes|lines"). Returns 0, or -1 with d
 * (and ff->failed) when a file cannot be read. */
int render_flame_files_load(struct render_flame_files *ff, struct render_flame_opts *o,
			    struct strbuf *notes, struct diag *d);
/* Write the palette map back when due. 0, or -1 with d (ff->failed). */
int render_flame_files_save(struct render_flame_files *ff, struct diag *d);

#endif
