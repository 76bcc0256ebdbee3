/* control_protocol: one JSON object per line, QMP-like (see
 * control_protocol.h), driven through fake ops that count their calls.
 * Replies are parsed back with json-c and checked by structure, never by
 * byte-for-byte comparison (key order is not part of the protocol). Every
 * line is handed over in a buffer of exactly its length with no NUL after
 * it, as control.c does, so an ASan build catches a read past the line. */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../vmm/control_protocol.h"
#include "suites.h"

struct fake {
	unsigned pause_calls, resume_calls, paused_calls, vcpus_calls, quit_calls, stats_calls;
	bool paused;
	unsigned vcpus;
	int pause_rc, resume_rc;
	bool have_stats; /* stats returns a new object, or NULL */
};

static struct fake fk;

static int fake_pause(void *opaque)
{
	struct fake *f = opaque;
	f->pause_calls++;
	if (f->pause_rc == 0)
		f->paused = true;
	return f->pause_rc;
}

static int fake_resume(void *opaque)
{
	struct fake *f = opaque;
	f->resume_calls++;
	if (f->resume_rc == 0)
		f->paused = false;
	return f->resume_rc;
}

static bool fake_paused(void *opaque)
{
	struct fake *f = opaque;
	f->paused_calls++;
	return f->paused;
}

static unsigned fake_vcpus(void *opaque)
{
	struct fake *f = opaque;
	f->vcpus_calls++;
	return f->vcpus;
}

static void fake_quit(void *opaque)
{
	struct fake *f = opaque;
	f->quit_calls++;
}

/* {"interval_s": 1.5, "counters": {"exits": {"total": 42}}}, new each
 * call: the reply takes it over (as it does stats_report_json's). */
static void *fake_stats(void *opaque)
{
	struct fake *f = opaque;
	f->stats_calls++;
	if (!f->have_stats)
		return NULL;
	json_object *exits = json_object_new_object();
	json_object_object_add(exits, "total", json_object_new_int(42));
	json_object *counters = json_object_new_object();
	json_object_object_add(counters, "exits", exits);
	json_object *doc = json_object_new_object();
	json_object_object_add(doc, "interval_s", json_object_new_double(1.5));
	json_object_object_add(doc, "counters", counters);
	return doc;
}

static struct control_ops ops;
static char last_line[64]; /* the start of the line sent last, for messages */

static void setup(void)
{
	memset(&fk, 0, sizeof(fk));
	fk.vcpus = 2;
	fk.have_stats = true;
	ops = (struct control_ops){
		.pause = fake_pause,
		.resume = fake_resume,
		.paused = fake_paused,
		.vcpus = fake_vcpus,
		.quit = fake_quit,
		.stats = fake_stats,
		.opaque = &fk,
	};
}

/* Hand `len` bytes of `text` over in an exact-size buffer; parse the reply,
 * which must be one JSON object of one member (plain text, no newline). */
static json_object *send_n(const char *text, size_t len)
{
	snprintf(last_line, sizeof(last_line), "%.*s", (int)(len < 60 ? len : 60), text);
	char *line = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(line);
	memcpy(line, text, len);
	char *reply = control_handle_line(&ops, line, len);
	free(line);
	ck_assert_ptr_nonnull(reply);
	ck_assert_msg(strchr(reply, '\n') == NULL, "reply has a newline: %s", reply);
	json_object *r = json_tokener_parse(reply);
	ck_assert_msg(r != NULL, "reply is not JSON: %s", reply);
	ck_assert_msg(json_object_is_type(r, json_type_object), "reply not an object: %s", reply);
	ck_assert_msg(json_object_object_length(r) == 1, "reply has %d members: %s",
		      json_object_object_length(r), reply);
	free(reply);
	return r;
}

static json_object *send_line(const char *text)
{
	return send_n(text, strlen(text));
}

/* {"return": X}: X, which stays owned by r. */
static json_object *returned(json_object *r)
{
	json_object *v = NULL;
	ck_assert_msg(json_object_object_get_ex(r, "return", &v), "not a return: %s",
		      json_object_to_json_string(r));
	return v;
}

static void assert_return_empty(json_object *r)
{
	json_object *v = returned(r);
	ck_assert(json_object_is_type(v, json_type_object));
	ck_assert_int_eq(json_object_object_length(v), 0);
	json_object_put(r);
}

/* {"error": {"class": class (or any non-empty string if NULL), "desc": ".."}} */
static void assert_error(json_object *r, const char *class)
{
	json_object *e = NULL, *c = NULL, *d = NULL;
	ck_assert_msg(json_object_object_get_ex(r, "error", &e), "line '%s': not an error: %s",
		      last_line, json_object_to_json_string(r));
	ck_assert(json_object_is_type(e, json_type_object));
	ck_assert_int_eq(json_object_object_length(e), 2);
	ck_assert(json_object_object_get_ex(e, "class", &c));
	ck_assert(json_object_is_type(c, json_type_string));
	ck_assert(json_object_object_get_ex(e, "desc", &d));
	ck_assert(json_object_is_type(d, json_type_string));
	ck_assert_uint_gt(strlen(json_object_get_string(d)), 0);
	if (class)
		ck_assert_str_eq(json_object_get_string(c), class);
	else
		ck_assert_uint_gt(strlen(json_object_get_string(c)), 0);
	json_object_put(r);
}

/* No callback at all: the line never reached the VM. */
static void assert_no_op_called(void)
{
	ck_assert_uint_eq(fk.pause_calls, 0);
	ck_assert_uint_eq(fk.resume_calls, 0);
	ck_assert_uint_eq(fk.paused_calls, 0);
	ck_assert_uint_eq(fk.vcpus_calls, 0);
	ck_assert_uint_eq(fk.quit_calls, 0);
	ck_assert_uint_eq(fk.stats_calls, 0);
}

/* None of the callbacks that act on the VM. */
static void assert_no_action(void)
{
	ck_assert_uint_eq(fk.pause_calls, 0);
	ck_assert_uint_eq(fk.resume_calls, 0);
	ck_assert_uint_eq(fk.quit_calls, 0);
}

static void assert_status(const char *line, const char *status, int vcpus)
{
	json_object *r = send_line(line);
	json_object *v = returned(r), *s = NULL, *n = NULL;
	ck_assert(json_object_is_type(v, json_type_object));
	ck_assert_int_eq(json_object_object_length(v), 2);
	ck_assert(json_object_object_get_ex(v, "status", &s));
	ck_assert(json_object_is_type(s, json_type_string));
	ck_assert_str_eq(json_object_get_string(s), status);
	ck_assert(json_object_object_get_ex(v, "vcpus", &n));
	ck_assert(json_object_is_type(n, json_type_int));
	ck_assert_int_eq(json_object_get_int(n), vcpus);
	json_object_put(r);
}

/* --- commands ------------------------------------------------------- */

START_TEST(test_status)
{
	assert_status("{\"execute\":\"status\"}", "running", 2);
	fk.paused = true;
	fk.vcpus = 7;
	assert_status("{\"execute\":\"status\"}", "paused", 7);
	/* Whitespace inside the object, as JSON allows. */
	assert_status("{ \"execute\" : \"status\" }", "paused", 7);
	assert_no_action();
	ck_assert_uint_eq(fk.stats_calls, 0);
}
END_TEST

START_TEST(test_pause)
{
	assert_return_empty(send_line("{\"execute\":\"pause\"}"));
	ck_assert_uint_eq(fk.pause_calls, 1);
	ck_assert(fk.paused);
	assert_status("{\"execute\":\"status\"}", "paused", 2);
	/* Again, while paused: an error, and pause is not called a second time. */
	assert_error(send_line("{\"execute\":\"pause\"}"), NULL);
	ck_assert_uint_eq(fk.pause_calls, 1);
	ck_assert_uint_eq(fk.resume_calls, 0);
	ck_assert_uint_eq(fk.quit_calls, 0);
}
END_TEST

START_TEST(test_resume)
{
	/* Running: nothing to resume, resume not called. */
	assert_error(send_line("{\"execute\":\"resume\"}"), NULL);
	ck_assert_uint_eq(fk.resume_calls, 0);
	fk.paused = true;
	assert_return_empty(send_line("{\"execute\":\"resume\"}"));
	ck_assert_uint_eq(fk.resume_calls, 1);
	ck_assert(!fk.paused);
	/* Once more, now running again: refused, still one call. */
	assert_error(send_line("{\"execute\":\"resume\"}"), NULL);
	ck_assert_uint_eq(fk.resume_calls, 1);
	ck_assert_uint_eq(fk.pause_calls, 0);
	ck_assert_uint_eq(fk.quit_calls, 0);
}
END_TEST

START_TEST(test_pause_resume_fail)
{
	/* The op itself fails (-EIO): the client hears an error, not {}. */
	fk.pause_rc = -EIO;
	assert_error(send_line("{\"execute\":\"pause\"}"), NULL);
	ck_assert_uint_eq(fk.pause_calls, 1);
	fk.paused = true;
	fk.resume_rc = -EIO;
	assert_error(send_line("{\"execute\":\"resume\"}"), NULL);
	ck_assert_uint_eq(fk.resume_calls, 1);
}
END_TEST

START_TEST(test_quit)
{
	assert_return_empty(send_line("{\"execute\":\"quit\"}"));
	ck_assert_uint_eq(fk.quit_calls, 1);
	ck_assert_uint_eq(fk.pause_calls, 0);
	ck_assert_uint_eq(fk.resume_calls, 0);
	ck_assert_uint_eq(fk.stats_calls, 0);
}
END_TEST

START_TEST(test_stats)
{
	json_object *r = send_line("{\"execute\":\"stats\"}");
	ck_assert_uint_eq(fk.stats_calls, 1);
	/* The return value is the object fake_stats built, unchanged. */
	json_object *v = returned(r), *x = NULL, *c = NULL, *e = NULL, *t = NULL;
	ck_assert(json_object_is_type(v, json_type_object));
	ck_assert_int_eq(json_object_object_length(v), 2);
	ck_assert(json_object_object_get_ex(v, "interval_s", &x));
	ck_assert_double_eq(json_object_get_double(x), 1.5);
	ck_assert(json_object_object_get_ex(v, "counters", &c));
	ck_assert(json_object_object_get_ex(c, "exits", &e));
	ck_assert(json_object_object_get_ex(e, "total", &t));
	ck_assert_int_eq(json_object_get_int(t), 42);
	json_object_put(r);
	assert_no_action();
}
END_TEST

START_TEST(test_stats_unavailable)
{
	fk.have_stats = false;
	assert_error(send_line("{\"execute\":\"stats\"}"), NULL);
	ck_assert_uint_eq(fk.stats_calls, 1);
	assert_no_action();
}
END_TEST

START_TEST(test_unknown_command)
{
	static const char *const lines[] = {
		"{\"execute\":\"reboot\"}",
		"{\"execute\":\"\"}",
		"{\"execute\":\"Quit\"}",  /* names are case-sensitive */
		"{\"execute\":\"quit \"}", /* and exact */
		"{\"execute\":\"pause-now\"}",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_error(send_line(lines[i]), "CommandNotFound");
	assert_no_op_called();
}
END_TEST

/* --- lines that are not a request ----------------------------------- */

START_TEST(test_malformed)
{
	static const char *const lines[] = {
		"",
		"   ",
		"quit",
		"{\"execute\":",
		"{\"execute\":\"quit\"",  /* unterminated object */
		"{\"execute\":\"quit}",   /* unterminated string */
		"{execute:\"quit\"}",     /* unquoted key */
		"{\"execute\" \"quit\"}",  /* no colon */
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_error(send_line(lines[i]), NULL);
	assert_no_op_called();
}
END_TEST

START_TEST(test_not_json)
{
	/* Lines a lenient parser might take for objects, but which are not
	 * JSON (RFC 8259): a trailing comma, a single-quoted string, a
	 * comment. The protocol speaks JSON, so each is an error, and the quit
	 * inside must not run. */
	static const char *const lines[] = {
		"{\"execute\":\"quit\",}",
		"{\"execute\":'quit'}",
		"{\"execute\":\"quit\" /* comment */}",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_error(send_line(lines[i]), NULL);
	assert_no_op_called();
}
END_TEST

START_TEST(test_trailing_garbage)
{
	/* A complete request followed by anything but blanks is refused
	 * whole: the request must not run. */
	static const char *const lines[] = {
		"{\"execute\":\"quit\"} x",
		"{\"execute\":\"quit\"}x",
		"{\"execute\":\"quit\"}{\"execute\":\"quit\"}",
		"{\"execute\":\"quit\"} {\"execute\":\"pause\"}",
		"{\"execute\":\"quit\"}}",
		"{\"execute\":\"quit\"} 1",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_error(send_line(lines[i]), NULL);
	assert_no_op_called();
}
END_TEST

START_TEST(test_trailing_nul)
{
	/* A NUL byte after the object is not JSON whitespace (RFC 8259: space,
	 * tab, LF, CR) but garbage, like any other byte: refused. */
	static const char line[] = "{\"execute\":\"quit\"}\0";
	assert_error(send_n(line, sizeof(line) - 1), NULL); /* 19 bytes, the last NUL */
	static const char line2[] = "{\"execute\":\"quit\"} \0 ";
	assert_error(send_n(line2, sizeof(line2) - 1), NULL);
	assert_no_op_called();
}
END_TEST

START_TEST(test_not_an_object)
{
	static const char *const lines[] = {
		"[{\"execute\":\"quit\"}]",
		"[]",
		"\"quit\"",
		"null",
		"true",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_error(send_line(lines[i]), NULL);
	assert_no_op_called();
}
END_TEST

START_TEST(test_bad_execute)
{
	static const char *const lines[] = {
		"{}",
		"{\"exec\":\"quit\"}",
		"{\"Execute\":\"quit\"}",
		"{\"execute\":1}",
		"{\"execute\":null}",
		"{\"execute\":true}",
		"{\"execute\":[\"quit\"]}",
		"{\"execute\":{\"quit\":1}}",
		"{\"arguments\":{\"execute\":\"quit\"}}",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		json_object *r = send_line(lines[i]);
		/* Not a missing command name's "not found": a malformed request. */
		json_object *e = NULL, *c = NULL;
		ck_assert(json_object_object_get_ex(r, "error", &e));
		ck_assert(json_object_object_get_ex(e, "class", &c));
		ck_assert_str_ne(json_object_get_string(c), "CommandNotFound");
		assert_error(r, NULL);
	}
	assert_no_op_called();
}
END_TEST

START_TEST(test_trailing_blanks)
{
	/* Spaces, tabs and a CR (a client sending CRLF) after the object. */
	assert_status("{\"execute\":\"status\"}\r", "running", 2);
	assert_status("{\"execute\":\"status\"}   ", "running", 2);
	assert_status("{\"execute\":\"status\"} \t \r", "running", 2);
	assert_status("  {\"execute\":\"status\"}", "running", 2);
	assert_return_empty(send_line("{\"execute\":\"quit\"}  \r"));
	ck_assert_uint_eq(fk.quit_calls, 1);
}
END_TEST

/* A quit request padded with trailing spaces to `len` bytes. */
static char *padded_quit(size_t len)
{
	static const char req[] = "{\"execute\":\"quit\"}";
	ck_assert_uint_ge(len, sizeof(req) - 1);
	char *p = malloc(len);
	ck_assert_ptr_nonnull(p);
	memset(p, ' ', len);
	memcpy(p, req, sizeof(req) - 1);
	return p;
}

START_TEST(test_too_long)
{
	/* CONTROL_LINE_MAX + 1 bytes: refused before parsing, though it is a
	 * valid request with blanks after it. */
	char *p = padded_quit(CONTROL_LINE_MAX + 1);
	assert_error(send_n(p, CONTROL_LINE_MAX + 1), NULL);
	/* Far longer still. */
	free(p);
	p = padded_quit(4 * CONTROL_LINE_MAX);
	assert_error(send_n(p, 4 * CONTROL_LINE_MAX), NULL);
	free(p);
	assert_no_op_called();
}
END_TEST

START_TEST(test_longest_line)
{
	/* Exactly CONTROL_LINE_MAX bytes is not longer than the limit. */
	char *p = padded_quit(CONTROL_LINE_MAX);
	assert_return_empty(send_n(p, CONTROL_LINE_MAX));
	free(p);
	ck_assert_uint_eq(fk.quit_calls, 1);
}
END_TEST

START_TEST(test_reply_too_long)
{
	char *reply = control_reply_too_long();
	ck_assert_ptr_nonnull(reply);
	json_object *r = json_tokener_parse(reply);
	free(reply);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(json_object_object_length(r), 1);
	assert_error(r, NULL);
}
END_TEST

Suite *control_protocol_suite(void)
{
	Suite *s = suite_create("control_protocol");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_status);
	tcase_add_test(tc, test_pause);
	tcase_add_test(tc, test_resume);
	tcase_add_test(tc, test_pause_resume_fail);
	tcase_add_test(tc, test_quit);
	tcase_add_test(tc, test_stats);
	tcase_add_test(tc, test_stats_unavailable);
	tcase_add_test(tc, test_unknown_command);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_not_json);
	tcase_add_test(tc, test_trailing_garbage);
	tcase_add_test(tc, test_trailing_nul);
	tcase_add_test(tc, test_not_an_object);
	tcase_add_test(tc, test_bad_execute);
	tcase_add_test(tc, test_trailing_blanks);
	tcase_add_test(tc, test_too_long);
	tcase_add_test(tc, test_longest_line);
	tcase_add_test(tc, test_reply_too_long);
	suite_add_tcase(s, tc);
	return s;
}
