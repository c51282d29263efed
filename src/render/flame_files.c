/*
 * flame_files: the files a flame graph is drawn with besides its stacks
 * (see flame.h, render_flame_files). Stage: render.
 */
#include "render/flame.h"

#include "base/strbuf.h"

void render_flame_files_init(struct render_flame_files *ff)
{
	ff->nameattr_path = ff->palette_path = ff->failed = NULL;
	render_nameattr_init(&ff->na);
	render_palette_map_init(&ff->map);
}

void render_flame_files_release(struct render_flame_files *ff)
{
	render_palette_map_release(&ff->map);
	render_nameattr_release(&ff->na);
}

static void note_bad(struct strbuf *notes, const char *path, size_t bad,
		     const char *what)
{
	if (bad)
		sb_addf(notes, "%s: ignored %zu invalid %s%s\n", path, bad, what,
			bad == 1 ? "" : "s");
}

int render_flame_files_load(struct render_flame_files *ff, struct render_flame_opts *o,
			    struct strbuf *notes, struct diag *d)
{
	size_t bad = 0;
	if (ff->nameattr_path) {
		ff->failed = ff->nameattr_path;
		if (render_nameattr_load(&ff->na, ff->nameattr_path, &bad, d) < 0)
			return -1;
		note_bad(notes, ff->nameattr_path, bad, "attribute");
		o->nameattr = &ff->na;
	}
	if (ff->palette_path) {
		ff->failed = ff->palette_path;
		if (render_palette_map_load(&ff->map, ff->palette_path, &bad, d) < 0)
			return -1;
		note_bad(notes, ff->palette_path, bad, "line");
		o->palette_map = &ff->map;
	}
	ff->failed = NULL;
	return 0;
}

int render_flame_files_save(struct render_flame_files *ff, struct diag *d)
{
	if (!ff->palette_path || (!ff->map.dirty && ff->map.names.count != 0))
		return 0;
	ff->failed = ff->palette_path;
	return render_palette_map_save(&ff->map, ff->palette_path, d) < 0 ? -1 : 0;
}
