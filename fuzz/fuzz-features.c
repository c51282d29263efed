/*
 * fuzz-features: libFuzzer entry for the header feature parsers and
 * printers (perfdata/feature, perfdata/filehdr).
 * Stage: fuzz. An input that starts with a perf.data magic is opened as a
 * file (header, attrs, feature table, every feature section) and its
 * header printed with details; any other input is one feature payload:
 * byte 0 picks the feature bit, byte 1 the byte order, the rest is the
 * payload. Invariant under test: no crash, leak or UB on any bytes.
 */
#include "base/strbuf.h"
#include "perfdata/reader.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static void print_all(const struct pd_features *f)
{
	struct strbuf out = SB_INIT;

	for (unsigned bit = 0; bit < PD_FEAT_MAX; bit++)
		pd_feature_format(f, bit, true, &out);
	for (size_t i = 0; i < f->nr_event_desc; i++)
		pd_attr_format(&f->event_desc[i].attr, &out);
	struct pd_build_id b;
	size_t pos = 0;
	while (pd_feature_build_id_next(f, &pos, &b) > 0)
		sb_adds(&out, b.filename);
	sb_release(&out);
}

static void one_file(const uint8_t *data, size_t size)
{
	struct diag d = DIAG_INIT;
	struct pd_reader *r = pd_reader_open_mem(data, size, "fuzz", &d);

	if (!r)
		return;
	print_all(pd_reader_features(r));
	pd_reader_free(r);
}

static void one_feature(const uint8_t *data, size_t size)
{
	struct pd_features f;

	memset(&f, 0, sizeof(f));
	arena_init(&f.mem);
	f.swap = data[1] & 1;
	/* NRCPUS first, as in a file, so topology printing sees a CPU count */
	if (data[1] & 2)
		pd_feature_parse(&f, PD_FEAT_NRCPUS, (const uint8_t *)"\4\0\0\0\4\0\0\0", 8);
	pd_feature_parse(&f, data[0] % PD_FEAT_LAST_KNOWN, data + 2, size - 2);
	print_all(&f);
	pd_features_release(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 8 && (memcmp(data, "PERFILE2", 8) == 0 ||
			  memcmp(data, "2ELIFREP", 8) == 0))
		one_file(data, size);
	else if (size >= 2)
		one_feature(data, size);
	return 0;
}
