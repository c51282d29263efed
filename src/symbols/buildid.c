/*
 * buildid: GNU build-id note reader (see buildid.h).
 * Stage: symbols. Notes are parsed from raw section bytes with a cursor:
 * namesz and descsz are checked against the bytes left before use.
 */
#include "symbols/buildid.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base/cursor.h"
#include "perfdata/record.h"

#define NT_GNU_BUILD_ID_TYPE 3

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int sym_buildid_from_notes(const void *data, size_t len, bool swap,
			   struct sym_buildid *out, struct diag *d)
{
	struct cursor c;
	cur_init(&c, data, len, 0, swap);
	while (c.left >= 12) {
		uint64_t at = c.off;
		uint32_t namesz = cur_u32(&c);
		uint32_t descsz = cur_u32(&c);
		uint32_t type = cur_u32(&c);
		const uint8_t *name = cur_bytes(&c, align4(namesz));
		const uint8_t *desc = cur_bytes(&c, align4(descsz));
		if (!name || !desc || namesz > len || descsz > len) {
			diag_set_at(d, at, "ELF note sizes (name %u, desc %u) run past the section",
				    namesz, descsz);
			return -EINVAL;
		}
		if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 &&
		    memcmp(name, "GNU", 4) == 0 && descsz > 0) {
			out->size = descsz > SYM_BUILDID_MAX ? SYM_BUILDID_MAX
							     : (uint8_t)descsz;
			memset(out->id, 0, sizeof(out->id));
			memcpy(out->id, desc, out->size);
			return 1;
		}
	}
	return 0;
}

static bool elf_swapped(Elf *elf)
{
	size_t n;
	const char *id = elf_getident(elf, &n);
	if (!id || n < EI_NIDENT)
		return false;
	bool le = id[EI_DATA] == ELFDATA2LSB;
	return le != (__BYTE_ORDER == __LITTLE_ENDIAN);
}

static int from_sections(Elf *elf, bool swap, struct sym_buildid *out,
			 struct diag *d)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *data = elf_rawdata(scn, NULL);
		if (!data || !data->d_buf)
			continue;
		int rc = sym_buildid_from_notes(data->d_buf, data->d_size, swap, out, d);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static int from_segments(Elf *elf, bool swap, struct sym_buildid *out,
			 struct diag *d)
{
	size_t nph, fsize;
	char *img = elf_rawfile(elf, &fsize);
	if (elf_getphdrnum(elf, &nph) != 0 || !img)
		return 0;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		if (ph.p_offset > fsize || ph.p_filesz > fsize - ph.p_offset)
			continue;
		int rc = sym_buildid_from_notes(img + ph.p_offset, ph.p_filesz,
						swap, out, d);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int sym_buildid_from_elf(Elf *elf, struct sym_buildid *out, struct diag *d)
{
	bool swap = elf_swapped(elf);
	out->size = 0;
	int rc = from_sections(elf, swap, out, d);
	if (rc == 0)
		rc = from_segments(elf, swap, out, d);
	return rc;
}

int sym_buildid_read(const char *path, struct sym_buildid *out, struct diag *d)
{
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		diag_set(d, "%s", strerror(e));
		return -e;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int rc;
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		diag_set(d, "not an ELF file");
		rc = -EINVAL;
	} else {
		rc = sym_buildid_from_elf(elf, out, d);
	}
	elf_end(elf);
	close(fd);
	return rc;
}

char *sym_buildid_hex(const struct sym_buildid *b, char *buf)
{
	return pd_build_id_hex(b->id, b->size, buf); /* caps at 20 bytes too */
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int sym_buildid_parse(const char *hex, struct sym_buildid *out)
{
	size_t n = strlen(hex);
	if (n == 0 || n % 2 || n > 2 * SYM_BUILDID_MAX)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		out->id[i] = (uint8_t)(hi << 4 | lo);
	}
	out->size = (uint8_t)(n / 2);
	return 0;
}

bool sym_buildid_eq(const struct sym_buildid *a, const struct sym_buildid *b)
{
	return a->size && a->size == b->size && memcmp(a->id, b->id, a->size) == 0;
}
