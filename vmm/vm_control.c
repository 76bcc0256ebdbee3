/* The VM's side of the control socket: what pause, resume, status and quit
 * do to this VM. */
#include "vm_control.h"

#include "exit_status.h"
#include "log.h"
#include "stats_report.h"
#include "vm.h"

static int control_pause(void *opaque)
{
	struct vm *vm = opaque;
	int rc = vm_pause_all(vm);
	vm->paused = true; /* the vCPUs are parked even if the clock read failed */
	return rc;
}

static int control_resume(void *opaque)
{
	struct vm *vm = opaque;
	vm->paused = false;
	return vm_resume_all(vm);
}

static bool control_paused(void *opaque)
{
	return ((struct vm *)opaque)->paused;
}

static unsigned control_vcpus(void *opaque)
{
	return ((struct vm *)opaque)->nvcpus;
}

static void control_quit(void *opaque)
{
	struct vm *vm = opaque;
	vm_stop_request(&vm->stop, STOP_QUIT, EXIT_STATUS_OK);
}

static void *control_stats(void *opaque)
{
	struct vm *vm = opaque;
	if (!vm->have_stats || vm_stats_sample(&vm->stats) < 0)
		return NULL;
	return stats_report_json(&vm->stats);
}

int vm_control_open(struct vm *vm)
{
	char err[256];
	vm->control.listen_fd = -1;
	if (!vm->cfg->control)
		return 0;
	const struct control_ops ops = {
		.pause = control_pause,	  .resume = control_resume, .paused = control_paused,
		.vcpus = control_vcpus,	  .quit = control_quit,	    .stats = control_stats,
		.opaque = vm,
	};
	if (control_open(&vm->control, vm->cfg->control, &ops, err, sizeof(err)) < 0) {
		vmm_log("%s", err);
		return EXIT_STATUS_USAGE;
	}
	return 0;
}

