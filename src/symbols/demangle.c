/*
 * demangle: C++ via libstdc++'s __cxa_demangle, Rust legacy and v0 (see
 * demangle.h). Stage: symbols. Invariant: the input is never modified;
 * on any doubt the mangled name is kept (NULL returned).
 */
#include "symbols/demangle.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

/* From libstdc++ (C linkage, declared in <cxxabi.h> for C++). */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

static size_t strip_qualifiers(const char *s, size_t n)
{
	static const char *const quals[] = { " const", " volatile", " &&", " &",
					     " noexcept", " restrict" };
	bool again = true;
	while (again) {
		again = false;
		for (size_t i = 0; i < sizeof(quals) / sizeof(quals[0]); i++)
			if (ends_with(s, n, quals[i])) {
				n -= strlen(quals[i]);
				again = true;
			}
	}
	return n;
}

/* Index of the '(' matching the ')' at s[n-1], or n when none. */
static size_t open_paren(const char *s, size_t n)
{
	int depth = 0;
	for (size_t i = n; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i;
	}
	return n;
}

/* Drop "ret " before a template function name: the last space outside
 * <>, (), {} and [] when the name ends with '>'. */
static void strip_return_type(char *s)
{
	size_t n = strlen(s);
	if (n == 0 || s[n - 1] != '>')
		return;
	int depth = 0;
	size_t cut = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '<' || c == '(' || c == '{' || c == '[')
			depth++;
		else if ((c == '>' || c == ')' || c == '}' || c == ']') && depth > 0)
			depth--;
		else if (c == ' ' && depth == 0 &&
			 !(i >= 8 && strncmp(s + i - 8, "operator", 8) == 0))
			cut = i + 1;
	}
	if (cut)
		memmove(s, s + cut, n - cut + 1);
}

void sym_demangle_strip_params(char *s)
{
	char *clone = strstr(s, " [clone ");
	if (clone)
		*clone = '\0'; /* perf 6.1 prints no clone suffixes */
	size_t n = strip_qualifiers(s, strlen(s));
	if (n && s[n - 1] == ')') {
		size_t open = open_paren(s, n);
		if (open < n && open > 0)
			n = open;
	}
	s[n] = '\0';
	strip_return_type(s);
}

/* ---- Rust legacy: _ZN<len><ident>...17h<16 hex>E ---- */

static bool is_rust_hash(const char *s)
{
	if (strlen(s) != 17 || s[0] != 'h')
		return false;
	for (int i = 1; i < 17; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

static const struct {
	const char *esc, *text;
} rust_escapes[] = {
	{ "$SP$", "@" }, { "$BP$", "*" }, { "$RF$", "&" }, { "$LT$", "<" },
	{ "$GT$", ">" }, { "$LP$", "(" }, { "$RP$", ")" }, { "$C$", "," },
	{ "$u7e$", "~" }, { "$u20$", " " }, { "$u27$", "'" }, { "$u5b$", "[" },
	{ "$u5d$", "]" }, { "$u7b$", "{" }, { "$u7d$", "}" }, { "$u3b$", ";" },
	{ "$u2b$", "+" }, { "$u22$", "\"" },
};

static void rust_ident(struct strbuf *sb, const char *p, size_t n)
{
	size_t i = 0;
	if (n >= 2 && p[0] == '_' && p[1] == '$')
		i = 1;
	while (i < n) {
		if (p[i] == '.' && i + 1 < n && p[i + 1] == '.') {
			sb_adds(sb, "::");
			i += 2;
			continue;
		}
		bool done = false;
		for (size_t k = 0; k < sizeof(rust_escapes) / sizeof(rust_escapes[0]); k++) {
			size_t el = strlen(rust_escapes[k].esc);
			if (el <= n - i && memcmp(p + i, rust_escapes[k].esc, el) == 0) {
				sb_adds(sb, rust_escapes[k].text);
				i += el;
				done = true;
				break;
			}
		}
		if (!done)
			sb_addc(sb, p[i++]);
	}
}

static char *rust_legacy(const char *name)
{
	const char *p = name + 3; /* after _ZN */
	struct strbuf sb = SB_INIT;
	bool hashed = false;
	while (*p && *p != 'E') {
		if (!isdigit((unsigned char)*p))
			goto fail;
		char *end;
		unsigned long len = strtoul(p, &end, 10);
		if (len == 0 || len > strlen(end))
			goto fail;
		char part[18] = { 0 };
		if (len == 17)
			memcpy(part, end, 17);
		if (end[len] == 'E' && is_rust_hash(part)) {
			hashed = true;
		} else {
			if (sb.len)
				sb_adds(&sb, "::");
			rust_ident(&sb, end, len);
		}
		p = end + len;
	}
	if (*p != 'E' || !hashed)
		goto fail;
	return sb_detach(&sb, NULL);
fail:
	sb_release(&sb);
	return NULL;
}

/* ---- Rust v0 (_R...): paths only, generic args kept simple ---- */

struct v0 {
	const char *p;
	bool err;
	int depth;
};

static unsigned long v0_base62(struct v0 *v)
{
	if (*v->p == '_') {
		v->p++;
		return 0;
	}
	unsigned long x = 0;
	while (*v->p && *v->p != '_') {
		char c = *v->p++;
		int d = isdigit((unsigned char)c) ? c - '0'
			: islower((unsigned char)c) ? c - 'a' + 10
			: isupper((unsigned char)c) ? c - 'A' + 36 : -1;
		if (d < 0 || x > (1ul << 40)) {
			v->err = true;
			return 0;
		}
		x = x * 62 + (unsigned long)d;
	}
	if (*v->p != '_') {
		v->err = true;
		return 0;
	}
	v->p++;
	return x + 1;
}

static void v0_ident(struct v0 *v, struct strbuf *sb)
{
	if (*v->p == 's') {
		v->p++;
		v0_base62(v);
	}
	if (*v->p == 'u') {
		v->err = true; /* punycode: keep the mangled name */
		return;
	}
	char *end;
	unsigned long len = strtoul(v->p, &end, 10);
	if (end == v->p || len > strlen(end)) {
		v->err = true;
		return;
	}
	if (*end == '_')
		end++;
	if (len > strlen(end)) {
		v->err = true;
		return;
	}
	sb_add(sb, end, len);
	v->p = end + len;
}

static void v0_path(struct v0 *v, struct strbuf *sb);

static void v0_type(struct v0 *v, struct strbuf *sb)
{
	static const char basic[] = "abcdefhijlmnostuvxyz";
	static const char *const names[] = { "i8", "bool", "char", "f64", "str",
		"f32", "u8", "isize", "usize", "i32", "u32", "i128", "u128",
		"i16", "u16", "()", "...", "u64", "i64", "!" };
	const char *k = *v->p ? strchr(basic, *v->p) : NULL;
	if (k) {
		v->p++;
		sb_adds(sb, names[k - basic]);
		return;
	}
	v0_path(v, sb);
}

static void v0_generic_args(struct v0 *v, struct strbuf *sb)
{
	sb_addc(sb, '<');
	bool first = true;
	while (*v->p && *v->p != 'E' && !v->err) {
		if (!first)
			sb_adds(sb, ", ");
		first = false;
		if (*v->p == 'L') {
			v->p++;
			v0_base62(v);
			continue;
		}
		v0_type(v, sb);
	}
	if (*v->p == 'E')
		v->p++;
	else
		v->err = true;
	sb_addc(sb, '>');
}

static void v0_path(struct v0 *v, struct strbuf *sb)
{
	if (++v->depth > 64) {
		v->err = true;
		return;
	}
	char c = *v->p ? *v->p++ : 0;
	switch (c) {
	case 'C':
		v0_ident(v, sb);
		break;
	case 'N':
		if (!*v->p) {
			v->err = true;
			break;
		}
		v->p++; /* namespace tag */
		v0_path(v, sb);
		if (!v->err) {
			struct strbuf id = SB_INIT;
			v0_ident(v, &id);
			if (id.len) {
				sb_adds(sb, "::");
				sb_add(sb, id.buf, id.len);
			}
			sb_release(&id);
		}
		break;
	case 'I':
		v0_path(v, sb);
		v0_generic_args(v, sb);
		break;
	case 'M': case 'X': case 'Y':
		if (c != 'Y') {
			if (*v->p == 's') {
				v->p++;
				v0_base62(v);
			}
			struct strbuf skip = SB_INIT;
			v0_path(v, &skip);
			sb_release(&skip);
		}
		sb_addc(sb, '<');
		v0_type(v, sb);
		if (c == 'X' || c == 'Y') {
			sb_adds(sb, " as ");
			v0_path(v, sb);
		}
		sb_addc(sb, '>');
		break;
	default:
		v->err = true;
	}
	v->depth--;
}

static char *rust_v0(const char *name)
{
	struct v0 v = { name + 2, false, 0 };
	struct strbuf sb = SB_INIT;
	v0_path(&v, &sb);
	if (v.err || sb.len == 0) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

/* Special names (_ZT...: thunks, vtables, typeinfo; _ZG...: guard
 * variables, transaction clones): the demangler perf uses drops only an
 * outermost function's parameters and return type, and these wrap
 * another encoding whose parameters it keeps ("non-virtual thunk to
 * node::UDPWrap::OnAlloc(unsigned long)", "vtable for X<int>"). */
static bool wraps_encoding(const char *name)
{
	return name[2] == 'T' || name[2] == 'G';
}

static char *cxx(const char *name)
{
	int status = 0;
	char *out = __cxa_demangle(name, NULL, NULL, &status);
	if (status != 0 || !out) {
		free(out);
		return NULL;
	}
	if (!wraps_encoding(name)) {
		sym_demangle_strip_params(out);
	} else {
		char *clone = strstr(out, " [clone ");
		if (clone)
			*clone = '\0'; /* perf 6.1 prints no clone suffixes */
	}
	return out;
}

char *sym_demangle(const char *name)
{
	if (name[0] != '_')
		return NULL;
	if (name[1] == 'R' && isupper((unsigned char)name[2]))
		return rust_v0(name);
	if (name[1] != 'Z')
		return NULL;
	if (strncmp(name, "_ZN", 3) == 0) {
		char *r = rust_legacy(name);
		if (r)
			return r;
	}
	return cxx(name);
}
