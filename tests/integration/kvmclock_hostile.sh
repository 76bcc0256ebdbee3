#!/usr/bin/env bash
# A guest pointing its kvmclock MSRs outside RAM, at a misaligned address
# and across a page: vmm treats those kvmclocks as inactive, warns once per
# vCPU (not once per pause), and the VM keeps running through two pauses.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

out=$("$VMM" run --timeout "$TEST_TIMEOUT" --cpus 3 --kvmclock-guest-view \
	"$GUEST/kvmclock-hostile.elf" 2>&1)
status=$?
# The guest numbers its CPUs in bring-up order, not by vCPU: count by kind.
warnings() { grep -c "vcpu [0-9]*: kvmclock MSR 0x[0-9a-f]* $1.*: treating its kvmclock as inactive" <<<"$out"; }
tap_check "kvmclock: hostile MSRs, the VM runs on and passes" \
	"$([ "$status" -eq 1 ] && ! grep -q '^FAIL' <<<"$out"; echo $?)" "status $status" "$out"
tap_check "kvmclock: MSR outside RAM warned once" \
	"$([ "$(warnings 'points outside guest RAM')" -eq 1 ]; echo $?)" "$out"
tap_check "kvmclock: misaligned MSR warned once" "$([ "$(warnings 'is not 4-byte aligned')" -eq 1 ]; echo $?)" "$out"
tap_check "kvmclock: record across a page warned once" \
	"$([ "$(warnings 'puts the record across a page boundary')" -eq 1 ]; echo $?)" "$out"
