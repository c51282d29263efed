/*
 * palette: frame colours for flame graphs, as flamegraph.pl picks them.
 * Stage: render. Colours are a pure function of the frame name, the
 * palette and the mode, so one function has the same colour in every
 * graph (default mode: a value seeded by the name's code-point sum, as
 * flamegraph.pl does; --hash: its name hash; --random: random).
 * A palette map (--cp) pins colours by name: loaded from a file of
 * "name->rgb(r,g,b)" lines, extended with new names, written back sorted.
 * Differential graphs colour by delta instead (render_palette_delta).
 */
#ifndef SCORCH_RENDER_PALETTE_H
#define SCORCH_RENDER_PALETTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/hmap.h"

enum render_palette {
	PAL_HOT, PAL_MEM, PAL_IO, PAL_WAKEUP, PAL_CHAIN, PAL_JAVA, PAL_JS,
	PAL_PERL, PAL_PYTHON, PAL_RUST, PAL_RED, PAL_GREEN, PAL_BLUE,
	PAL_AQUA, PAL_YELLOW, PAL_PURPLE, PAL_ORANGE,
};

enum render_color_mode { COLOR_NAME, COLOR_HASH, COLOR_RANDOM };

struct render_rgb {
	uint8_t r, g, b;
};

/* Palette by name ("hot", "java", ...); returns 0 or -EINVAL. */
int render_palette_parse(const char *name, enum render_palette *out);
/* Comma-separated list of palette names, for help and messages. */
extern const char render_palette_names[];

/* Colour of a frame named name[0..len). */
struct render_rgb render_palette_color(enum render_palette pal,
				       enum render_color_mode mode,
				       const char *name, size_t len);

/* Differential colour: red for growth, blue for shrinkage, white for 0;
 * value is the frame's delta, max the largest |delta| (>= 1). */
struct render_rgb render_palette_delta(double value, double max);

/* Background gradient stops for --bgcolors (yellow, blue, green, grey or
 * #rrggbb, which is flat). Returns 0 or -EINVAL; the strings are static
 * or borrowed from spec. */
int render_palette_bg(const char *spec, enum render_palette pal,
		      const char **top, const char **bottom);

/* A name -> colour map for --cp. */
struct render_palette_map {
	struct hmap names;
	struct render_rgb *colors;
	size_t cap;
	bool dirty;
};

void render_palette_map_init(struct render_palette_map *m);
void render_palette_map_release(struct render_palette_map *m);
/* Load path; a missing file is an empty map. Malformed lines are skipped
 * and counted in *bad. Returns 0 or -errno (d says where). */
int render_palette_map_load(struct render_palette_map *m, const char *path,
			    size_t *bad, struct diag *d);
/* The pinned colour of name, adding color for it when absent. */
struct render_rgb render_palette_map_get(struct render_palette_map *m,
					 const char *name, size_t len,
					 struct render_rgb color);
/* Write the map sorted by name. Returns 0 or -errno. */
int render_palette_map_save(const struct render_palette_map *m, const char *path,
			    struct diag *d);

#endif
