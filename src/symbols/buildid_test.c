/* Unit tests for symbols/buildid: note parsing, hex round trip. */
#include "symbols/buildid.h"
#include "unit.h"

#include <string.h>

UNIT_TEST(buildid_notes)
{
	uint8_t buf[64] = { 0 };
	uint32_t hdr[3] = { 4, 8, 3 };
	memcpy(buf, hdr, 12);
	memcpy(buf + 12, "GNU", 4);
	memcpy(buf + 16, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	struct sym_buildid b;
	struct diag d = DIAG_INIT;
	CHECK(sym_buildid_from_notes(buf, 24, false, &b, &d) == 1);
	char hex[41];
	CHECK_EQ_STR(sym_buildid_hex(&b, hex), "0102030405060708");
	struct sym_buildid p;
	CHECK(sym_buildid_parse("0102030405060708", &p) == 0 && sym_buildid_eq(&p, &b));
	CHECK(sym_buildid_parse("0g", &p) < 0);
}

UNIT_TEST(buildid_notes_lying)
{
	uint8_t buf[32] = { 0 };
	uint32_t hdr[3] = { 4, 0x7fffffff, 3 };
	memcpy(buf, hdr, 12);
	memcpy(buf + 12, "GNU", 4);
	struct sym_buildid b;
	struct diag d = DIAG_INIT;
	CHECK(sym_buildid_from_notes(buf, sizeof(buf), false, &b, &d) < 0 && d.set);
}
