/*
 * archive: tar reading (into a private directory) and writing for
 * build-id cache archives (see archive.h). Stage: symbols. Invariant:
 * nothing is created outside the new directory: names are validated and
 * links become link-as-text files.
 */
#include "symbols/archive.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "symbols/fs.h"

/* ---- input streams: plain, zstd, external decompressor ---- */

struct in {
	FILE *f;
	bool popen;
	ZSTD_DCtx *z;
	uint8_t *zbuf;
	ZSTD_inBuffer zin;
	bool zeof;
};

static size_t in_read_raw(struct in *in, void *buf, size_t n)
{
	return fread(buf, 1, n, in->f);
}

static size_t in_read(struct in *in, void *buf, size_t n)
{
	if (!in->z)
		return in_read_raw(in, buf, n);
	ZSTD_outBuffer out = { buf, n, 0 };
	while (out.pos < out.size) {
		if (in->zin.pos == in->zin.size) {
			if (in->zeof)
				break;
			size_t got = in_read_raw(in, in->zbuf, ZSTD_DStreamInSize());
			if (got == 0) {
				in->zeof = true;
				break;
			}
			in->zin.src = in->zbuf;
			in->zin.size = got;
			in->zin.pos = 0;
		}
		size_t rc = ZSTD_decompressStream(in->z, &out, &in->zin);
		if (ZSTD_isError(rc))
			break;
	}
	return out.pos;
}

static const char *decompressor(const uint8_t *m, size_t n)
{
	if (n >= 3 && m[0] == 'B' && m[1] == 'Z' && m[2] == 'h')
		return "bzip2 -dc";
	if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b)
		return "gzip -dc";
	if (n >= 6 && memcmp(m, "\xfd" "7zXZ", 6) == 0)
		return "xz -dc";
	return NULL;
}

static char *shell_quote(const char *s)
{
	struct strbuf sb = SB_INIT;
	sb_addc(&sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			sb_adds(&sb, "'\\''");
		else
			sb_addc(&sb, *s);
	}
	sb_addc(&sb, '\'');
	return sb_detach(&sb, NULL);
}

static int in_open(struct in *in, const char *path, struct diag *d)
{
	memset(in, 0, sizeof(*in));
	in->f = fopen(path, "rb");
	if (!in->f) {
		int e = errno;
		diag_set(d, "%s", strerror(e));
		return -e;
	}
	uint8_t m[8] = { 0 };
	size_t n = fread(m, 1, sizeof(m), in->f);
	rewind(in->f);
	if (n >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) {
		in->z = ZSTD_createDCtx();
		in->zbuf = xmalloc(ZSTD_DStreamInSize());
		return 0;
	}
	const char *cmd = decompressor(m, n);
	if (cmd) {
		fclose(in->f);
		char *q = shell_quote(path);
		struct strbuf sb = SB_INIT;
		sb_addf(&sb, "%s < %s", cmd, q);
		free(q);
		in->f = popen(sb.buf, "r");
		sb_release(&sb);
		in->popen = true;
		if (!in->f) {
			diag_set(d, "cannot run '%s'", cmd);
			return -EIO;
		}
	}
	return 0;
}

static void in_close(struct in *in)
{
	if (in->f)
		in->popen ? pclose(in->f) : fclose(in->f);
	if (in->z)
		ZSTD_freeDCtx(in->z);
	free(in->zbuf);
	memset(in, 0, sizeof(*in));
}

/* ---- tar reading ---- */

static int octal(const char *p, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	while (i < n && (p[i] == ' ' || p[i] == '\0'))
		i++;
	bool any = false;
	for (; i < n && p[i] >= '0' && p[i] <= '7'; i++) {
		if (v >> 60)
			return -1;
		v = v << 3 | (uint64_t)(p[i] - '0');
		any = true;
	}
	for (; i < n; i++)
		if (p[i] != ' ' && p[i] != '\0')
			return -1;
	*out = any ? v : 0;
	return 0;
}

static bool safe_name(const char *name)
{
	if (!*name || name[0] == '/')
		return false;
	const char *p = name;
	while (*p) {
		const char *s = strchr(p, '/');
		size_t len = s ? (size_t)(s - p) : strlen(p);
		if (len == 2 && p[0] == '.' && p[1] == '.')
			return false;
		p += len;
		while (*p == '/')
			p++;
	}
	return true;
}

static int mkdirs(const char *root, const char *rel, bool last_is_dir)
{
	char *path = sym_fs_join(root, rel);
	size_t rootlen = strlen(root);
	for (char *p = path + rootlen + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST) {
			free(path);
			return -errno;
		}
		*p = '/';
	}
	int rc = 0;
	if (last_is_dir && mkdir(path, 0700) != 0 && errno != EEXIST)
		rc = -errno;
	free(path);
	return rc;
}

static int write_file(struct in *in, const char *root, const char *rel,
		      uint64_t size, const char *text)
{
	int rc = mkdirs(root, rel, false);
	if (rc)
		return rc;
	char *path = sym_fs_join(root, rel);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	free(path);
	if (fd < 0)
		return -errno;
	if (text) {
		size_t n = strlen(text);
		rc = write(fd, text, n) == (ssize_t)n ? 0 : -EIO;
	}
	char buf[65536];
	while (!text && size > 0 && rc == 0) {
		size_t want = size > sizeof(buf) ? sizeof(buf) : (size_t)size;
		size_t got = in_read(in, buf, want);
		if (got != want)
			rc = -EPIPE;
		else if (write(fd, buf, got) != (ssize_t)got)
			rc = -EIO;
		size -= got;
	}
	close(fd);
	return rc;
}

static int skip_bytes(struct in *in, uint64_t n)
{
	char buf[4096];
	while (n > 0) {
		size_t want = n > sizeof(buf) ? sizeof(buf) : (size_t)n;
		if (in_read(in, buf, want) != want)
			return -EPIPE;
		n -= want;
	}
	return 0;
}

static char *read_long(struct in *in, uint64_t size)
{
	if (size == 0 || size > 65536)
		return NULL;
	uint64_t padded = (size + 511) & ~(uint64_t)511;
	char *s = xmalloc((size_t)padded + 1);
	if (in_read(in, s, (size_t)padded) != padded) {
		free(s);
		return NULL;
	}
	s[size] = '\0';
	return s;
}

static int unpack(struct in *in, const char *root, struct diag *d)
{
	char h[512];
	uint64_t off = 0;
	char *longname = NULL, *longlink = NULL;
	int rc = 0, entries = 0;
	while (rc == 0) {
		size_t got = in_read(in, h, 512);
		if (got == 0 && entries > 0)
			break;
		if (got != 512) {
			diag_set_at(d, off, "truncated tar header");
			rc = -EINVAL;
			break;
		}
		static const char zero[512];
		if (memcmp(h, zero, 512) == 0)
			break;
		uint64_t size;
		if (octal(h + 124, 12, &size) < 0 || size > (1ull << 36)) {
			diag_set_at(d, off, "tar header with a bad size field");
			rc = -EINVAL;
			break;
		}
		char type = h[156];
		uint64_t padded = (size + 511) & ~(uint64_t)511;
		off += 512;
		if (type == 'L' || type == 'K') {
			char *s = read_long(in, size);
			if (!s) {
				diag_set_at(d, off, "bad GNU long name");
				rc = -EINVAL;
				break;
			}
			free(type == 'L' ? longname : longlink);
			*(type == 'L' ? &longname : &longlink) = s;
			off += padded;
			continue;
		}
		char name[512], link[256];
		if (longname) {
			snprintf(name, sizeof(name), "%s", longname);
		} else if (memcmp(h + 257, "ustar", 5) == 0 && h[345]) {
			snprintf(name, sizeof(name), "%.155s/%.100s", h + 345, h);
		} else {
			snprintf(name, sizeof(name), "%.100s", h);
		}
		snprintf(link, sizeof(link), "%s", longlink ? longlink : "");
		if (!longlink)
			snprintf(link, sizeof(link), "%.100s", h + 157);
		free(longname);
		free(longlink);
		longname = longlink = NULL;
		size_t nl = strlen(name);
		while (nl > 0 && name[nl - 1] == '/')
			name[--nl] = '\0';
		const char *rel = name;
		while (rel[0] == '.' && rel[1] == '/')
			rel += 2;
		entries++;
		if (!safe_name(rel) && strcmp(rel, ".") != 0) {
			diag_set_at(d, off - 512, "unsafe name '%s' in tar", name);
			rc = -EINVAL;
			break;
		}
		if (strcmp(rel, ".") == 0 || type == '5') {
			rc = strcmp(rel, ".") ? mkdirs(root, rel, true) : 0;
			rc = rc ? rc : skip_bytes(in, padded);
		} else if (type == '0' || type == '\0' || type == '7') {
			rc = write_file(in, root, rel, size, NULL);
			rc = rc ? rc : skip_bytes(in, padded - size);
		} else if (type == '2') {
			rc = write_file(in, root, rel, 0, link);
			rc = rc ? rc : skip_bytes(in, padded);
		} else {
			rc = skip_bytes(in, padded);
		}
		if (rc && !d->set)
			diag_set_at(d, off - 512, "tar entry '%s': %s", name, strerror(-rc));
		off += padded;
	}
	free(longname);
	free(longlink);
	return rc;
}

char *sym_archive_unpack(const char *path, struct diag *d)
{
	struct in in;
	if (in_open(&in, path, d) < 0)
		return NULL;
	const char *tmp = getenv("TMPDIR");
	char *dir = sym_fs_join(tmp && *tmp ? tmp : "/tmp", "scorch-buildid-XXXXXX");
	if (!mkdtemp(dir)) {
		diag_set(d, "cannot create a temporary directory: %s", strerror(errno));
		free(dir);
		in_close(&in);
		return NULL;
	}
	int rc = unpack(&in, dir, d);
	in_close(&in);
	if (rc) {
		sym_archive_remove_tree(dir);
		free(dir);
		return NULL;
	}
	return dir;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

void sym_archive_remove_tree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- tar writing ---- */

void sym_tar_begin(struct sym_tar_writer *w, FILE *f)
{
	w->f = f;
	w->err = 0;
}

static void put(struct sym_tar_writer *w, const void *p, size_t n)
{
	if (!w->err && fwrite(p, 1, n, w->f) != n)
		w->err = errno ? errno : EIO;
}

static void header(struct sym_tar_writer *w, const char *name, char type,
		   uint64_t size, const char *link, unsigned mode)
{
	size_t nl = strlen(name);
	if (nl > 99) {
		header(w, "././@LongLink", 'L', nl + 1, NULL, 0644);
		put(w, name, nl + 1);
		static const char zero[512];
		put(w, zero, (512 - (nl + 1) % 512) % 512);
	}
	char h[512];
	memset(h, 0, sizeof(h));
	memcpy(h, name, nl > 99 ? 99 : nl);
	snprintf(h + 100, 8, "%07o", mode);
	snprintf(h + 108, 8, "%07o", 0);
	snprintf(h + 116, 8, "%07o", 0);
	snprintf(h + 124, 12, "%011llo", (unsigned long long)size);
	snprintf(h + 136, 12, "%011o", 0);
	h[156] = type;
	if (link)
		memcpy(h + 157, link, strlen(link) > 99 ? 99 : strlen(link));
	memcpy(h + 257, "ustar  ", 8);
	memset(h + 148, ' ', 8);
	unsigned sum = 0;
	for (int i = 0; i < 512; i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);
	h[155] = ' ';
	put(w, h, 512);
}

int sym_tar_add_file(struct sym_tar_writer *w, const char *name, const char *src)
{
	int fd = open(src, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return -e;
	}
	header(w, name, '0', (uint64_t)st.st_size, NULL, 0644);
	uint64_t left = (uint64_t)st.st_size;
	char buf[65536];
	while (left > 0 && !w->err) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n <= 0) {
			w->err = EIO;
			break;
		}
		put(w, buf, (size_t)n);
		left -= (uint64_t)n;
	}
	close(fd);
	static const char zero[512];
	put(w, zero, (512 - st.st_size % 512) % 512);
	return -w->err;
}

int sym_tar_add_link(struct sym_tar_writer *w, const char *name, const char *target)
{
	if (strlen(target) > 99)
		return -ENAMETOOLONG;
	header(w, name, '2', 0, target, 0777);
	return -w->err;
}

int sym_tar_end(struct sym_tar_writer *w)
{
	static const char zero[1024];
	put(w, zero, sizeof(zero));
	if (!w->err && fflush(w->f) != 0)
		w->err = errno;
	return -w->err;
}
