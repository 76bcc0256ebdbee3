/* The main thread while the VM runs: waits for a stop request, a signal
 * (SIGINT/SIGTERM through a signalfd) or the --timeout (a timerfd). */
#ifndef VMM_MAIN_LOOP_H
#define VMM_MAIN_LOOP_H

struct vm;

/* Block the signals the main loop takes through its signalfd. Call before
 * any thread is created so that every thread inherits the mask. */
int main_loop_block_signals(void);

/* Returns once a stop has been requested (by anyone). */
void main_loop_run(struct vm *vm);

#endif
