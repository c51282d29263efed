/*
 * symopts: symbol source options and sample filters shared by the
 * perf.data commands (see symopts.h). Stage: command helpers.
 */
#include "cmd/symopts.h"

#include "cmd/fold_perfdata.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "symbols/archive.h"
#include "symbols/fs.h"

/* A file named by --kallsyms, --vmlinux or --vdso that is not there is a typo, not
 * "no symbols": say so (exit 1) instead of printing hex addresses. */
static int named_file_exists(const char *option, const char *path)
{
	if (!path)
		return 1;
	char *real = sym_fs_resolve(path);
	if (!real) {
		diag_error("--%s %s: no such file", option, path);
		return 0;
	}
	free(real);
	return 1;
}

/* --buildid-dir names an archive: a file, or a pipe that is not a
 * directory (a FIFO, <(...)). Unpacked into so->tmpdir; 0 or 1 after a
 * message. */
static int unpack_archive(struct symopts *so, const char *path)
{
	struct diag d = DIAG_INIT;
	char name[64];
	FILE *copy = NULL;
	if (!sym_fs_is_file(path)) {
		copy = sym_fs_copy_pipe(path, name, sizeof(name));
		if (!copy) {
			diag_error("%s: %s", path, strerror(errno));
			return 1;
		}
	}
	so->tmpdir = sym_archive_unpack(copy ? name : path, &d);
	if (copy)
		fclose(copy);
	if (!so->tmpdir) {
		diag_print(&d, path);
		return 1;
	}
	return 0;
}

int symopts_config(struct symopts *so, struct sym_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	if (!named_file_exists("kallsyms", so->kallsyms) ||
	    !named_file_exists("vmlinux", so->vmlinux) ||
	    !named_file_exists("vdso", so->vdso))
		return 1;
	const char *dir = so->buildid_dir;
	struct stat st;
	if (dir && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		if (unpack_archive(so, dir))
			return 1;
		dir = so->tmpdir;
	}
	dir = sym_fs_buildid_dir(dir, &so->home_debug);
	if (dir)
		cfg->buildid_dirs[cfg->nr_buildid_dirs++] = dir;
	cfg->symfs = so->symfs;
	cfg->kallsyms = so->kallsyms;
	cfg->vmlinux = so->vmlinux;
	cfg->vdso = so->vdso;
	if (so->vdso && !sym_fs_is_file(so->vdso)) {
		/* an ELF image is read with seeks: a pipe's is copied first */
		so->vdso_copy = sym_fs_copy_pipe(so->vdso, so->vdso_name, sizeof(so->vdso_name));
		if (!so->vdso_copy) {
			diag_error("--vdso %s: %s", so->vdso, strerror(errno));
			symopts_release(so); /* the unpacked archive, if any */
			return 1;
		}
		cfg->vdso = so->vdso_name;
	}
	cfg->jit_dir = so->jit_dir;
	return 0;
}

void symopts_release(struct symopts *so)
{
	if (so->tmpdir)
		sym_archive_remove_tree(so->tmpdir);
	free(so->tmpdir);
	free(so->home_debug);
	if (so->vdso_copy)
		fclose(so->vdso_copy);
	so->vdso_copy = NULL;
	so->tmpdir = so->home_debug = NULL;
}

bool symopts_option(struct symopts *so, int id, const char *arg)
{
	switch (id) {
	case SYMOPT_BUILDID_DIR: so->buildid_dir = arg; break;
	case SYMOPT_SYMFS: so->symfs = arg; break;
	case SYMOPT_KALLSYMS: so->kallsyms = arg; break;
	case SYMOPT_VMLINUX: so->vmlinux = arg; break;
	case SYMOPT_VDSO: so->vdso = arg; break;
	case SYMOPT_JIT_DIR: so->jit_dir = arg; break;
	case SYMOPT_TIME: so->time = arg; break;
	case SYMOPT_CPU: so->cpu = arg; break;
	case SYMOPT_COMM: so->comm = arg; break;
	case SYMOPT_EVENT: so->event = arg; break;
	default: return false;
	}
	return true;
}

int symopts_operand(struct opt_state *st, int argc, char **argv,
		    const struct opt_cmd *cmd, const char **input)
{
	if (st->ind < argc)
		*input = argv[st->ind++];
	if (st->ind < argc)
		return opt_usage_error(cmd, "too many operands");
	if (!*input)
		*input = "perf.data";
	return 0;
}

int symopts_report_dropped(const struct pd_dropped *dr, const char *path)
{
	if (!dr->n)
		return 0;
	bool all = dr->n >= dr->total;
	struct strbuf sb = SB_INIT;
	sb_addf(&sb, "%s: %" PRIu64 " of %" PRIu64 " samples dropped as malformed "
		"(first at offset %#" PRIx64 ": %s)", path, dr->n, dr->total,
		dr->first_offset, dr->why);
	if (all)
		diag_error("%s", sb.buf);
	else
		diag_warn("%s", sb.buf);
	sb_release(&sb);
	return all;
}

int symopts_report_warnings(struct proc_session *ses, const char *path)
{
	struct sym_dsos *d = &ses->dsos;
	if (d->nr_warnings) {
		const char *p = d->warnings.buf;
		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			diag_warn("%.*s", (int)len, p);
			p += len + (nl != NULL);
		}
	}
	struct strbuf names = SB_INIT;
	const char *first = NULL;
	size_t n = sym_dsos_missing(d, &names, &first);
	if (n == 1)
		diag_warn("%s: no binary for %s (gone, or rebuilt since the "
			  "recording): its frames show as [%s]", path, names.buf, first);
	else if (n)
		diag_warn("%s: no binary for %s (gone, or rebuilt since the "
			  "recording): their frames show as [name]", path, names.buf);
	sb_release(&names);
	const struct diag *dmg = proc_session_damage(ses);
	if (dmg)
		diag_print_kept(dmg, path);
	return symopts_report_session_dropped(ses, path);
}

int symopts_report_session_dropped(struct proc_session *ses, const char *path)
{
	struct pd_dropped dr;
	pd_reader_dropped(ses->reader, &dr);
	return symopts_report_dropped(&dr, path);
}

int symopts_report_run(struct proc_session *ses, int rc, const char *path)
{
	if (rc >= 0)
		return symopts_report_warnings(ses, path);
	diag_print(&ses->diag, path);
	return 0;
}

int symopts_report_filtered_run(struct proc_session *ses, int rc,
				const struct prof_filter *f, const char *path)
{
	int all_dropped = symopts_report_run(ses, rc, path);
	if (rc >= 0)
		symopts_report_filter(f, path);
	return all_dropped;
}

int symopts_filter(struct prof_filter *f, const char *time, const char *cpu,
		   const char *comm, const char *event)
{
	struct diag d = DIAG_INIT;
	if (prof_filter_init(f, time, cpu, comm, event, &d) < 0) {
		diag_print(&d, NULL);
		return 2;
	}
	return 0;
}

void symopts_report_filter(const struct prof_filter *f, const char *path)
{
	struct strbuf sb = SB_INIT;
	if (prof_filter_note(f, path, &sb))
		diag_warn("%s", sb.buf);
	sb_release(&sb);
}

int symopts_run_unwound(struct proc_session *ses, enum unw_inline mode,
			proc_sample_fn fn, void *ctx, const char *path)
{
	struct strbuf uw = SB_INIT;
	int rc = unw_perf_run(ses, mode, fn, ctx, &uw);
	if (uw.len && rc >= 0)
		diag_warn("%s: %s", path, uw.buf);
	sb_release(&uw);
	return rc;
}

void symopts_to_fold(const struct symopts *so, struct fold_perfdata_opts *f)
{
	f->buildid_dir = so->buildid_dir;
	f->symfs = so->symfs;
	f->kallsyms = so->kallsyms;
	f->vmlinux = so->vmlinux;
	f->vdso = so->vdso;
	f->jit_dir = so->jit_dir;
	f->time = so->time;
	f->cpu = so->cpu;
	f->comm = so->comm;
	f->event = so->event;
}
