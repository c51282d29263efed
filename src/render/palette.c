/*
 * palette: frame colours (see palette.h).
 * Stage: render. The formulas are flamegraph.pl's, so a function keeps
 * the colour users know; python and rust are inferno-style multi
 * palettes with our own name rules.
 */
#include "render/palette.h"

#include "base/lines.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const pal_names[] = {
	"hot", "mem", "io", "wakeup", "chain", "java", "js", "perl", "python",
	"rust", "red", "green", "blue", "aqua", "yellow", "purple", "orange",
};

const char render_palette_names[] = "hot, mem, io, wakeup, chain, java, js, perl, "
	"python, rust, red, green, blue, aqua, yellow, purple, orange";

int render_palette_parse(const char *name, enum render_palette *out)
{
	for (size_t i = 0; i < sizeof(pal_names) / sizeof(pal_names[0]); i++)
		if (strcmp(name, pal_names[i]) == 0) {
			*out = (enum render_palette)i;
			return 0;
		}
	return -EINVAL;
}

/* ---- name-derived values in [0, 1) ---- */

/* flamegraph.pl's default: srand(sum of code points); rand(1), i.e. the
 * first drand48 value for that seed. */
static double seeded_value(const char *name, size_t len)
{
	uint32_t sum = 0;
	const unsigned char *s = (const unsigned char *)name;
	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 1;
		if (c >= 0xf5 || (c >= 0x80 && c < 0xc2))
			n = 1;
		uint32_t cp = n == 1 ? c : (uint32_t)(c & (0x7f >> n));
		bool ok = i + n <= len;
		for (size_t k = 1; ok && k < n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				ok = false;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if (!ok) {
			n = 1;
			cp = c;
		}
		sum += cp;
		i += n;
	}
	uint64_t x = ((uint64_t)sum << 16) + 0x330e;
	x = (0x5deece66dULL * x + 0xb) & ((1ULL << 48) - 1);
	return (double)x / (double)(1ULL << 48);
}

/* flamegraph.pl's --hash: the first three characters (after a "mod`"
 * prefix), weighted towards the first; rev reads the name backwards. */
static double hash_value(const char *name, size_t len, bool rev)
{
#define AT(i) (rev ? name[len - 1 - (i)] : name[(i)])
	size_t start = 0;
	for (size_t j = 1; j < len; j++)
		if (AT(j) == '`') {
			start = j + 1;
			break;
		}
	double vector = 0, weight = 1, max = 1;
	int mod = 10;
	for (size_t i = start; i < len && mod <= 12; i++) {
		int c = (unsigned char)AT(i) % mod;
		vector += (double)c / (mod - 1) * weight;
		mod++;
		max += weight;
		weight *= 0.70;
	}
	return 1 - vector / max;
#undef AT
}

static double random_value(void)
{
	static uint64_t state;
	if (!state)
		state = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ 0x9e3779b97f4a7c15ULL;
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (double)(state >> 11) / 9007199254740992.0;
}

/* ---- multi palettes: pick a basic palette by name ---- */

static bool has(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

static bool ends(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

static enum render_palette java_pick(const char *s, size_t len)
{
	static const char *const pkgs[] = { "java/", "javax/", "jdk/", "net/",
					    "org/", "com/", "io/", "sun/" };
	if (ends(s, len, "_[j]"))
		return PAL_GREEN;
	if (ends(s, len, "_[i]"))
		return PAL_AQUA;
	const char *p = s;
	size_t l = len;
	if (l > 0 && p[0] == 'L') {
		p++;
		l--;
	}
	for (size_t i = 0; i < sizeof(pkgs) / sizeof(pkgs[0]); i++)
		if (starts(p, l, pkgs[i]) || starts(s, len, pkgs[i]))
			return PAL_GREEN;
	if (has(s, len, ":::"))
		return PAL_GREEN;
	if (has(s, len, "::"))
		return PAL_YELLOW;
	if (ends(s, len, "_[k]"))
		return PAL_ORANGE;
	return PAL_RED;
}

static enum render_palette js_pick(const char *s, size_t len)
{
	if (ends(s, len, "_[j]"))
		return memchr(s, '/', len) ? PAL_GREEN : PAL_AQUA;
	if (has(s, len, "::"))
		return PAL_YELLOW;
	const char *slash = memchr(s, '/', len);
	if (slash && has(slash, len - (size_t)(slash - s), ".js"))
		return PAL_GREEN;
	if (memchr(s, ':', len))
		return PAL_AQUA;
	if (len == 1 && s[0] == ' ')
		return PAL_GREEN;
	if (ends(s, len, "_[k]"))
		return PAL_ORANGE;
	return PAL_RED;
}

static enum render_palette perl_pick(const char *s, size_t len)
{
	if (has(s, len, "::"))
		return PAL_YELLOW;
	if (has(s, len, "Perl") || has(s, len, ".pl"))
		return PAL_GREEN;
	if (ends(s, len, "_[k]"))
		return PAL_ORANGE;
	return PAL_RED;
}

/* Python (ours): third-party packages aqua, the standard library and
 * interpreter internals yellow, kernel orange, the program itself red. */
static enum render_palette python_pick(const char *s, size_t len)
{
	if (ends(s, len, "_[k]"))
		return PAL_ORANGE;
	if (has(s, len, "site-packages") || has(s, len, "dist-packages"))
		return PAL_AQUA;
	if (has(s, len, "/lib/python") || has(s, len, "<frozen") ||
	    starts(s, len, "<built-in") || starts(s, len, "_Py") ||
	    starts(s, len, "Py"))
		return PAL_YELLOW;
	return PAL_RED;
}

/* Rust: the standard library orange, other paths yellow, the rest red. */
static enum render_palette rust_pick(const char *s, size_t len)
{
	if (ends(s, len, "_[k]"))
		return PAL_ORANGE;
	if (starts(s, len, "core::") || starts(s, len, "std::") ||
	    starts(s, len, "alloc::") || has(s, len, "as core::") ||
	    has(s, len, "as std::") || has(s, len, "as alloc::"))
		return PAL_ORANGE;
	if (has(s, len, "::"))
		return PAL_YELLOW;
	return PAL_RED;
}

static enum render_palette resolve(enum render_palette pal, const char *s, size_t len)
{
	switch (pal) {
	case PAL_JAVA: return java_pick(s, len);
	case PAL_JS: return js_pick(s, len);
	case PAL_PERL: return perl_pick(s, len);
	case PAL_PYTHON: return python_pick(s, len);
	case PAL_RUST: return rust_pick(s, len);
	case PAL_WAKEUP: return PAL_AQUA;
	case PAL_CHAIN: return ends(s, len, "_[w]") ? PAL_AQUA : PAL_BLUE;
	default: return pal;
	}
}

static struct render_rgb rgb(int r, int g, int b)
{
	struct render_rgb c = { (uint8_t)r, (uint8_t)g, (uint8_t)b };
	return c;
}

static struct render_rgb basic(enum render_palette pal, double v1, double v2, double v3)
{
	switch (pal) {
	case PAL_HOT:
		return rgb(205 + (int)(50 * v3), (int)(230 * v1), (int)(55 * v2));
	case PAL_MEM:
		return rgb(0, 190 + (int)(50 * v2), (int)(210 * v1));
	case PAL_IO:
		return rgb(80 + (int)(60 * v1), 80 + (int)(60 * v1), 190 + (int)(55 * v2));
	case PAL_RED:
		return rgb(200 + (int)(55 * v1), 50 + (int)(80 * v1), 50 + (int)(80 * v1));
	case PAL_GREEN:
		return rgb(50 + (int)(60 * v1), 200 + (int)(55 * v1), 50 + (int)(60 * v1));
	case PAL_BLUE:
		return rgb(80 + (int)(60 * v1), 80 + (int)(60 * v1), 205 + (int)(50 * v1));
	case PAL_YELLOW:
		return rgb(175 + (int)(55 * v1), 175 + (int)(55 * v1), 50 + (int)(20 * v1));
	case PAL_PURPLE:
		return rgb(190 + (int)(65 * v1), 80 + (int)(60 * v1), 190 + (int)(65 * v1));
	case PAL_AQUA:
		return rgb(50 + (int)(60 * v1), 165 + (int)(55 * v1), 165 + (int)(55 * v1));
	case PAL_ORANGE:
		return rgb(190 + (int)(65 * v1), 90 + (int)(65 * v1), 0);
	default:
		return rgb(0, 0, 0);
	}
}

struct render_rgb render_palette_color(enum render_palette pal,
				       enum render_color_mode mode,
				       const char *name, size_t len)
{
	double v1, v2, v3;
	if (mode == COLOR_HASH) {
		v1 = hash_value(name, len, false);
		v2 = v3 = hash_value(name, len, true);
	} else if (mode == COLOR_RANDOM) {
		v1 = random_value();
		v2 = random_value();
		v3 = random_value();
	} else {
		v1 = v2 = v3 = seeded_value(name, len);
	}
	return basic(resolve(pal, name, len), v1, v2, v3);
}

struct render_rgb render_palette_delta(double value, double max)
{
	if (max < 1)
		max = 1;
	if (value > max)
		value = max;
	if (value < -max)
		value = -max;
	if (value > 0) {
		int g = (int)(210 * (max - value) / max);
		return rgb(255, g, g);
	}
	if (value < 0) {
		int r = (int)(210 * (max + value) / max);
		return rgb(r, r, 255);
	}
	return rgb(255, 255, 255);
}

static bool is_hex_color(const char *s)
{
	if (s[0] != '#' || strlen(s) != 7)
		return false;
	for (int i = 1; i < 7; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return true;
}

int render_palette_bg(const char *spec, enum render_palette pal,
		      const char **top, const char **bottom)
{
	if (!spec) {
		if (pal == PAL_MEM)
			spec = "green";
		else if (pal == PAL_IO || pal == PAL_WAKEUP || pal == PAL_CHAIN)
			spec = "blue";
		else if (pal >= PAL_RED)
			spec = "grey";
		else
			spec = "yellow";
	}
	if (strcmp(spec, "yellow") == 0) {
		*top = "#eeeeee";
		*bottom = "#eeeeb0";
	} else if (strcmp(spec, "blue") == 0) {
		*top = "#eeeeee";
		*bottom = "#e0e0ff";
	} else if (strcmp(spec, "green") == 0) {
		*top = "#eef2ee";
		*bottom = "#e0ffe0";
	} else if (strcmp(spec, "grey") == 0 || strcmp(spec, "gray") == 0) {
		*top = "#f8f8f8";
		*bottom = "#e8e8e8";
	} else if (is_hex_color(spec)) {
		*top = *bottom = spec;
	} else {
		return -EINVAL;
	}
	return 0;
}

/* ---- palette map (--cp) ---- */

void render_palette_map_init(struct render_palette_map *m)
{
	memset(m, 0, sizeof(*m));
	hmap_init(&m->names);
}

void render_palette_map_release(struct render_palette_map *m)
{
	hmap_release(&m->names);
	free(m->colors);
	memset(m, 0, sizeof(*m));
}

static void map_set(struct render_palette_map *m, const char *name, size_t len,
		    struct render_rgb c)
{
	size_t id = hmap_put(&m->names, name, len, NULL);
	XGROW(m->colors, m->cap, id + 1);
	m->colors[id] = c;
}

/* "rgb(r,g,b)" with 0..255 components, exactly. */
static int parse_rgb(const char *s, size_t len, struct render_rgb *out)
{
	char buf[32];
	int r, g, b, n = 0;
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (sscanf(buf, "rgb(%3d,%3d,%3d)%n", &r, &g, &b, &n) != 3 || (size_t)n != len)
		return -EINVAL;
	if (r < 0 || r > 255 || g < 0 || g > 255 || b < 0 || b > 255)
		return -EINVAL;
	*out = rgb(r, g, b);
	return 0;
}

static int map_line(struct render_palette_map *m, const char *line, size_t len)
{
	const char *arrow = NULL;
	for (size_t i = 0; i + 1 < len; i++)
		if (line[i] == '-' && line[i + 1] == '>')
			arrow = line + i;
	if (!arrow)
		return -EINVAL;
	struct render_rgb c;
	const char *v = arrow + 2;
	if (parse_rgb(v, len - (size_t)(v - line), &c) < 0)
		return -EINVAL;
	map_set(m, line, (size_t)(arrow - line), c);
	return 0;
}

struct load_ctx {
	struct render_palette_map *m;
	size_t *bad;
};

static int load_line(void *ctx, const char *line, size_t len)
{
	struct load_ctx *c = ctx;
	if (len && map_line(c->m, line, len) < 0)
		(*c->bad)++;
	return 0;
}

int render_palette_map_load(struct render_palette_map *m, const char *path,
			    size_t *bad, struct diag *d)
{
	struct load_ctx c = { m, bad };
	uint64_t at;
	*bad = 0;
	int rc = lines_read_file(path, load_line, &c, &at);
	if (rc == -ENOENT && !at)
		return 0;
	if (rc < 0 && !at)
		diag_set(d, "cannot open palette map: %s", strerror(-rc));
	else if (rc < 0)
		diag_set(d, "line %llu: %s", (unsigned long long)at, strerror(-rc));
	return rc < 0 ? rc : 0;
}

struct render_rgb render_palette_map_get(struct render_palette_map *m,
					 const char *name, size_t len,
					 struct render_rgb color)
{
	bool added;
	size_t id = hmap_put(&m->names, name, len, &added);
	XGROW(m->colors, m->cap, id + 1);
	if (added) {
		m->colors[id] = color;
		m->dirty = true;
	}
	return m->colors[id];
}

int render_palette_map_save(const struct render_palette_map *m, const char *path,
			    struct diag *d)
{
	size_t n = m->names.count;
	size_t *order = hmap_sorted(&m->names);
	FILE *f = fopen(path, "w");
	if (!f) {
		int e = errno;
		diag_set(d, "cannot write palette map: %s", strerror(e));
		free(order);
		return -e;
	}
	for (size_t i = 0; i < n; i++) {
		const struct hmap_entry *e = &m->names.entries[order[i]];
		const struct render_rgb *c = &m->colors[order[i]];
		fwrite(e->key, 1, e->len, f);
		fprintf(f, "->rgb(%d,%d,%d)\n", c->r, c->g, c->b);
	}
	free(order);
	if (fclose(f) != 0) {
		int e = errno;
		diag_set(d, "cannot write palette map: %s", strerror(e));
		return -e;
	}
	return 0;
}
