/*
 * elf: ELF symbols, build id, debuglink and PT_LOAD segments through
 * libelf (see elf.h). Stage: symbols. Invariant: no section or segment
 * is read before its offset and size were checked against the file.
 */
#include "symbols/elf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>

#include "base/xalloc.h"
#include "symbols/demangle.h"

static int check_sections(struct sym_elf_file *f, struct diag *d)
{
	size_t nsec = 0;
	if (elf_getshdrnum(f->elf, &nsec) != 0) {
		diag_set(d, "bad section header table: %s", elf_errmsg(-1));
		return -EINVAL;
	}
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(f->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh)) {
			diag_set(d, "bad section header: %s", elf_errmsg(-1));
			return -EINVAL;
		}
		if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL)
			continue;
		if (sh.sh_offset > f->file_size ||
		    sh.sh_size > f->file_size - sh.sh_offset) {
			diag_set(d, "section %zu: offset %#llx size %#llx runs past the end of the file (%#llx bytes)",
				 elf_ndxscn(scn), (unsigned long long)sh.sh_offset,
				 (unsigned long long)sh.sh_size,
				 (unsigned long long)f->file_size);
			return -EINVAL;
		}
	}
	return 0;
}

static int read_segments(struct sym_elf_file *f)
{
	size_t nph = 0;
	if (elf_getphdrnum(f->elf, &nph) != 0 || nph == 0)
		return 0;
	f->segs = xcalloc(nph, sizeof(*f->segs));
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		struct sym_segment *s = &f->segs[f->nsegs++];
		s->offset = ph.p_offset;
		s->vaddr = ph.p_vaddr;
		s->filesz = ph.p_filesz;
		s->memsz = ph.p_memsz;
		s->exec = (ph.p_flags & PF_X) != 0;
	}
	return 0;
}

static const char *section_name(Elf *elf, size_t shstrndx, const GElf_Shdr *sh)
{
	const char *n = elf_strptr(elf, shstrndx, sh->sh_name);
	return n ? n : "";
}

Elf_Scn *sym_elf_section(Elf *e, const char *name)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return NULL;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && !strcmp(section_name(e, shstrndx, &sh), name))
			return sh.sh_type == SHT_NOBITS ? NULL : scn;
	}
	return NULL;
}

static void read_debuglink(struct sym_elf_file *f, Elf_Scn *scn)
{
	Elf_Data *data = elf_rawdata(scn, NULL);
	if (!data || !data->d_buf || data->d_size < 2)
		return;
	const char *s = data->d_buf;
	size_t n = strnlen(s, data->d_size);
	if (n == 0 || n == data->d_size || n >= sizeof(f->debuglink))
		return;
	memcpy(f->debuglink, s, n);
	f->debuglink[n] = '\0';
}

static void scan_sections(struct sym_elf_file *f)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(f->elf, &shstrndx) != 0)
		return;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(f->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			f->has_symtab = true;
		else if (sh.sh_type == SHT_DYNSYM)
			f->has_dynsym = true;
		else if (strcmp(section_name(f->elf, shstrndx, &sh), ".gnu_debuglink") == 0)
			read_debuglink(f, scn);
	}
}

static int finish_open(struct sym_elf_file *f, struct diag *d)
{
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		diag_set(d, "not an ELF file");
		return -EINVAL;
	}
	GElf_Ehdr eh;
	if (!gelf_getehdr(f->elf, &eh)) {
		diag_set(d, "bad ELF header: %s", elf_errmsg(-1));
		return -EINVAL;
	}
	f->e_type = eh.e_type;
	int rc = check_sections(f, d);
	if (rc == 0)
		rc = read_segments(f);
	if (rc)
		return rc;
	scan_sections(f);
	struct diag ignore = DIAG_INIT;
	if (sym_buildid_from_elf(f->elf, &f->buildid, &ignore) < 0)
		f->buildid.size = 0;
	return 0;
}

int sym_elf_open(struct sym_elf_file *f, const char *path, struct diag *d)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		diag_set(d, "%s", strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		diag_set(d, "not a regular file");
		return -EISDIR;
	}
	f->fd = fd;
	f->file_size = (uint64_t)st.st_size;
	f->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	f->plain_file = true;
	int rc = finish_open(f, d);
	if (rc)
		sym_elf_close(f);
	return rc;
}

/* Whether the file starts with a gzip, xz or zstd magic. */
static bool compressed_magic(int fd)
{
	uint8_t m[6];
	if (pread(fd, m, sizeof(m), 0) != (ssize_t)sizeof(m))
		return false;
	return (m[0] == 0x1f && m[1] == 0x8b) ||
	       !memcmp(m, "\xfd" "7zXZ\0", 6) ||
	       !memcmp(m, "\x28\xb5\x2f\xfd", 4);
}

int sym_elf_open_any(struct sym_elf_file *f, const char *path, struct diag *d)
{
	int rc = sym_elf_open(f, path, d);
	if (rc != -EINVAL)
		return rc;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !compressed_magic(fd)) {
		if (fd >= 0)
			close(fd);
		return rc; /* not compressed: sym_elf_open's answer stands */
	}
	if ((uint64_t)st.st_size > SYM_ELF_COMPRESSED_MAX) {
		close(fd);
		diag_set(d, "compressed file of %lld bytes, above the %u MB read",
			 (long long)st.st_size, SYM_ELF_COMPRESSED_MAX >> 20);
		return -EFBIG;
	}
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->elf = dwelf_elf_begin(fd);
	size_t size = 0;
	if (f->elf && elf_kind(f->elf) == ELF_K_ELF && elf_rawfile(f->elf, &size))
		f->file_size = size;
	diag_clear(d);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		diag_set(d, "compressed file that libdw does not unpack to an ELF file%s%s",
			 f->elf ? "" : ": ", f->elf ? "" : elf_errmsg(-1));
		rc = -EINVAL;
	} else {
		rc = finish_open(f, d);
	}
	if (rc)
		sym_elf_close(f);
	return rc;
}

int sym_elf_open_mem(struct sym_elf_file *f, const void *data, size_t len,
		     struct diag *d)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	elf_version(EV_CURRENT);
	f->file_size = len;
	f->elf = elf_memory((char *)data, len);
	int rc = finish_open(f, d);
	if (rc)
		sym_elf_close(f);
	return rc;
}

void sym_elf_close(struct sym_elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f->segs);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

static Elf_Scn *find_symtab(Elf *elf, Elf64_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

/* The symbol table to read (.symtab, else .dynsym) into *data and *n
 * entries: 1, 0 when the file has none, -EINVAL (diag) unreadable. */
static int symbols_data(struct sym_elf_file *f, bool prefer_dynsym,
			GElf_Shdr *sh, size_t *n, Elf_Data **data, struct diag *d)
{
	Elf_Scn *scn = NULL;
	if (!prefer_dynsym)
		scn = find_symtab(f->elf, SHT_SYMTAB, sh);
	if (!scn)
		scn = find_symtab(f->elf, SHT_DYNSYM, sh);
	if (!scn)
		return 0;
	*data = elf_getdata(scn, NULL);
	size_t entsize = gelf_fsize(f->elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!*data || entsize == 0 || sh->sh_entsize != entsize) {
		diag_set(d, "symbol table section %zu unreadable (entry size %llu)",
			 elf_ndxscn(scn), (unsigned long long)sh->sh_entsize);
		return -EINVAL;
	}
	*n = (*data)->d_size / entsize;
	return 1;
}

static int bind_of(const GElf_Sym *s)
{
	switch (GELF_ST_BIND(s->st_info)) {
	case STB_GLOBAL: return SYM_BIND_GLOBAL;
	case STB_WEAK: return SYM_BIND_WEAK;
	default: return SYM_BIND_LOCAL;
	}
}

/* perf's filter: functions, plus labels in text sections. */
static bool wanted(Elf *elf, size_t shstrndx, const GElf_Sym *s)
{
	int type = GELF_ST_TYPE(s->st_info);
	if (s->st_name == 0 || s->st_shndx == SHN_UNDEF ||
	    s->st_shndx >= SHN_LORESERVE)
		return false;
	bool func = type == STT_FUNC || type == STT_GNU_IFUNC;
	if (!func && type != STT_NOTYPE)
		return false;
	Elf_Scn *sec = elf_getscn(elf, s->st_shndx);
	GElf_Shdr sh;
	if (!sec || !gelf_getshdr(sec, &sh))
		return false;
	return func || strstr(section_name(elf, shstrndx, &sh), "text") != NULL;
}

static bool is_object(const GElf_Sym *s)
{
	return GELF_ST_TYPE(s->st_info) == STT_OBJECT && s->st_name != 0 &&
	       s->st_shndx != SHN_UNDEF && s->st_shndx < SHN_LORESERVE;
}

/* The string table of section link, in place: read-only from the file
 * and owned by t (sym_table_keep_map), its size in *size. NULL when the
 * file is not plain (decompressed, in memory), the section is no string
 * table within the file, its last byte is not NUL, or mmap fails: names
 * are then copied from libelf's view. */
static const char *map_strings(struct sym_elf_file *f, size_t link,
			       struct sym_table *t, uint64_t *size)
{
	GElf_Shdr sh;
	Elf_Scn *scn = f->plain_file ? elf_getscn(f->elf, link) : NULL;
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB ||
	    sh.sh_size == 0 || sh.sh_offset > f->file_size ||
	    sh.sh_size > f->file_size - sh.sh_offset || sh.sh_size > SIZE_MAX / 2)
		return NULL;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t off = sh.sh_offset & ~(page - 1);
	size_t len = (size_t)(sh.sh_offset + sh.sh_size - off);
	void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, f->fd, (off_t)off);
	if (p == MAP_FAILED)
		return NULL;
	const char *str = (const char *)p + (sh.sh_offset - off);
	if (str[sh.sh_size - 1] != '\0') {
		munmap(p, len);
		return NULL;
	}
	sym_table_keep_map(t, p, len);
	*size = sh.sh_size;
	return str;
}

/* Symbol s's name: in the mapped string table str (size bytes) when
 * there is one, else libelf's; NULL when out of range. */
static const char *name_of(struct sym_elf_file *f, const GElf_Shdr *sh,
			   const char *str, uint64_t size, const GElf_Sym *s)
{
	if (!str)
		return elf_strptr(f->elf, sh->sh_link, s->st_name);
	return s->st_name < size ? str + s->st_name : NULL;
}

/* Add name to t: kept in place when it is in the mapped table (str),
 * else copied. */
static struct sym_entry *add_named(struct sym_table *t, const char *str,
				   const GElf_Sym *s, const char *name)
{
	if (str)
		return sym_table_add_kept(t, s->st_value, s->st_size,
					  bind_of(s), name);
	return sym_table_add(t, s->st_value, s->st_size, bind_of(s), name,
			     strlen(name));
}

/* Whether s lies in an SHF_ALLOC section (named only, when not NULL). */
static bool in_kernel_section(Elf *elf, size_t shstrndx, const GElf_Sym *s,
			      const char *only)
{
	GElf_Shdr sh;
	Elf_Scn *sec = elf_getscn(elf, s->st_shndx);
	if (!sec || !gelf_getshdr(sec, &sh) || !(sh.sh_flags & SHF_ALLOC))
		return false;
	return !only || strcmp(section_name(elf, shstrndx, &sh), only) == 0;
}

/* What one walk over the symbol table keeps, beyond perf's filter
 * (wanted): user space (objects, names marked mangled) or kernel. */
struct symbol_filter {
	bool prefer_dynsym;        /* .dynsym even when there is a .symtab */
	struct sym_table *objs;    /* STT_OBJECT symbols go here, or NULL */
	bool kernel;               /* only SHF_ALLOC sections; names left alone */
	const char *only_section;  /* kernel: only this section, or NULL */
};

/* The one symbol walk: every symbol the filter keeps into t (objects
 * into sf->objs). Returns the number added to t, 0 without a symbol
 * table, or -EINVAL (diag). */
static int load_symbols(struct sym_elf_file *f, struct sym_table *t,
			const struct symbol_filter *sf, struct diag *d)
{
	GElf_Shdr sh;
	size_t n = 0, shstrndx = 0;
	Elf_Data *data = NULL;
	int rc = symbols_data(f, sf->prefer_dynsym, &sh, &n, &data, d);
	if (rc <= 0)
		return rc;
	elf_getshdrstrndx(f->elf, &shstrndx);
	uint64_t strsize = 0;
	const char *str = map_strings(f, sh.sh_link, t, &strsize);
	int added = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(data, (int)i, &s))
			continue;
		if (sf->objs && is_object(&s)) {
			/* objs's names may point into t's mapping: t outlives objs */
			const char *oname = name_of(f, &sh, str, strsize, &s);
			if (oname && *oname)
				add_named(sf->objs, str, &s, oname)->seq = (uint32_t)t->n;
			continue;
		}
		if (!wanted(f->elf, shstrndx, &s) || (sf->kernel &&
		    !in_kernel_section(f->elf, shstrndx, &s, sf->only_section)))
			continue;
		const char *name = name_of(f, &sh, str, strsize, &s);
		if (!name || !*name)
			continue;
		struct sym_entry *e = add_named(t, str, &s, name);
		if (!sf->kernel) /* demangled when found (sym_entry_demangle) */
			e->mangled = name[0] == '_';
		added++;
	}
	return added;
}

int sym_elf_load(struct sym_elf_file *f, struct sym_table *t,
		 bool prefer_dynsym, struct diag *d)
{
	int rc = sym_elf_load_objects(f, t, NULL, prefer_dynsym, d);
	sym_table_demangle_all(t);
	return rc;
}

int sym_elf_load_objects(struct sym_elf_file *f, struct sym_table *t,
			 struct sym_table *objs, bool prefer_dynsym,
			 struct diag *d)
{
	struct symbol_filter sf = { .prefer_dynsym = prefer_dynsym, .objs = objs };
	return load_symbols(f, t, &sf, d);
}

int sym_elf_load_kernel(struct sym_elf_file *f, struct sym_table *t,
			const char *only_section, struct diag *d)
{
	struct symbol_filter sf = { .kernel = true, .only_section = only_section };
	return load_symbols(f, t, &sf, d);
}

int sym_elf_symbol_value(struct sym_elf_file *f, const char *name,
			 uint64_t *value)
{
	GElf_Shdr sh;
	size_t n = 0;
	struct diag d = DIAG_INIT;
	Elf_Data *data = NULL;
	if (symbols_data(f, false, &sh, &n, &data, &d) <= 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		const char *sn;
		if (gelf_getsym(data, (int)i, &s) && s.st_name &&
		    (sn = elf_strptr(f->elf, sh.sh_link, s.st_name)) && !strcmp(sn, name)) {
			*value = s.st_value;
			return 1;
		}
	}
	return 0;
}

static Elf_Scn *section_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, sh) && strcmp(section_name(elf, shstrndx, sh), name) == 0)
			return scn;
	return NULL;
}

static void add_plt(struct sym_table *t, uint64_t addr, uint64_t size, const char *name)
{
	char *dm = sym_demangle(name);
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "%s@plt", dm ? dm : name);
	free(dm);
	if (n > 0)
		sym_table_add(t, addr, size, SYM_BIND_GLOBAL, buf,
			      (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

int sym_elf_load_plt(struct sym_elf_file *f, struct sym_table *t, struct diag *d)
{
	GElf_Shdr rel, plt, dyn;
	Elf_Scn *rs = section_named(f->elf, ".rela.plt", &rel);
	if (!rs)
		rs = section_named(f->elf, ".rel.plt", &rel);
	Elf_Scn *ds = find_symtab(f->elf, SHT_DYNSYM, &dyn);
	if (!rs || !ds || !section_named(f->elf, ".plt", &plt) ||
	    rel.sh_link != elf_ndxscn(ds) || plt.sh_entsize == 0 ||
	    (rel.sh_type != SHT_RELA && rel.sh_type != SHT_REL))
		return 0;
	Elf_Data *rd = elf_getdata(rs, NULL), *sd = elf_getdata(ds, NULL);
	if (!rd || !sd) {
		diag_set(d, ".plt relocations unreadable");
		return -EINVAL;
	}
	bool rela = rel.sh_type == SHT_RELA;
	size_t ent = gelf_fsize(f->elf, rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
	size_t n = ent ? rd->d_size / ent : 0;
	uint64_t addr = plt.sh_addr + plt.sh_entsize;
	int added = 0;
	for (size_t i = 0; i < n; i++, addr += plt.sh_entsize) {
		uint64_t info;
		GElf_Rela ra;
		GElf_Rel r;
		if (rela ? !gelf_getrela(rd, (int)i, &ra) : !gelf_getrel(rd, (int)i, &r))
			break;
		info = rela ? ra.r_info : r.r_info;
		GElf_Sym sym;
		if (!gelf_getsym(sd, (int)GELF_R_SYM(info), &sym))
			continue;
		const char *name = elf_strptr(f->elf, dyn.sh_link, sym.st_name);
		add_plt(t, addr, plt.sh_entsize, name ? name : "");
		added++;
	}
	return added;
}

uint64_t sym_segments_to_vaddr(const struct sym_segment *segs, size_t n,
			       uint64_t offset)
{
	for (size_t i = 0; i < n; i++) {
		const struct sym_segment *s = &segs[i];
		if (offset >= s->offset && offset - s->offset < s->filesz)
			return offset - s->offset + s->vaddr;
	}
	/* Fall back to the first executable segment's bias. */
	for (size_t i = 0; i < n; i++)
		if (segs[i].exec)
			return offset - segs[i].offset + segs[i].vaddr;
	return offset;
}
