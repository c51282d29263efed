/*
 * nameattr: per-function SVG attributes for --nameattr files.
 * Stage: render. A file has lines "func<TAB>key=value<TAB>key=value...";
 * keys are title, href, target, id, class, g_extra and a_extra (the
 * last two hold extra attributes as k="v" lists). Values are stored as
 * given and escaped on output; extra attributes that could run script
 * (on* handlers, javascript: links) are dropped when parsed, so a
 * nameattr file cannot inject markup either.
 * The table owns its strings until render_nameattr_release.
 */
#ifndef SCORCH_RENDER_NAMEATTR_H
#define SCORCH_RENDER_NAMEATTR_H

#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/hmap.h"

struct render_attr {
	const char *title, *href, *target, *id, *cls;
	const char *g_extra, *a_extra; /* sanitized: ' k="v"' sequences */
};

struct render_nameattr {
	struct hmap names;          /* function name -> index into attrs */
	struct render_attr *attrs;
	size_t cap;
	struct arena strings;
};

void render_nameattr_init(struct render_nameattr *na);
void render_nameattr_release(struct render_nameattr *na);
/* Load path. Unknown keys and malformed fields are skipped and counted
 * in *bad. Returns 0 or -errno (d says why). */
int render_nameattr_load(struct render_nameattr *na, const char *path,
			 size_t *bad, struct diag *d);
/* Attributes of a function, or NULL. */
const struct render_attr *render_nameattr_find(const struct render_nameattr *na,
					       const char *name, size_t len);

#endif
