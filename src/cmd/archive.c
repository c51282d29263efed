/*
 * archive: `perf archive` for scorch: a tar of the build-id cache files a
 * recording needs, so that it symbolizes on another machine
 * (`--buildid-dir perf.data.tar`, or unpacked into ~/.debug).
 * For each object with a build id that a sample touched (any call chain
 * frame, the kernel included), the tar holds the link
 * .build-id/xx/rest -> ../../NAME/ID and the files of NAME/ID (elf,
 * debug, kallsyms, vdso) with their contents, links resolved. An object
 * missing from the cache but found elsewhere (/usr/lib/debug, --symfs,
 * its recorded path) is added as NAME/ID/elf and NAME/ID/debug.
 * Stage: command. Key invariant: only files whose build id matched the
 * recording are packed (the symbol loader checked them).
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(archive, "pack the build-id cache files a perf.data file needs into a tar")

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "cmd/symopts.h"
#include "process/session.h"
#include "symbols/archive.h"
#include "symbols/fs.h"

enum { O_INPUT = 1, O_OUTPUT };

static const struct opt_spec opts[] = {
	{ "input", 'i', OPT_REQ, "FILE", "perf.data file to read (default perf.data)", O_INPUT },
	{ "output", 'o', OPT_REQ, "FILE", "tar to write (default FILE.tar)", O_OUTPUT },
	{ "buildid-dir", 0, OPT_REQ, "DIR", "build-id cache directory (default ~/.debug)", SYMOPT_BUILDID_DIR },
	{ "symfs", 0, OPT_REQ, "DIR", "look for a binary recorded as P at DIR/P first", SYMOPT_SYMFS },
	{ "kallsyms", 0, OPT_REQ, "FILE", "kernel symbols from FILE (packed for the kernel)", SYMOPT_KALLSYMS },
	{ "vmlinux", 'k', OPT_REQ, "FILE", "kernel symbols from this vmlinux ELF file (packed for the kernel)", SYMOPT_VMLINUX },
	{ "vdso", 0, OPT_REQ, "FILE", "the recording kernel's vdso image (packed for [vdso])", SYMOPT_VDSO },
	OPT_END_SPEC
};

static const struct opt_cmd archive_cmd = {
	"archive", "scorch archive [-o OUT.tar] [options] [FILE]",
	"Pack the build-id cache files FILE (default perf.data) needs into a tar.",
	opts, false,
};

static int on_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps)
{
	(void)ctx;
	(void)ses;
	(void)ps;
	return 0; /* resolving the frames marks the dsos hit */
}

/* The name a dso has in the cache: its path without the leading '/'. */
static const char *cache_name(const struct sym_dso *d)
{
	return d->name[0] == '/' ? d->name + 1 : d->name;
}

static int add_dir_files(struct sym_tar_writer *w, const char *dir, const char *prefix)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return -errno;
	struct dirent *e;
	int rc = 0, n = 0;
	while (rc == 0 && (e = readdir(dh)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char *src = sym_fs_join(dir, e->d_name);
		char *real = sym_fs_resolve(src);
		if (real && sym_fs_is_file(real)) {
			struct strbuf name = SB_INIT;
			sb_addf(&name, "%s/%s", prefix, e->d_name);
			rc = sym_tar_add_file(w, name.buf, real);
			sb_release(&name);
			n++;
		}
		free(real);
		free(src);
	}
	closedir(dh);
	return rc ? rc : n;
}

static int add_found(struct sym_tar_writer *w, const struct sym_dso *d, const char *prefix)
{
	int rc = 0, n = 0;
	const char *elf = d->elf_path, *dbg = d->sym_path;
	if (d->kind == SYM_DSO_KERNEL) {
		elf = NULL; /* a kallsyms text, or a vmlinux */
		if (dbg) {
			struct strbuf p = SB_INIT;
			sb_addf(&p, "%s/%s", prefix, d->from_elf ? "elf" : "kallsyms");
			rc = sym_tar_add_file(w, p.buf, dbg);
			sb_release(&p);
			return rc ? rc : 1;
		}
		return 0;
	}
	const char *first = d->kind == SYM_DSO_VDSO ? "vdso" : "elf";
	if (elf) {
		struct strbuf p = SB_INIT;
		sb_addf(&p, "%s/%s", prefix, first);
		rc = sym_tar_add_file(w, p.buf, elf);
		sb_release(&p);
		n++;
	}
	if (rc == 0 && dbg && (!elf || strcmp(elf, dbg) != 0)) {
		struct strbuf p = SB_INIT;
		sb_addf(&p, "%s/%s", prefix, elf ? "debug" : first);
		rc = sym_tar_add_file(w, p.buf, dbg);
		sb_release(&p);
		n++;
	}
	return rc ? rc : n;
}

static int add_dso(struct sym_tar_writer *w, struct sym_dsos *dsos, struct sym_dso *d)
{
	char hex[41];
	sym_buildid_hex(&d->buildid, hex);
	struct strbuf prefix = SB_INIT, link = SB_INIT, target = SB_INIT;
	sb_addf(&prefix, "%s/%s", cache_name(d), hex);
	sb_addf(&link, ".build-id/%.2s/%s", hex, hex + 2);
	sb_addf(&target, "../../%s", prefix.buf);
	char *dir = sym_dsos_cache_dir(dsos, d, NULL);
	int n = dir ? add_dir_files(w, dir, prefix.buf) : 0;
	if (n == 0)
		n = add_found(w, d, prefix.buf);
	if (n > 0 && strlen(target.buf) <= 99)
		n = sym_tar_add_link(w, link.buf, target.buf) < 0 ? -ENAMETOOLONG : n;
	free(dir);
	sb_release(&prefix);
	sb_release(&link);
	sb_release(&target);
	return n;
}

static int write_archive(struct proc_session *ses, const char *out, size_t *count)
{
	FILE *f = fopen(out, "wb");
	if (!f)
		return -errno;
	struct sym_tar_writer w;
	sym_tar_begin(&w, f);
	int rc = 0;
	for (size_t i = 0; rc >= 0 && i < ses->dsos.n; i++) {
		struct sym_dso *d = ses->dsos.v[i];
		if (!d->buildid.size || (!d->hits && d->kind != SYM_DSO_KERNEL))
			continue;
		sym_dsos_load(&ses->dsos, d);
		rc = add_dso(&w, &ses->dsos, d);
		if (rc > 0)
			(*count)++;
	}
	int erc = sym_tar_end(&w);
	if (fclose(f) != 0 && erc == 0)
		erc = -errno;
	return rc < 0 ? rc : erc;
}

int cmd_archive(int argc, char **argv)
{
	struct symopts so;
	memset(&so, 0, sizeof(so));
	const char *input = NULL, *output = NULL;
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	int id;
	while ((id = opt_next(&st, argc, argv, &archive_cmd, &arg)) > 0) {
		switch (id) {
		case O_INPUT: input = arg; break;
		case O_OUTPUT: output = arg; break;
		default: symopts_option(&so, id, arg); break;
		}
	}
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (symopts_operand(&st, argc, argv, &archive_cmd, &input))
		return 2;
	struct strbuf def = SB_INIT;
	if (!output) {
		/* INPUT.tar, beside a file or directory; a pipe (standard
		 * input, a FIFO, <(...)) has no such place: perf.data.tar */
		struct stat st;
		bool beside = strcmp(input, "-") && stat(input, &st) == 0 &&
			      (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
		sb_addf(&def, "%s.tar", beside ? input : "perf.data");
		output = def.buf;
	}
	struct sym_config cfg;
	if (symopts_config(&so, &cfg)) {
		sb_release(&def);
		return 1;
	}
	struct proc_session ses;
	int rc = proc_session_open(&ses, input, &cfg, NULL);
	size_t count = 0;
	if (rc == 0) {
		rc = proc_session_run(&ses, on_sample, NULL);
		if (rc < 0) {
			diag_print(&ses.diag, input);
		} else if (symopts_report_session_dropped(&ses, input)) {
			rc = -1; /* every sample dropped: no hits to pack */
		} else {
			rc = write_archive(&ses, output, &count);
			if (rc < 0)
				diag_error("%s: %s", output, strerror(-rc));
			else
				fprintf(stderr, "Now please run:\n\n$ tar xvf %s -C ~/.debug\n\n"
					"wherever you need to run 'scorch script' (or use --buildid-dir %s); %zu objects packed.\n",
					output, output, count);
		}
	} else {
		diag_print(&ses.diag, input);
	}
	proc_session_close(&ses);
	symopts_release(&so);
	sb_release(&def);
	return rc ? 1 : 0;
}
