/* vmm's messages to the user: one line each on stderr, prefixed "vmm: ". */
#ifndef VMM_LOG_H
#define VMM_LOG_H

__attribute__((format(printf, 1, 2))) void vmm_log(const char *fmt, ...);

#endif
