/* The control socket: a UNIX stream socket (--control PATH) on which
 * clients send the control protocol's JSON lines. Served by the main loop;
 * a client's mistakes are answered, never fatal to the VM. */
#ifndef VMM_CONTROL_H
#define VMM_CONTROL_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#include "control_protocol.h"

#define CONTROL_MAX_CLIENTS 4

struct control_client {
	int fd; /* -1: free slot */
	char buf[CONTROL_LINE_MAX + 1]; /* the longest line and its newline */
	size_t len;
	bool discarding; /* inside a line that was too long */
};

struct control {
	int listen_fd; /* -1: no control socket */
	char *path;
	struct control_ops ops;
	struct control_client client[CONTROL_MAX_CLIENTS];
};

/* Listen on `path`, which must not exist. 0, or -1 with a reason in err. */
int control_open(struct control *c, const char *path, const struct control_ops *ops, char *err,
		 size_t errlen);
/* Close every socket and remove the path. Safe on a control never opened. */
void control_close(struct control *c);

/* The fds to poll: fills up to CONTROL_MAX_CLIENTS + 1 entries. */
unsigned control_pollfds(const struct control *c, struct pollfd *fds);
/* Act on what poll() found in those entries. */
void control_handle(struct control *c, const struct pollfd *fds, unsigned n);

#endif
