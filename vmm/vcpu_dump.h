/* The register dump printed after a fatal exit. */
#ifndef VMM_VCPU_DUMP_H
#define VMM_VCPU_DUMP_H

struct vcpu;

/* Print the vCPU's registers to stderr. */
void vcpu_dump_registers(const struct vcpu *vcpu);

#endif
