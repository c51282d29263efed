/*
 * nameattr: loading --nameattr files (see nameattr.h).
 * Stage: render. Streams the file line by line; memory grows with the
 * functions it names.
 */
#include "render/nameattr.h"

#include "base/lines.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void render_nameattr_init(struct render_nameattr *na)
{
	memset(na, 0, sizeof(*na));
	hmap_init(&na->names);
	arena_init(&na->strings);
}

void render_nameattr_release(struct render_nameattr *na)
{
	hmap_release(&na->names);
	arena_release(&na->strings);
	free(na->attrs);
	memset(na, 0, sizeof(*na));
}

const struct render_attr *render_nameattr_find(const struct render_nameattr *na,
					       const char *name, size_t len)
{
	if (!na || !na->names.count)
		return NULL;
	size_t id = hmap_find(&na->names, name, len);
	return id == (size_t)-1 ? NULL : &na->attrs[id];
}

static bool unsafe_value(const char *v, size_t len)
{
	while (len && isspace((unsigned char)*v)) {
		v++;
		len--;
	}
	return len >= 11 && strncasecmp(v, "javascript:", 11) == 0;
}

static bool attr_name_char(char c, bool first)
{
	return isalpha((unsigned char)c) || c == '_' || c == ':' ||
	       (!first && (isdigit((unsigned char)c) || c == '-' || c == '.'));
}

/* Attributes the frame writes itself, or that an extra list already
 * had: repeating one would make the XML malformed. */
static bool reserved(const char *name, size_t len, const struct strbuf *done)
{
	static const char *const own[] = { "id", "class", "href", "xlink:href", "target" };
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (len == strlen(own[i]) && memcmp(name, own[i], len) == 0)
			return true;
	for (const char *p = done->buf; (p = strstr(p, " ")) != NULL; p++)
		if (strncmp(p + 1, name, len) == 0 && p[1 + len] == '=')
			return true;
	return false;
}

/* Turn 'a="1" b="2"' into a safe ' a="1" b="2"' with escaped values;
 * returns NULL when nothing valid remains. */
static const char *sanitize_extra(struct render_nameattr *na, const char *s, size_t len)
{
	struct strbuf out = SB_INIT;
	size_t i = 0;
	while (i < len) {
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		size_t n0 = i;
		while (i < len && attr_name_char(s[i], i == n0))
			i++;
		size_t n1 = i;
		if (n1 == n0 || i + 1 >= len || s[i] != '=' || s[i + 1] != '"')
			break;
		i += 2;
		const char *q = memchr(s + i, '"', len - i);
		if (!q)
			break;
		size_t vlen = (size_t)(q - (s + i));
		bool handler = n1 - n0 >= 2 && strncasecmp(s + n0, "on", 2) == 0;
		if (!handler && !unsafe_value(s + i, vlen) &&
		    !reserved(s + n0, n1 - n0, &out)) {
			sb_addc(&out, ' ');
			sb_add(&out, s + n0, n1 - n0);
			sb_adds(&out, "=\"");
			sb_add_xml(&out, s + i, vlen);
			sb_addc(&out, '"');
		}
		i = (size_t)(q - s) + 1;
	}
	const char *r = out.len ? arena_strndup(&na->strings, out.buf, out.len) : NULL;
	sb_release(&out);
	return r;
}

static int set_field(struct render_nameattr *na, struct render_attr *a,
		     const char *f, size_t len)
{
	const char *eq = memchr(f, '=', len);
	if (!eq)
		return -EINVAL;
	size_t klen = (size_t)(eq - f), vlen = len - klen - 1;
	const char *v = eq + 1;
#define KEY(k) (klen == strlen(k) && memcmp(f, k, klen) == 0)
	if (KEY("g_extra") || KEY("a_extra")) {
		const char *x = sanitize_extra(na, v, vlen);
		if (KEY("g_extra"))
			a->g_extra = x;
		else
			a->a_extra = x;
		return 0;
	}
	const char **slot = KEY("title") ? &a->title : KEY("href") ? &a->href :
			    KEY("target") ? &a->target : KEY("id") ? &a->id :
			    KEY("class") ? &a->cls : NULL;
#undef KEY
	if (!slot || (slot == &a->href && unsafe_value(v, vlen)))
		return -EINVAL;
	*slot = arena_strndup(&na->strings, v, vlen);
	return 0;
}

static void parse_line(struct render_nameattr *na, const char *line, size_t len,
		       size_t *bad)
{
	const char *tab = memchr(line, '\t', len);
	size_t nlen = tab ? (size_t)(tab - line) : len;
	if (!nlen)
		return;
	size_t id = hmap_put(&na->names, line, nlen, NULL);
	if (id >= na->cap) {
		size_t old = na->cap;
		XGROW(na->attrs, na->cap, id + 1);
		memset(na->attrs + old, 0, (na->cap - old) * sizeof(*na->attrs));
	}
	size_t pos = nlen;
	while (pos < len) {
		pos++; /* the tab */
		const char *next = memchr(line + pos, '\t', len - pos);
		size_t end = next ? (size_t)(next - line) : len;
		if (end > pos && set_field(na, &na->attrs[id], line + pos, end - pos) < 0)
			(*bad)++;
		pos = end;
	}
}

struct load_ctx {
	struct render_nameattr *na;
	size_t *bad;
};

static int load_line(void *ctx, const char *line, size_t len)
{
	struct load_ctx *c = ctx;
	parse_line(c->na, line, len, c->bad);
	return 0;
}

int render_nameattr_load(struct render_nameattr *na, const char *path,
			 size_t *bad, struct diag *d)
{
	struct load_ctx c = { na, bad };
	uint64_t at;
	*bad = 0;
	int rc = lines_read_file(path, load_line, &c, &at);
	if (rc < 0 && !at)
		diag_set(d, "cannot open name attribute file: %s", strerror(-rc));
	else if (rc < 0)
		diag_set(d, "line %llu: %s", (unsigned long long)at, strerror(-rc));
	return rc < 0 ? rc : 0;
}
