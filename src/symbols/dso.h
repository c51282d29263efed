/*
 * dso: the shared objects a recording mapped, their symbol sources and
 * lazily loaded symbol tables.
 * Stage: symbols. A struct sym_dso is one recorded name (a path,
 * "[kernel.kallsyms]", "[vdso]", "/tmp/perf-PID.map", ...) plus the
 * build id recorded for it. Its table is loaded on the first lookup,
 * once, from the first source that exists and matches the build id:
 *   user:   --symfs/P, the build-id caches (elf, debug), /usr/lib/debug
 *           /.build-id/xx/rest.debug, P itself, then .gnu_debuglink
 *           files (beside P, P's dir/.debug, /usr/lib/debug/P's dir);
 *   kernel: --kallsyms, else --vmlinux (alone, as perf), else the
 *           cache's .build-id/xx/rest/elf and perf's vmlinux paths
 *           (vmlinux, /boot/vmlinux, /boot/vmlinux-R, /usr/lib/debug/
 *           boot/vmlinux-R, /lib/modules/R/build/vmlinux, /usr/lib/debug/
 *           lib/modules/R/vmlinux, /usr/lib/debug/boot/vmlinux-R.debug;
 *           R the recording's release; with --symfs only SYMFS/vmlinux
 *           and /boot/vmlinux, as perf), each
 *           only when its build id matches the recorded one (if any);
 *           then cache [kernel.kallsyms]/<id>/kallsyms, then
 *           /proc/kallsyms when the running kernel's build id matches.
 *           A vmlinux's symbols move by the KASLR offset: the recorded
 *           address of the kernel map's reference symbol (its pgoff, the
 *           "_text" of "[kernel.kallsyms]_text") minus its value there;
 *           its sections with symbols become the kernel's maps, as in
 *           perf (sym_dso_kernel_section);
 *   module: the .ko whose build id matches the recorded one: the
 *           cache's .build-id/xx/rest/elf (or <cache>/<path>/<id>/elf),
 *           the recorded path (under
 *           --symfs when given), then a file NAME.ko ('-' or '_'; .gz,
 *           .xz, .zst unpacked) under [symfs]/lib/modules/R; as perf,
 *           only .text symbols, placed
 *           at the module map's start. Without one, kallsyms names the
 *           module's addresses (the kernel dso's table);
 *   vdso:   --vdso, cache [vdso]/<id>/vdso;
 *   JIT:    <jit dir>/perf-PID.map.
 * PLT entries get perf's synthesized "name@plt" symbols. Inside .plt,
 * and wherever the regular symbol found overlaps .plt (a zero-size one
 * stretched to the next, such as _init), the name is perf's: a replay of
 * its symbol rb-tree decides (rbt.h), built on the first such lookup;
 * it may be name@plt, _init or nothing ([unknown], as perf 6.1 shows
 * IBT .plt.sec stubs).
 * A source that is not a valid ELF (lies about its sizes, ...) is
 * skipped with one warning. Lookups go through a small address cache.
 * Addresses given to sym_dsos_find are "map addresses" as perf prints
 * them: the file offset for ELF DSOs, the address itself for the
 * kernel, JIT maps and anonymous memory.
 * Ownership: dsos, names and symbols belong to the struct sym_dsos and
 * live until sym_dsos_release.
 */
#ifndef SCORCH_SYMBOLS_DSO_H
#define SCORCH_SYMBOLS_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "symbols/buildid.h"
#include "symbols/elf.h"
#include "symbols/rbt.h"
#include "symbols/table.h"

enum sym_dso_kind {
	SYM_DSO_USER,      /* an ELF file at a path */
	SYM_DSO_KERNEL,    /* [kernel.kallsyms] */
	SYM_DSO_MODULE,    /* [module] or a .ko path */
	SYM_DSO_VDSO,      /* [vdso] */
	SYM_DSO_JIT,       /* /tmp/perf-PID.map */
	SYM_DSO_NONE,      /* [heap], [stack], //anon without exec: no symbols */
};

struct sym_config {
	const char *buildid_dirs[8]; /* searched in order */
	size_t nr_buildid_dirs;
	const char *symfs;           /* NULL: none */
	const char *kallsyms;        /* --kallsyms FILE */
	const char *vmlinux;         /* --vmlinux FILE */
	const char *vdso;            /* --vdso FILE */
	const char *jit_dir;         /* default "/tmp" */
	const char *debug_dir;       /* default "/usr/lib/debug" */
	bool no_proc_kallsyms;       /* never use /proc/kallsyms */
};

struct sym_dso {
	const char *name;            /* as recorded */
	const char *short_name;      /* perf's short name (basename; a perf
				      * map's is "[JIT] tid PID") */
	enum sym_dso_kind kind;
	int pid;                     /* JIT maps */
	struct sym_buildid buildid;  /* recorded; size 0 when none */
	bool loaded;
	struct sym_table table;
	struct sym_table plt;        /* "name@plt" (see above) */
	struct sym_table objects;    /* data objects, only to build perf's
				      * tree (released once it is built) */
	struct sym_rbt_spans plt_spans; /* perf's tree's answers where it
				      * decides, kept at the first PLT lookup */
	bool plt_tree_built;
	struct sym_segment *segs;    /* PT_LOAD of the runtime file */
	size_t nsegs;
	char *elf_path;              /* runtime ELF found (for unwinding) */
	char *sym_path;              /* file the symbols came from */
	uint64_t hits;               /* samples that hit it (for tools) */
	uint64_t ref_text;           /* kernel: _text at recording time (the
				      * kernel MMAP's pgoff), 0 unknown; kallsyms
				      * of another boot (KASLR) are shifted to it */
	const char *ref_name;        /* kernel: the symbol ref_text is of
				      * ("_text" or "_stext"), NULL unknown */
	const char *path;            /* module: the .ko path recorded, or NULL */
	uint64_t module_base;        /* module: its map's start (.text there) */
	bool from_elf;               /* kernel, module: symbols from an ELF
				      * file (vmlinux, .ko), not kallsyms */
	struct sym_ksection *ksecs;  /* kernel from a vmlinux: its sections
				      * (see sym_dso_kernel_section) */
	size_t nksecs;
	size_t id;
	bool missing_named;          /* a caller already warned it is missing */
};

/* A section of a vmlinux that holds symbols, where the recording's
 * kernel had it (KASLR-shifted): perf maps each such section apart once
 * it read a vmlinux, .text as "[kernel.kallsyms]" and the others as
 * "[kernel.kallsyms]<section>" dsos (dso: NULL for .text). */
struct sym_ksection {
	uint64_t start, end;
	struct sym_dso *dso;
};

/* The last symbol found per (dso, address) hash: 64k slots (1.5 MB) keep
 * 92% of the 2.4M lookups of a 150 s system-wide recording (4k: 81%). */
struct sym_cache_slot {
	const struct sym_dso *dso;
	uint64_t addr;
	const struct sym_entry *sym;
};

#define SYM_CACHE_SLOTS 65536

struct sym_dsos {
	struct sym_config cfg;
	struct hmap by_name;         /* name -> index in v */
	struct sym_dso **v;
	size_t n, cap;
	struct arena mem;
	struct strbuf warnings;      /* one line per skipped source */
	size_t nr_warnings;
	bool kallsyms_warned;        /* cfg.kallsyms held no symbol: said once */
	const char *release;         /* recording's kernel release (arena) */
	struct strbuf module_index;  /* "[mod]\tPATH\n" of the .ko files under
				      * [symfs]/lib/modules/<release> */
	bool module_index_built;
	struct sym_cache_slot *cache;
	uint64_t lookups, cache_hits;
};

void sym_dsos_init(struct sym_dsos *s, const struct sym_config *cfg);
void sym_dsos_release(struct sym_dsos *s);
/* The dso of that name, created on first use (kind guessed from the
 * name: brackets, perf-PID.map, paths). Never NULL. */
struct sym_dso *sym_dsos_findnew(struct sym_dsos *s, const char *name);
/* Whether a recorded name is a kernel module's file, as perf decides:
 * a base name ending in .ko, or .ko plus .gz, .xz or .zst. */
bool sym_module_path(const char *name);
/* The dso of the kernel module recorded as name: a .ko path (see above;
 * its dso is "[mod]", the base name without suffixes, '-' as '_', and
 * remembers the path) or "[mod]". named_by_path: name the dso by the
 * path from now on, as perf does for a module the BUILD_ID feature names.
 * Never NULL. */
struct sym_dso *sym_dsos_findnew_module(struct sym_dsos *s, const char *name,
					bool named_by_path);
/* The recording's kernel release (OSRELEASE), copied; NULL or "": the
 * running kernel's, as perf. */
void sym_dsos_set_release(struct sym_dsos *s, const char *release);
/* Record the build id (BUILD_ID feature/record or MMAP2). */
void sym_dso_set_buildid(struct sym_dso *d, const uint8_t *id, size_t size);
/* Load now (normally done by the first lookup). */
void sym_dsos_load(struct sym_dsos *s, struct sym_dso *d);
/* Symbol at a map address (see above), or NULL. */
const struct sym_entry *sym_dsos_find(struct sym_dsos *s, struct sym_dso *d,
				      uint64_t map_addr);
/* Names of the user binaries looked up (loaded) but found nowhere, nor
 * already named by a caller (missing_named), comma-separated into
 * names, and their count; *first_short: the first one's short name
 * (its frames show as "[short name]"). */
size_t sym_dsos_missing(const struct sym_dsos *s, struct strbuf *names,
			const char **first_short);
/* Build-id cache directory holding d's files, when one exists
 * (<cache>/<name>/<hex>), malloc'd; NULL otherwise. For archive. */
char *sym_dsos_cache_dir(struct sym_dsos *s, const struct sym_dso *d,
			 size_t *which_cache);
/* Whether GNU addr2line names a function at file address vaddr of the
 * loaded user dso d where none of perf's symbols holds it: BFD takes the
 * nearest function below it in its section, past that one's size too
 * (libgcc_s's __udivmodti4 for an address after its end); the section
 * is taken as vaddr's executable segment. */
bool sym_dso_a2l_names(const struct sym_dso *d, uint64_t vaddr);
/* The kernel dso d (loaded) is from a vmlinux: whether addr lies in one
 * of its sections, as perf's maps then say; *shown gets the dso to
 * name the frame by (d for .text). True, with *shown = d, when d has no
 * sections (kallsyms). */
bool sym_dso_kernel_section(struct sym_dso *d, uint64_t addr,
			    struct sym_dso **shown);
/* Note a skipped source ("PATH: why, skipped"), for the loaders; the
 * same line twice is noted once. */
void sym_dsos_warn(struct sym_dsos *s, const char *path, const struct diag *d);
/* Build id of the running kernel (/sys/kernel/notes); 1 found. */
int sym_running_kernel_buildid(struct sym_buildid *out);

#endif
