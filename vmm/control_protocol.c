/* The control protocol: one JSON object per line, QMP-like and small (see
 * control_protocol.h). Pure: the VM is reached through callbacks. */
#include "control_protocol.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

static char *to_text(json_object *reply)
{
	char *text = strdup(json_object_to_json_string_ext(reply, JSON_C_TO_STRING_PLAIN));
	json_object_put(reply);
	return text;
}

static char *error_reply(const char *class, const char *desc)
{
	json_object *err = json_object_new_object();
	json_object_object_add(err, "class", json_object_new_string(class));
	json_object_object_add(err, "desc", json_object_new_string(desc));
	json_object *reply = json_object_new_object();
	json_object_object_add(reply, "error", err);
	return to_text(reply);
}

static char *return_reply(json_object *value)
{
	json_object *reply = json_object_new_object();
	json_object_object_add(reply, "return", value ? value : json_object_new_object());
	return to_text(reply);
}

char *control_reply_too_long(void)
{
	return error_reply("GenericError", "command line too long (at most 4096 bytes)");
}

static char *run_command(const struct control_ops *ops, const char *cmd)
{
	if (strcmp(cmd, "status") == 0) {
		json_object *st = json_object_new_object();
		json_object_object_add(st, "status", json_object_new_string(
			ops->paused(ops->opaque) ? "paused" : "running"));
		json_object_object_add(st, "vcpus", json_object_new_int((int)ops->vcpus(ops->opaque)));
		return return_reply(st);
	}
	if (strcmp(cmd, "pause") == 0) {
		if (ops->paused(ops->opaque))
			return error_reply("GenericError", "already paused");
		return ops->pause(ops->opaque) == 0 ? return_reply(NULL)
						    : error_reply("GenericError", "pause failed");
	}
	if (strcmp(cmd, "resume") == 0) {
		if (!ops->paused(ops->opaque))
			return error_reply("GenericError", "not paused");
		return ops->resume(ops->opaque) == 0 ? return_reply(NULL)
						     : error_reply("GenericError", "resume failed");
	}
	if (strcmp(cmd, "stats") == 0) {
		json_object *st = ops->stats ? ops->stats(ops->opaque) : NULL;
		return st ? return_reply(st)
			  : error_reply("GenericError", "KVM statistics not available");
	}
	if (strcmp(cmd, "quit") == 0) {
		ops->quit(ops->opaque);
		return return_reply(NULL);
	}
	return error_reply("CommandNotFound", "unknown command (pause, resume, status, stats, quit)");
}

static bool only_blanks(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\0' || !strchr(" \t\r", s[i])) /* strchr finds the NUL too */
			return false;
	return true;
}

char *control_handle_line(const struct control_ops *ops, const char *line, size_t len)
{
	if (len > CONTROL_LINE_MAX)
		return control_reply_too_long();
	json_tokener *tok = json_tokener_new();
	if (!tok)
		return NULL;
	/* Strict: json-c's default also takes trailing commas, single quotes and
	 * comments. Trailing blanks are checked below. */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	json_object *req = json_tokener_parse_ex(tok, line, (int)len);
	bool complete = req && json_tokener_get_error(tok) == json_tokener_success &&
			only_blanks(line + json_tokener_get_parse_end(tok),
				    len - json_tokener_get_parse_end(tok));
	json_tokener_free(tok);
	char *reply;
	json_object *execute;
	if (!complete)
		reply = error_reply("GenericError", "not one JSON object");
	else if (!json_object_is_type(req, json_type_object) ||
		 !json_object_object_get_ex(req, "execute", &execute) ||
		 !json_object_is_type(execute, json_type_string))
		reply = error_reply("GenericError", "expected {\"execute\": \"COMMAND\"}");
	else
		reply = run_command(ops, json_object_get_string(execute));
	json_object_put(req);
	return reply;
}
