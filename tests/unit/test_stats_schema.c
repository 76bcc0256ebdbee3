/* stats_schema: KVM's binary statistics blob (KVM_GET_STATS_FD,
 * Documentation/virt/kvm/api.rst), built here byte by byte from the layout
 * in <linux/kvm.h>:
 *   struct kvm_stats_header (24 bytes): u32 flags @0, name_size @4,
 *       num_desc @8, id_offset @12, desc_offset @16, data_offset @20.
 *   struct kvm_stats_desc (16 bytes + name_size): u32 flags @0 (type in bits
 *       0-3, unit 4-7, base 8-11), s16 exponent @4, u16 size @6 (count of
 *       u64 values), u32 offset @8 (into the data block), u32 bucket_size
 *       @12, char name[name_size] @16.
 * The descriptors follow each other every 16 + name_size bytes. Every blob
 * and data block is malloc'd at exactly its length, so an ASan build turns
 * any read past it into a failure. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../vmm/stats_schema.h"
#include "suites.h"

/* The blob used throughout: name_size 32, so a descriptor takes
 * 16 + 32 = 48 bytes.
 *   0..23    header
 *   24..55   id string (name_size bytes, as KVM lays it out)
 *   56..247  4 descriptors (56 + 4 * 48 = 248)
 *   248      data_offset: where the data block starts in the fd */
#define NAME_SIZE 32
#define DESC_SIZE (16 + NAME_SIZE)
#define ID_OFFSET 24
#define DESC_OFFSET (ID_OFFSET + NAME_SIZE) /* 56 */
#define NUM_DESC 4
#define BLOB_LEN (DESC_OFFSET + NUM_DESC * DESC_SIZE) /* 248 */

/* Descriptor flags, spelled out from the bit layout (not from the macros):
 *   exits:                type 0 cumulative, unit 0 none,    base 0 pow10
 *   halt_poll_success_ns: type 0 cumulative, unit 2 seconds, base 0 pow10
 *   halt_poll_hist:       type 4 log hist,   unit 2 seconds, base 0 pow10
 *   future_stat:          type 0xF (unknown), unit 1 bytes,  base 1 pow2,
 *                         plus bit 31, which no field owns. */
#define FLAGS_EXITS 0x000u
#define FLAGS_POLL_NS 0x020u
#define FLAGS_HIST 0x024u
#define FLAGS_FUTURE 0x8000011Fu

/* Data block layout (offsets and sizes chosen so that the furthest-reaching
 * field is not the last descriptor):
 *   exits                offset 0,  1 value   -> ends at 8
 *   halt_poll_success_ns offset 8,  1 value   -> ends at 16
 *   halt_poll_hist       offset 32, 32 values -> ends at 32 + 32 * 8 = 288
 *   future_stat          offset 16, 2 values  -> ends at 16 + 2 * 8 = 32
 * so data_size = max(8, 16, 288, 32) = 288. */
#define DATA_SIZE 288

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void put_header(uint8_t *b, uint32_t name_size, uint32_t num_desc, uint32_t desc_offset,
		       uint32_t data_offset)
{
	put32(b + 0, 0); /* flags: always 0 */
	put32(b + 4, name_size);
	put32(b + 8, num_desc);
	put32(b + 12, ID_OFFSET);
	put32(b + 16, desc_offset);
	put32(b + 20, data_offset);
}

static void put_desc(uint8_t *d, uint32_t flags, int16_t exponent, uint16_t size,
		     uint32_t offset, const char *name)
{
	put32(d + 0, flags);
	put16(d + 4, (uint16_t)exponent);
	put16(d + 6, size);
	put32(d + 8, offset);
	put32(d + 12, 0); /* bucket_size: only linear histograms use it */
	memset(d + 16, 0, NAME_SIZE);
	memcpy(d + 16, name, strlen(name)); /* NUL from the memset */
}

static uint8_t *desc_at(uint8_t *b, unsigned i)
{
	return b + DESC_OFFSET + i * DESC_SIZE;
}

/* The 248-byte blob described above, malloc'd at exactly BLOB_LEN. */
static uint8_t *good_blob(void)
{
	uint8_t *b = calloc(1, BLOB_LEN);
	ck_assert_ptr_nonnull(b);
	put_header(b, NAME_SIZE, NUM_DESC, DESC_OFFSET, BLOB_LEN);
	memcpy(b + ID_OFFSET, "kvm-4242/vcpu-0", 16);
	put_desc(desc_at(b, 0), FLAGS_EXITS, 0, 1, 0, "exits");
	put_desc(desc_at(b, 1), FLAGS_POLL_NS, -9, 1, 8, "halt_poll_success_ns");
	put_desc(desc_at(b, 2), FLAGS_HIST, -9, 32, 32, "halt_poll_hist");
	put_desc(desc_at(b, 3), FLAGS_FUTURE, 10, 2, 16, "future_stat");
	return b;
}

/* Copy the first `len` bytes of b into a buffer of exactly `len` bytes. */
static uint8_t *exact_copy(const uint8_t *b, size_t len)
{
	uint8_t *c = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(c);
	memcpy(c, b, len);
	return c;
}

static struct stats_schema s;
static char err[128];

static void setup(void)
{
	memset(&s, 0, sizeof(s));
	memset(err, 0, sizeof(err));
}

static void teardown(void)
{
	stats_schema_free(&s);
}

/* Parse `len` bytes of b from an exact-size copy; frees b. */
static int parse(uint8_t *b, size_t len)
{
	uint8_t *c = exact_copy(b, len);
	free(b);
	int rc = stats_schema_parse(c, len, &s, err, sizeof(err));
	free(c);
	return rc;
}

/* A rejection: -1, a reason, and nothing left allocated. */
static void assert_rejected(uint8_t *b, size_t len)
{
	ck_assert_int_eq(parse(b, len), -1);
	ck_assert_msg(err[0] != '\0', "rejected without a reason");
	ck_assert_ptr_null(s.field);
	ck_assert_uint_eq(s.count, 0);
}

/* --- the good blob -------------------------------------------------- */

START_TEST(test_parse_fields)
{
	ck_assert_int_eq(parse(good_blob(), BLOB_LEN), 0);
	ck_assert_uint_eq(s.count, 4);
	ck_assert_uint_eq(s.data_offset, 248);
	ck_assert_uint_eq(s.data_size, DATA_SIZE);

	const struct stats_field *f = &s.field[0];
	ck_assert_str_eq(f->name, "exits");
	ck_assert_uint_eq(f->type, 0);
	ck_assert_uint_eq(f->unit, 0);
	ck_assert_uint_eq(f->base, 0);
	ck_assert_int_eq(f->exponent, 0);
	ck_assert_uint_eq(f->size, 1);
	ck_assert_uint_eq(f->offset, 0);
	ck_assert(f->known_type);

	f = &s.field[1];
	ck_assert_str_eq(f->name, "halt_poll_success_ns");
	ck_assert_uint_eq(f->type, 0);
	ck_assert_uint_eq(f->unit, 2); /* seconds */
	ck_assert_uint_eq(f->base, 0);
	ck_assert_int_eq(f->exponent, -9); /* s16 0xFFF7, sign kept */
	ck_assert_uint_eq(f->size, 1);
	ck_assert_uint_eq(f->offset, 8);
	ck_assert(f->known_type);

	f = &s.field[2];
	ck_assert_str_eq(f->name, "halt_poll_hist");
	ck_assert_uint_eq(f->type, 4); /* log histogram, the highest known type */
	ck_assert_uint_eq(f->unit, 2);
	ck_assert_uint_eq(f->base, 0);
	ck_assert_int_eq(f->exponent, -9);
	ck_assert_uint_eq(f->size, 32);
	ck_assert_uint_eq(f->offset, 32);
	ck_assert(f->known_type);

	/* 0x8000011F: type = 0xF, unit = (0x11F >> 4) & 0xF = 1,
	 * base = (0x11F >> 8) & 0xF = 1; bit 31 belongs to none of them. */
	f = &s.field[3];
	ck_assert_str_eq(f->name, "future_stat");
	ck_assert_uint_eq(f->type, 0xF);
	ck_assert_uint_eq(f->unit, 1);
	ck_assert_uint_eq(f->base, 1);
	ck_assert_int_eq(f->exponent, 10);
	ck_assert_uint_eq(f->size, 2);
	ck_assert_uint_eq(f->offset, 16);
	ck_assert(!f->known_type); /* unknown, but parsed like the others */
}
END_TEST

START_TEST(test_find)
{
	ck_assert_int_eq(parse(good_blob(), BLOB_LEN), 0);
	ck_assert_ptr_eq(stats_schema_find(&s, "exits"), &s.field[0]);
	ck_assert_ptr_eq(stats_schema_find(&s, "halt_poll_success_ns"), &s.field[1]);
	ck_assert_ptr_eq(stats_schema_find(&s, "halt_poll_hist"), &s.field[2]);
	ck_assert_ptr_eq(stats_schema_find(&s, "future_stat"), &s.field[3]);
	/* Whole names only: no prefixes, no extensions, case matters. */
	ck_assert_ptr_null(stats_schema_find(&s, "halt"));
	ck_assert_ptr_null(stats_schema_find(&s, "exits2"));
	ck_assert_ptr_null(stats_schema_find(&s, "EXITS"));
	ck_assert_ptr_null(stats_schema_find(&s, ""));
	ck_assert_ptr_null(stats_schema_find(&s, "halt_exits"));
}
END_TEST

START_TEST(test_values)
{
	ck_assert_int_eq(parse(good_blob(), BLOB_LEN), 0);
	ck_assert_uint_eq(s.data_size, DATA_SIZE);
	uint8_t *data = calloc(1, DATA_SIZE); /* exactly data_size bytes */
	ck_assert_ptr_nonnull(data);
	put64(data + 0, 12345);                 /* exits */
	put64(data + 8, 5000000000ull);         /* halt_poll_success_ns: 5 s, > 2^32 */
	put64(data + 16, 0x1122334455667788ull); /* future_stat[0] */
	put64(data + 24, 7);                    /* future_stat[1] */
	for (unsigned i = 0; i < 32; i++)       /* halt_poll_hist[i] = 100 + i */
		put64(data + 32 + 8 * i, 100 + i);

	uint64_t v = 0;
	ck_assert(stats_value(&s, stats_schema_find(&s, "exits"), data, &v));
	ck_assert_uint_eq(v, 12345);
	ck_assert(stats_value(&s, stats_schema_find(&s, "halt_poll_success_ns"), data, &v));
	ck_assert_uint_eq(v, 5000000000ull);
	ck_assert(stats_value(&s, stats_schema_find(&s, "future_stat"), data, &v));
	ck_assert_uint_eq(v, 0x1122334455667788ull);
	/* A histogram's value is its first bucket, at its offset (32). */
	ck_assert(stats_value(&s, stats_schema_find(&s, "halt_poll_hist"), data, &v));
	ck_assert_uint_eq(v, 100);
	/* A name the kernel lacks: no field, no value, v untouched. */
	v = 99;
	ck_assert(!stats_value(&s, stats_schema_find(&s, "halt_exits"), data, &v));
	ck_assert_uint_eq(v, 99);
	free(data);
}
END_TEST

START_TEST(test_value_outside_data)
{
	ck_assert_int_eq(parse(good_blob(), BLOB_LEN), 0);
	uint8_t *data = calloc(1, DATA_SIZE);
	ck_assert_ptr_nonnull(data);
	put64(data + DATA_SIZE - 8, 77);
	uint64_t v = 99;
	/* The last whole u64, 280..287: inside. */
	struct stats_field f = { .name = "x", .size = 1, .offset = DATA_SIZE - 8, .known_type = true };
	ck_assert(stats_value(&s, &f, data, &v));
	ck_assert_uint_eq(v, 77);
	/* 284..291 straddles the end (288), 288..295 starts at it, and one
	 * far beyond: all outside, v untouched. */
	v = 99;
	f.offset = DATA_SIZE - 4;
	ck_assert(!stats_value(&s, &f, data, &v));
	f.offset = DATA_SIZE;
	ck_assert(!stats_value(&s, &f, data, &v));
	f.offset = UINT32_MAX;
	ck_assert(!stats_value(&s, &f, data, &v));
	/* A field with no values has none to read. */
	f.offset = 0;
	f.size = 0;
	ck_assert(!stats_value(&s, &f, data, &v));
	ck_assert(!stats_value(&s, NULL, data, &v));
	ck_assert_uint_eq(v, 99);
	free(data);
}
END_TEST

START_TEST(test_name_fills_name_size)
{
	/* 31 characters and the NUL exactly fill name_size 32: accepted. */
	const char *name31 = "abcdefghijklmnopqrstuvwxyz01234";
	ck_assert_uint_eq(strlen(name31), 31);
	uint8_t *b = good_blob();
	put_desc(desc_at(b, 3), FLAGS_EXITS, 0, 1, 0, name31);
	ck_assert_int_eq(parse(b, BLOB_LEN), 0);
	ck_assert_str_eq(s.field[3].name, name31);
	ck_assert_ptr_eq(stats_schema_find(&s, name31), &s.field[3]);
}
END_TEST

START_TEST(test_no_descriptors)
{
	/* num_desc 0: a header alone is a valid, empty schema. */
	uint8_t *b = calloc(1, 24);
	ck_assert_ptr_nonnull(b);
	put_header(b, NAME_SIZE, 0, 24, 24);
	ck_assert_int_eq(parse(b, 24), 0);
	ck_assert_uint_eq(s.count, 0);
	ck_assert_uint_eq(s.data_size, 0);
	ck_assert_ptr_null(stats_schema_find(&s, "exits"));
}
END_TEST

START_TEST(test_values_end_just_below_4g)
{
	/* offset 0xFFFFFFF0, 1 value: ends at 0xFFFFFFF8, within 32 bits. */
	uint8_t *b = good_blob();
	put_desc(desc_at(b, 3), FLAGS_EXITS, 0, 1, 0xFFFFFFF0u, "far");
	ck_assert_int_eq(parse(b, BLOB_LEN), 0);
	ck_assert_uint_eq(s.data_size, 0xFFFFFFF8u);
	ck_assert_uint_eq(s.field[3].offset, 0xFFFFFFF0u);
}
END_TEST

/* --- rejections ----------------------------------------------------- */

START_TEST(test_reject_short_header)
{
	/* The header is 24 bytes: 23 or 0 are not enough. */
	assert_rejected(good_blob(), 23);
	setup();
	assert_rejected(good_blob(), 0);
}
END_TEST

START_TEST(test_reject_descs_past_end)
{
	/* 4 descriptors need 56 + 4 * 48 = 248 bytes: 247 cuts the last name. */
	assert_rejected(good_blob(), BLOB_LEN - 1);
	/* Only the header and one descriptor present: 56 + 48 = 104 bytes. */
	setup();
	assert_rejected(good_blob(), DESC_OFFSET + DESC_SIZE);
	/* desc_offset itself past the blob. */
	setup();
	uint8_t *b = good_blob();
	put_header(b, NAME_SIZE, NUM_DESC, BLOB_LEN + 8, BLOB_LEN);
	assert_rejected(b, BLOB_LEN);
	/* desc_offset near 4 GiB (where 32-bit sums would wrap). */
	setup();
	b = good_blob();
	put_header(b, NAME_SIZE, NUM_DESC, 0xFFFFFFF0u, BLOB_LEN);
	assert_rejected(b, BLOB_LEN);
	/* One descriptor too many claimed: 5 * 48 = 240 > 248 - 56 = 192. */
	setup();
	b = good_blob();
	put_header(b, NAME_SIZE, NUM_DESC + 1, DESC_OFFSET, BLOB_LEN);
	assert_rejected(b, BLOB_LEN);
}
END_TEST

START_TEST(test_reject_unterminated_name)
{
	/* Descriptor 1's name: 32 'x' bytes, no NUL within name_size (the
	 * next descriptor's flags follow straight after). */
	uint8_t *b = good_blob();
	memset(desc_at(b, 1) + 16, 'x', NAME_SIZE);
	assert_rejected(b, BLOB_LEN);
	/* The same in the last descriptor, whose name ends the blob. */
	setup();
	b = good_blob();
	memset(desc_at(b, 3) + 16, 'y', NAME_SIZE);
	assert_rejected(b, BLOB_LEN);
}
END_TEST

START_TEST(test_reject_name_size_zero)
{
	/* name_size 0: no room for even the NUL of a name. */
	uint8_t *b = good_blob();
	put_header(b, 0, NUM_DESC, DESC_OFFSET, BLOB_LEN);
	assert_rejected(b, BLOB_LEN);
}
END_TEST

START_TEST(test_reject_absurd_num_desc)
{
	uint8_t *b = good_blob();
	put_header(b, NAME_SIZE, 0xFFFFFFFFu, DESC_OFFSET, BLOB_LEN);
	assert_rejected(b, BLOB_LEN);
	setup();
	b = good_blob();
	put_header(b, NAME_SIZE, 0x80000000u, DESC_OFFSET, BLOB_LEN);
	assert_rejected(b, BLOB_LEN);
	/* name_size absurd as well (4 GiB - 1 per name). */
	setup();
	b = good_blob();
	put_header(b, 0xFFFFFFFFu, NUM_DESC, DESC_OFFSET, BLOB_LEN);
	assert_rejected(b, BLOB_LEN);
}
END_TEST

START_TEST(test_reject_values_past_4g)
{
	/* offset 0xFFFFFFF8, 1 value: ends at 0x1_0000_0000, which no u32
	 * data_size can hold. */
	uint8_t *b = good_blob();
	put_desc(desc_at(b, 3), FLAGS_EXITS, 0, 1, 0xFFFFFFF8u, "far");
	assert_rejected(b, BLOB_LEN);
	/* offset 0xFFFFFFF8, 0xFFFF values: 0xFFFFFFF8 + 0xFFFF * 8 =
	 * 0x1_0007_FFF0. */
	setup();
	b = good_blob();
	put_desc(desc_at(b, 0), FLAGS_EXITS, 0, 0xFFFF, 0xFFFFFFF8u, "exits");
	assert_rejected(b, BLOB_LEN);
	/* offset 0xFFF80008, 0xFFFF values: 0xFFF80008 + 0x7FFF8 =
	 * 0x1_0000_0000, one byte past the 32-bit range. */
	setup();
	b = good_blob();
	put_desc(desc_at(b, 2), FLAGS_HIST, -9, 0xFFFF, 0xFFF80008u, "halt_poll_hist");
	assert_rejected(b, BLOB_LEN);
}
END_TEST

START_TEST(test_reject_small_err_buffer)
{
	/* A reason longer than the buffer is cut, still NUL-terminated. */
	char small[8];
	memset(small, 'Z', sizeof(small));
	uint8_t *b = exact_copy((const uint8_t *)"short", 5);
	ck_assert_int_eq(stats_schema_parse(b, 5, &s, small, sizeof(small)), -1);
	free(b);
	ck_assert_uint_lt(strlen(small), sizeof(small));
}
END_TEST

START_TEST(test_free_twice)
{
	ck_assert_int_eq(parse(good_blob(), BLOB_LEN), 0);
	stats_schema_free(&s);
	ck_assert_ptr_null(s.field);
	ck_assert_uint_eq(s.count, 0);
	stats_schema_free(&s); /* and the teardown frees a third time */
}
END_TEST

Suite *stats_schema_suite(void)
{
	Suite *su = suite_create("stats_schema");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_parse_fields);
	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_value_outside_data);
	tcase_add_test(tc, test_name_fills_name_size);
	tcase_add_test(tc, test_no_descriptors);
	tcase_add_test(tc, test_values_end_just_below_4g);
	tcase_add_test(tc, test_reject_short_header);
	tcase_add_test(tc, test_reject_descs_past_end);
	tcase_add_test(tc, test_reject_unterminated_name);
	tcase_add_test(tc, test_reject_name_size_zero);
	tcase_add_test(tc, test_reject_absurd_num_desc);
	tcase_add_test(tc, test_reject_values_past_4g);
	tcase_add_test(tc, test_reject_small_err_buffer);
	tcase_add_test(tc, test_free_twice);
	suite_add_tcase(su, tc);
	return su;
}
