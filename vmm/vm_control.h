/* The VM's side of the control socket: what pause, resume, status and quit
 * do to this VM. */
#ifndef VMM_VM_CONTROL_H
#define VMM_VM_CONTROL_H

struct vm;

/* Open --control's socket, if any. Called last in vm_create: a client must
 * never reach a half-built VM. 0, or an exit status after one line. */
int vm_control_open(struct vm *vm);

#endif
