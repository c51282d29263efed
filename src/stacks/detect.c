/*
 * detect: stack format of an input prefix (see detect.h).
 * Stage: stacks. Rules, first match wins, line by line (blank and '#'
 * lines skipped): perf.data magic at offset 0; control bytes -> binary;
 * a SystemTap frame (" 0xADDR : ..."), a DTrace frame ("  mod`func"), the
 * DTrace header ("CPU ID FUNCTION:NAME"); a perf script sample header that
 * carries a timestamp ("N.N:") or is followed by a frame line
 * (perf 3.x printed frames unindented); an indented
 * perf script frame line ("  pc sym (dso)"). Count lines alone decide
 * nothing. Invariant: never reads past len.
 */
#include "stacks/detect.h"
#include "stacks/collapse_counted.h"
#include "stacks/collapse_perf.h"

#include <string.h>

static const struct {
	enum stack_format fmt;
	const char *name;
} names[] = {
	{ FMT_PERF_SCRIPT, "perf-script" },
	{ FMT_STAP, "stap" },
	{ FMT_DTRACE, "dtrace" },
	{ FMT_PERF_DATA, "perf.data" },
};

const char *stack_format_name(enum stack_format f)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].fmt == f)
			return names[i].name;
	return NULL;
}

enum stack_format stack_format_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i].name, name) == 0)
			return names[i].fmt;
	if (strcmp(name, "perf") == 0 || strcmp(name, "perf-data") == 0)
		return FMT_PERF_DATA;
	return FMT_UNKNOWN;
}

static bool is_binary_byte(unsigned char c)
{
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' &&
		c != '\r' && c != 0x1b) || c == 0x7f;
}

/* "digits.digits:" somewhere: the timestamp perf script prints. */
static bool has_timestamp(const char *s, size_t len)
{
	for (const char *p = memchr(s, '.', len); p;
	     p = memchr(p + 1, '.', len - (size_t)(p + 1 - s))) {
		size_t i = (size_t)(p - s);
		if (i == 0 || s[i - 1] < '0' || s[i - 1] > '9')
			continue;
		size_t j = i + 1;
		while (j < len && s[j] >= '0' && s[j] <= '9')
			j++;
		if (j > i + 1 && j < len && s[j] == ':')
			return true;
	}
	return false;
}

static bool is_dtrace_header(const char *s, size_t len)
{
	return len >= 3 && memcmp(s, "CPU", 3) == 0 &&
	       memmem(s, len, "FUNCTION:NAME", 13) != NULL;
}

static bool is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

struct scan {
	const char *data;
	size_t len, pos;
	bool at_eof;
	uint64_t lineno;
};

static bool next_line(struct scan *sc, const char **line, size_t *len)
{
	if (sc->pos >= sc->len)
		return false;
	const char *s = sc->data + sc->pos;
	size_t left = sc->len - sc->pos;
	const char *nl = memchr(s, '\n', left);
	if (!nl && !sc->at_eof)
		return false;
	*line = s;
	*len = nl ? (size_t)(nl - s) : left;
	sc->pos += *len + (nl ? 1 : 0);
	sc->lineno++;
	return true;
}

/* The format one line shows, FMT_EMPTY for lines that decide nothing. */
static enum stack_format classify(const char *s, size_t len, struct scan *sc)
{
	if (collapse_counted_is_stap_frame(s, len))
		return FMT_STAP;
	if (collapse_counted_is_dtrace_frame(s, len) || is_dtrace_header(s, len))
		return FMT_DTRACE;
	if (collapse_perf_is_header(s, len)) {
		if (has_timestamp(s, len))
			return FMT_PERF_SCRIPT;
		struct scan peek = *sc;
		const char *n;
		size_t nlen;
		if (next_line(&peek, &n, &nlen) && collapse_perf_is_frame(n, nlen))
			return FMT_PERF_SCRIPT;
	}
	if (len > 0 && (s[0] == ' ' || s[0] == '\t') && collapse_perf_is_frame(s, len))
		return FMT_PERF_SCRIPT;
	return FMT_UNKNOWN;
}

bool stack_compressed_kind(const char *data, size_t len, const char **name,
			   const char **tool)
{
	static const struct {
		const char *magic;
		size_t len;
		const char *name, *tool;
	} kinds[] = {
		{ "\x1f\x8b", 2, "gzip", "zcat" },
		{ "\x28\xb5\x2f\xfd", 4, "zstd", "zstdcat" },
		{ "\xfd" "7zXZ", 5, "xz", "xzcat" },
		{ "BZh", 3, "bzip2", "bzcat" },
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (len >= kinds[i].len && memcmp(data, kinds[i].magic, kinds[i].len) == 0 &&
		    (i != 3 || (len > 3 && data[3] >= '1' && data[3] <= '9'))) {
			*name = kinds[i].name;
			*tool = kinds[i].tool;
			return true;
		}
	}
	return false;
}

/* Compressed input gets a hint instead of "binary data". */
static bool compressed_error(const char *data, size_t len, struct diag *d)
{
	const char *name, *tool;
	if (!stack_compressed_kind(data, len, &name, &tool))
		return false;
	diag_set(d, "line 1: %s-compressed data; decompress it first "
		    "(%s FILE | scorch fold)", name, tool);
	return true;
}

static enum stack_format binary_error(const char *data, size_t len, struct diag *d)
{
	for (size_t i = 0; i < len; i++) {
		if (!is_binary_byte((unsigned char)data[i]))
			continue;
		uint64_t line = 1;
		for (size_t j = 0; j < i; j++)
			line += data[j] == '\n';
		diag_set(d, "line %llu: binary data (byte 0x%02x at offset %zu), not "
			    "perf script, SystemTap or DTrace stack text",
			 (unsigned long long)line, (unsigned char)data[i], i);
		return FMT_UNKNOWN;
	}
	return FMT_EMPTY;
}

bool stack_format_is_text(const char *data, size_t len, struct diag *d)
{
	return !compressed_error(data, len, d) && binary_error(data, len, d) != FMT_UNKNOWN;
}

enum stack_format stack_format_detect(const char *data, size_t len, bool at_eof,
				      struct diag *d)
{
	if (len >= 8 && (memcmp(data, "PERFILE2", 8) == 0 ||
			 memcmp(data, "2ELIFREP", 8) == 0))
		return FMT_PERF_DATA;
	if (compressed_error(data, len, d) || binary_error(data, len, d) == FMT_UNKNOWN)
		return FMT_UNKNOWN;
	struct scan sc = { data, len, 0, at_eof, 0 };
	const char *s;
	size_t n;
	uint64_t first_unknown = 0;
	bool any = false;
	while (next_line(&sc, &s, &n)) {
		if ((n > 0 && s[0] == '#') || is_blank(s, n))
			continue;
		any = true;
		enum stack_format f = classify(s, n, &sc);
		if (f != FMT_UNKNOWN)
			return f;
		if (!first_unknown && !collapse_counted_is_count(s, n))
			first_unknown = sc.lineno;
	}
	if (!any) /* only comments so far: perf script --header starts so */
		return at_eof ? FMT_EMPTY : FMT_PERF_SCRIPT;
	diag_set(d, "line %llu: not a known stack format (perf script, SystemTap "
		    "print_stack or DTrace stack aggregation); try --format",
		 (unsigned long long)(first_unknown ? first_unknown : 1));
	return FMT_UNKNOWN;
}

enum stack_format stack_format_choose(const char *data, size_t len, bool at_eof,
				      enum stack_format forced, struct diag *d)
{
	if (forced == FMT_UNKNOWN)
		return stack_format_detect(data, len, at_eof, d);
	if (len && !stack_format_is_text(data, len, d))
		return FMT_UNKNOWN;
	return forced;
}
