/*
 * diag: what went wrong and where, for messages printed by commands.
 * Stage: base. Library code fills a struct diag and returns a negative
 * code; only main.c and cmd/ print. Messages have the shape
 *   scorch fold: perf.data: at offset 0x4f2a0: MMAP2 (10): size 16 below minimum 72
 * diag_prog is the "scorch CMD" prefix, set once by main.
 */
#ifndef SCORCH_BASE_DIAG_H
#define SCORCH_BASE_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

struct diag {
	bool set;
	bool has_offset;
	uint64_t offset;
	char msg[512];
};

#define DIAG_INIT { false, false, 0, { 0 } }

extern const char *diag_prog;

/* Record a message (the first one wins until diag_clear). */
void diag_set(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void diag_set_at(struct diag *d, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_clear(struct diag *d);

/* Print "scorch CMD: [file: ][at offset 0x..: ]msg" to stderr. */
void diag_print(const struct diag *d, const char *file);
/* Print "scorch CMD: warning: [file: ][at offset 0x..: ]msg (kept what was
 * read before)": damage after usable data, the command goes on (exit 0). */
void diag_print_kept(const struct diag *d, const char *file);
/* Print "scorch CMD: " + formatted text + newline to stderr. */
void diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* diag_warn each '\n'-ended line of lines (notes that library code
 * gathered for the command to print); NULL or "": nothing. */
void diag_warn_lines(const char *lines);

/* A write of the command's output failed with errno value err: prints
 * "scorch CMD: error writing output: REASON" (name NULL: standard output)
 * or "scorch CMD: NAME: write error: REASON", once per run: later calls
 * print nothing, so a command and main's last check of standard output
 * never both report the same failure. */
void diag_write_error(const char *name, int err);
/* True once diag_write_error has reported. */
bool diag_write_reported(void);

#endif
