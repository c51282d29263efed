/*
 * fuzz-unwind: the DWARF CFI unwinder over damaged registers and stacks.
 * Stage: fuzz. Two input shapes:
 *  - a perf.data image ("PERFILE2"; the corpus dwarf recording is the
 *    seed): every sample with user regs and a stack copy is unwound;
 *  - anything else, read as: flags byte (bit 0 aarch64, bit 1 big-endian
 *    stack, bits 2-7 which mapping the pc is in), pc offset in it (u64),
 *    valid-register mask (u32), 32 register values (u64, DWARF
 *    numbering), then the stack copy.
 * Code is "mapped" at the addresses of the corpus dwarf recording, backed
 * by the case's build-id cache files (under $SHARED), so real CFI is
 * replayed over wild sp/ip values, loops and truncated copies. Invariant
 * checked: no crash, the frame count never exceeds the cap.
 */
#include "base/cursor.h"
#include "perfdata/reader.h"
#include "symbols/fs.h"
#include "unwind/dwarf.h"
#include "unwind/sample.h"
#include "unwind/regs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CASE "/corpus/dwarf/buildid/"
#define MAX_FRAMES 64

struct fake_map {
	uint64_t start, len, pgoff;
	const char *rel;
	char path[512];
};

static struct fake_map maps[] = {
	{ 0x56446f8e4000, 0x1000, 0x1000, CASE "tmp/mkcorpus.TLgv/work_nofp/"
	  "989fb780e649c895b78740862027683e16b1442e/elf", "" },
	{ 0x7f769e30e000, 0x156000, 0x26000, CASE "usr/lib/x86_64-linux-gnu/"
	  "libc.so.6/93ac61ec5a8eb1396f9fbd350e3169a558528a40/elf", "" },
	{ 0x7f769e4dd000, 0x2000, 0, CASE "[vdso]/"
	  "e025128345ce65b719dab776555f2b64ee0204a1/vdso", "" },
	{ 0x400000, 0x1000, 0, "/nonexistent/static-binary", "" },
};
#define NMAPS (sizeof(maps) / sizeof(maps[0]))

static struct unw_session *session;

static void setup(void)
{
	const char *shared = getenv("SHARED");
	if (!shared)
		shared = "../shared";
	for (size_t i = 0; i < NMAPS; i++) {
		snprintf(maps[i].path, sizeof(maps[i].path), "%s%s",
			 maps[i].rel[0] == '/' && maps[i].rel[1] == 'c' ? shared : "",
			 maps[i].rel);
		/* the corpus keeps links as link-as-text files */
		char *real = sym_fs_resolve(maps[i].path);
		if (real)
			snprintf(maps[i].path, sizeof(maps[i].path), "%s", real);
		free(real);
	}
	session = unw_session_new();
}

static int find(void *ctx, uint64_t addr, struct unw_module *m)
{
	for (size_t i = 0; i < NMAPS; i++) {
		if (addr - maps[i].start < maps[i].len) {
			m->path = maps[i].path;
			m->debug_path = NULL;
			m->start = maps[i].start;
			m->end = maps[i].start + maps[i].len;
			m->pgoff = maps[i].pgoff;
			return 0;
		}
	}
	return -1;
}

static void run(const struct unw_sample *smp)
{
	uint64_t ips[MAX_FRAMES];
	struct unw_result res;
	size_t n = unw_dwarf_unwind(session, smp, find, NULL, ips, MAX_FRAMES, &res);
	if (n > MAX_FRAMES || res.n != n || res.fp_from > n)
		abort();
}

static void run_raw(const uint8_t *data, size_t size)
{
	struct cursor c;
	struct unw_sample smp;
	cur_init(&c, data, size, 0, false);
	memset(&smp, 0, sizeof(smp));
	uint8_t flags = cur_u8(&c);
	smp.arch = flags & 1 ? UNW_ARCH_AARCH64 : UNW_ARCH_X86_64;
	smp.big_endian = flags & 2;
	/* pc: an offset into one of the mapped files, so CFI is found */
	const struct fake_map *m = &maps[(flags >> 2) % NMAPS];
	smp.regs.pc = m->start + cur_u64(&c) % m->len;
	smp.regs.has_pc = true;
	smp.regs.valid = cur_u32(&c);
	for (int i = 0; i < 32; i++)
		smp.regs.r[i] = cur_u64(&c);
	if (c.err)
		return;
	smp.stack = c.p;
	smp.stack_size = c.left;
	run(&smp);
}

static int on_sample(void *ctx, const struct pd_sample *s)
{
	struct unw_sample smp;
	if (unw_sample_from_perf(s, UNW_ARCH_X86_64, false, &smp))
		run(&smp);
	return 0;
}

static void run_perfdata(const uint8_t *data, size_t size)
{
	struct diag d = DIAG_INIT;
	struct pd_reader *r = pd_reader_open_mem(data, size, "fuzz", &d);
	if (!r)
		return;
	struct pd_handlers h = { .on_sample = on_sample };
	pd_reader_run(r, &h);
	pd_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!session)
		setup();
	if (size >= 8 && memcmp(data, "PERFILE2", 8) == 0)
		run_perfdata(data, size);
	else
		run_raw(data, size);
	return 0;
}
