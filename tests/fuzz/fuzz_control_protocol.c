/* Fuzz target: the control socket's command parser (vmm/control_protocol.c,
 * control_handle_line), with fake VM callbacks that keep a paused flag.
 * Input: the bytes a client sends, split at '\n' into lines as the control
 * server does; each line goes in its own allocation of exactly its length
 * (no NUL after it), as the parser is given a length, not a string. Every
 * reply must be one JSON object with "return" or "error". */
#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../vmm/control_protocol.h"
#include "fuzz_util.h"

struct fake_vm {
	bool paused;
	bool quit;
	unsigned calls;
};

static int do_pause(void *opaque)
{
	struct fake_vm *vm = opaque;
	FUZZ_ASSERT(!vm->paused);
	vm->paused = true;
	return (vm->calls++ % 5 == 4) ? -5 : 0;
}

static int do_resume(void *opaque)
{
	struct fake_vm *vm = opaque;
	FUZZ_ASSERT(vm->paused);
	vm->paused = false;
	return 0;
}

static bool is_paused(void *opaque)
{
	return ((struct fake_vm *)opaque)->paused;
}

static unsigned vcpus(void *opaque)
{
	(void)opaque;
	return 4;
}

static void do_quit(void *opaque)
{
	((struct fake_vm *)opaque)->quit = true;
}

static void *stats(void *opaque)
{
	struct fake_vm *vm = opaque;
	if (vm->calls++ % 2)
		return NULL;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "exits", json_object_new_int64(12345));
	return o;
}

static void check_reply(char *reply)
{
	FUZZ_ASSERT(reply != NULL);
	FUZZ_ASSERT(strchr(reply, '\n') == NULL);
	json_object *o = json_tokener_parse(reply);
	FUZZ_ASSERT(o && json_object_is_type(o, json_type_object));
	FUZZ_ASSERT(json_object_object_get_ex(o, "return", NULL) ||
		    json_object_object_get_ex(o, "error", NULL));
	json_object_put(o);
	free(reply);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fake_vm vm = { false, false, 0 };
	struct control_ops ops = { do_pause, do_resume, is_paused, vcpus, do_quit, stats, &vm };
	size_t start = 0;
	while (start <= size) {
		const uint8_t *nl = memchr(data + start, '\n', size - start);
		size_t len = nl ? (size_t)(nl - (data + start)) : size - start;
		char *line = malloc(len ? len : 1);
		if (!line)
			return 0;
		memcpy(line, data + start, len);
		check_reply(control_handle_line(&ops, line, len));
		free(line);
		if (!nl)
			break;
		start += len + 1;
	}
	return 0;
}
