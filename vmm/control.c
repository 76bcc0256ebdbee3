/* The control socket: a UNIX stream socket (--control PATH) on which
 * clients send the control protocol's JSON lines. Served by the main loop;
 * a client's mistakes are answered, never fatal to the VM. */
#include "control.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int control_open(struct control *c, const char *path, const struct control_ops *ops, char *err,
		 size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->listen_fd = -1;
	c->ops = *ops;
	for (int i = 0; i < CONTROL_MAX_CLIENTS; i++)
		c->client[i].fd = -1;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(addr.sun_path)) {
		snprintf(err, errlen, "--control %s: path longer than %zu bytes", path,
			 sizeof(addr.sun_path) - 1);
		return -1;
	}
	/* Never unlink what is there: it may be another VM's live socket. */
	if (access(path, F_OK) == 0) {
		snprintf(err, errlen, "--control %s: already exists", path);
		return -1;
	}
	strcpy(addr.sun_path, path);
	c->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (c->listen_fd < 0 || bind(c->listen_fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		snprintf(err, errlen, "--control %s: %s", path, strerror(errno));
		control_close(c);
		return -1;
	}
	c->path = strdup(path);
	if (!c->path || listen(c->listen_fd, CONTROL_MAX_CLIENTS) < 0) {
		snprintf(err, errlen, "--control %s: %s", path, strerror(errno));
		control_close(c);
		return -1;
	}
	return 0;
}

static void drop_client(struct control_client *cl)
{
	if (cl->fd >= 0)
		close(cl->fd);
	cl->fd = -1;
	cl->len = 0;
	cl->discarding = false;
}

void control_close(struct control *c)
{
	for (int i = 0; i < CONTROL_MAX_CLIENTS; i++)
		drop_client(&c->client[i]);
	if (c->listen_fd >= 0) {
		close(c->listen_fd);
		if (c->path)
			unlink(c->path);
	}
	c->listen_fd = -1;
	free(c->path);
	c->path = NULL;
}

unsigned control_pollfds(const struct control *c, struct pollfd *fds)
{
	unsigned n = 0;
	if (c->listen_fd < 0)
		return 0;
	fds[n++] = (struct pollfd){ .fd = c->listen_fd, .events = POLLIN };
	for (int i = 0; i < CONTROL_MAX_CLIENTS; i++)
		fds[n++] = (struct pollfd){ .fd = c->client[i].fd, .events = POLLIN };
	return n;
}

static void send_reply(struct control_client *cl, char *reply)
{
	if (!reply)
		return;
	size_t len = strlen(reply);
	reply[len] = '\n'; /* replaces the NUL: the reply is sent as one line */
	/* Replies are small; a client too slow to take one is dropped. */
	if (send(cl->fd, reply, len + 1, MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)(len + 1))
		drop_client(cl);
	free(reply);
}

/* Split the buffered bytes into lines and answer each. */
static void serve_lines(struct control *c, struct control_client *cl)
{
	size_t start = 0;
	for (size_t i = 0; i < cl->len && cl->fd >= 0; i++) {
		if (cl->buf[i] != '\n')
			continue;
		if (!cl->discarding)
			send_reply(cl, control_handle_line(&c->ops, cl->buf + start, i - start));
		cl->discarding = false;
		start = i + 1;
	}
	if (cl->fd < 0)
		return;
	memmove(cl->buf, cl->buf + start, cl->len - start);
	cl->len -= start;
	if (cl->len == sizeof(cl->buf)) {
		/* A full buffer with no newline: answer once, skip to the next line. */
		if (!cl->discarding)
			send_reply(cl, control_reply_too_long());
		cl->discarding = true;
		cl->len = 0;
	}
}

static void read_client(struct control *c, struct control_client *cl)
{
	ssize_t n = recv(cl->fd, cl->buf + cl->len, sizeof(cl->buf) - cl->len, MSG_DONTWAIT);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		drop_client(cl);
		return;
	}
	if (n > 0) {
		cl->len += (size_t)n;
		serve_lines(c, cl);
	}
}

static void accept_client(struct control *c)
{
	int fd = accept4(c->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return;
	for (int i = 0; i < CONTROL_MAX_CLIENTS; i++) {
		if (c->client[i].fd < 0) {
			c->client[i].fd = fd;
			return;
		}
	}
	static const char busy[] =
		"{\"error\":{\"class\":\"GenericError\",\"desc\":\"too many clients\"}}\n";
	(void)!send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
}

void control_handle(struct control *c, const struct pollfd *fds, unsigned n)
{
	if (n == 0)
		return;
	for (unsigned i = 1; i < n; i++) {
		struct control_client *cl = &c->client[i - 1];
		if (cl->fd >= 0 && fds[i].fd == cl->fd && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
			read_client(c, cl);
	}
	if (fds[0].revents & POLLIN)
		accept_client(c);
}
