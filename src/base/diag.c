/* diag: error and warning messages with file and offset (see diag.h). */
#include "base/diag.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *diag_prog = "scorch";

static void vset(struct diag *d, bool has_off, uint64_t off, const char *fmt,
		 va_list ap)
{
	if (d->set)
		return;
	d->set = true;
	d->has_offset = has_off;
	d->offset = off;
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
}

void diag_set(struct diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vset(d, false, 0, fmt, ap);
	va_end(ap);
}

void diag_set_at(struct diag *d, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vset(d, true, offset, fmt, ap);
	va_end(ap);
}

void diag_clear(struct diag *d)
{
	memset(d, 0, sizeof(*d));
}

void diag_print(const struct diag *d, const char *file)
{
	fprintf(stderr, "%s: ", diag_prog);
	if (file)
		fprintf(stderr, "%s: ", file);
	if (d->has_offset)
		fprintf(stderr, "at offset %#llx: ", (unsigned long long)d->offset);
	fprintf(stderr, "%s\n", d->set ? d->msg : "unknown error");
}

void diag_print_kept(const struct diag *d, const char *file)
{
	fprintf(stderr, "%s: warning: ", diag_prog);
	if (file)
		fprintf(stderr, "%s: ", file);
	if (d->has_offset)
		fprintf(stderr, "at offset %#llx: ", (unsigned long long)d->offset);
	fprintf(stderr, "%s (kept what was read before)\n",
		d->set ? d->msg : "unknown damage");
}

void diag_error(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", diag_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void diag_warn(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: warning: ", diag_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static bool write_reported;

void diag_write_error(const char *name, int err)
{
	if (write_reported)
		return;
	write_reported = true;
	if (!err)
		err = EIO; /* a stream error whose errno was not kept */
	if (name)
		diag_error("%s: write error: %s", name, strerror(err));
	else
		diag_error("error writing output: %s", strerror(err));
}

bool diag_write_reported(void)
{
	return write_reported;
}

void diag_warn_lines(const char *lines)
{
	const char *nl;
	while (lines && (nl = strchr(lines, '\n'))) {
		diag_warn("%.*s", (int)(nl - lines), lines);
		lines = nl + 1;
	}
}
