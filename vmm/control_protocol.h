/* The control protocol: one JSON object per line, QMP-like and small.
 *   {"execute": "pause"}  -> {"return": {}}
 *   {"execute": "resume"} -> {"return": {}}
 *   {"execute": "status"} -> {"return": {"status": "running"|"paused", "vcpus": N}}
 *   {"execute": "stats"}  -> {"return": KVM's statistics so far (stats_report.h)}
 *   {"execute": "quit"}   -> {"return": {}}, then the VM ends (exit status 0)
 * Anything else gets {"error": {"class": "...", "desc": "..."}}; an error
 * never touches the VM. Pure: the VM is reached through callbacks. */
#ifndef VMM_CONTROL_PROTOCOL_H
#define VMM_CONTROL_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

#define CONTROL_LINE_MAX 4096

struct control_ops {
	int (*pause)(void *opaque);  /* 0 or -errno */
	int (*resume)(void *opaque);
	bool (*paused)(void *opaque);
	unsigned (*vcpus)(void *opaque);
	void (*quit)(void *opaque);
	/* A JSON object (json_object *), or NULL when there are no statistics. */
	void *(*stats)(void *opaque);
	void *opaque;
};

/* Handle one line (without its newline). Returns the reply, a malloc'd
 * NUL-terminated JSON text without a newline; NULL only if out of memory. */
char *control_handle_line(const struct control_ops *ops, const char *line, size_t len);

/* The reply to a line that was longer than CONTROL_LINE_MAX. */
char *control_reply_too_long(void);

#endif
