/*
 * dsos: which mapped files got samples, for the BUILD_ID feature.
 * Stage: record. (Placeholder until the map tracker lands: records no
 * hits, so the BUILD_ID feature is empty.)
 */
#include "record/record.h"
#include "base/xalloc.h"

#include <stdlib.h>

struct rec_dsos {
	int unused;
};

struct rec_dsos *rec_dsos_new(void)
{
	return xcalloc(1, sizeof(struct rec_dsos));
}

void rec_dsos_free(struct rec_dsos *ds)
{
	free(ds);
}

void rec_dsos_record(struct rec_dsos *ds, const uint8_t *rec, size_t len,
		     uint64_t sample_type)
{
	(void)ds; (void)rec; (void)len; (void)sample_type;
}

void rec_dsos_buildids(struct rec_dsos *ds, struct strbuf *out, bool cache)
{
	(void)ds; (void)out; (void)cache;
}
