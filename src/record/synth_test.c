/*
 * synth_test: parsing /proc/modules lines for the module MMAPs.
 * Stage: record (unit tests).
 */
#include "record/record.h"
#include "unit.h"

UNIT_TEST(record_module_line)
{
	char name[64];
	uint64_t addr = 0, len = 0;
	int r = rec_module_line("xfs 2191360 1 - Live 0xffffffffc0a00000\n",
				name, sizeof(name), &addr, &len);
	CHECK(r == 0 && strcmp(name, "xfs") == 0);
	CHECK(addr == 0xffffffffc0a00000ULL && len == 2191360);
	r = rec_module_line("nf_tables 364544 5 nft_ct,nft_chain_nat, Live 0xffffffffc1200000 (E)\n",
			    name, sizeof(name), &addr, &len);
	CHECK(r == 0 && strcmp(name, "nf_tables") == 0 && addr == 0xffffffffc1200000ULL);
	/* kptr_restrict hides the address: no map */
	CHECK(rec_module_line("xfs 2191360 1 - Live 0x0000000000000000\n",
			      name, sizeof(name), &addr, &len) < 0);
	CHECK(rec_module_line("garbage\n", name, sizeof(name), &addr, &len) < 0);
}

UNIT_TEST(record_module_name)
{
	char name[64];
	const char *dep = "kernel/net/netfilter/nf-tables.ko.xz: kernel/lib/x.ko";
	rec_module_name(dep, strcspn(dep, ":"), name, sizeof(name));
	CHECK(strcmp(name, "nf_tables") == 0);
	rec_module_name("/lib/modules/6.1/kernel/fs/xfs/xfs.ko", 37, name, sizeof(name));
	CHECK(strcmp(name, "xfs") == 0);
	rec_module_name("[snd-hda]", 9, name, sizeof(name));
	CHECK(strcmp(name, "snd_hda") == 0);
}
