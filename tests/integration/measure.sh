#!/usr/bin/env bash
# The measuring kernels (ipi-pingpong, idle, sched-pipe, sched-messaging):
# both views of one run must agree. The guest's own counts (IPIs received
# equal IPIs sent) and KVM's (every HLT the guest blocked in was an exit
# KVM handled: halt_exits >= the guest's blocking HLTs, less 5% for HLTs
# counted around the measured window's edges).
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

# Small loop counts: the nested rig takes about a millisecond per exit.
LOOPS=${MEASURE_LOOPS:-200}

result() { sed -n "s/^vmm: result $1=//p" <<<"$out" | head -1; }
kvm_total() { awk -v c="$1" '$1 == c { print $2; exit }' <<<"$out"; }

measure() { # NAME OPTIONS...
	local name=$1
	shift
	out=$("$VMM" run --timeout "$TEST_TIMEOUT" --stats "$@" 2>&1)
	local status=$? why=()
	[ "$status" -eq 1 ] || why+=("exit status $status")
	! grep -q '^FAIL' <<<"$out" || why+=("$(grep '^FAIL' <<<"$out" | head -3)")
	local sent received hlt_blocked halt_exits
	sent=$(result ipi_sent)
	received=$(result ipi_received)
	hlt_blocked=$(result hlt_blocked)
	halt_exits=$(kvm_total halt_exits)
	if [ -z "$sent" ] || [ -z "$received" ] || [ -z "$hlt_blocked" ] || [ -z "$halt_exits" ]; then
		why+=("missing counts: sent=$sent received=$received hlt_blocked=$hlt_blocked halt_exits=$halt_exits")
	else
		[ "$sent" -eq "$received" ] || why+=("guest IPIs sent $sent != received $received")
		[ $((halt_exits * 100)) -ge $((hlt_blocked * 95)) ] ||
			why+=("KVM halt_exits $halt_exits < 95% of the guest's blocking HLTs $hlt_blocked")
	fi
	if [ ${#why[@]} -eq 0 ]; then
		tap_ok "measure: $name (IPIs $sent sent = $received received; halt_exits $halt_exits >= HLTs $hlt_blocked)"
	else
		tap_not_ok "measure: $name" "${why[@]}" "--- output:" "$(tail -n 12 <<<"$out")"
	fi
}

measure ipi-pingpong --cpus 2 --param loops="$LOOPS" "$GUEST/ipi-pingpong.elf"
measure idle --cpus 2 --param ms=500 "$GUEST/idle.elf"
for l3 in off on; do
	for vendor in host intel; do
		measure "sched-pipe l3-cache=$l3 $vendor" --smp sockets=1,cores=4 --l3-cache $l3 \
			--cpu-vendor $vendor --param loops="$LOOPS" "$GUEST/sched-pipe.elf"
		measure "sched-messaging l3-cache=$l3 $vendor" --smp sockets=1,cores=4 --l3-cache $l3 \
			--cpu-vendor $vendor --param loops="$LOOPS" "$GUEST/sched-messaging.elf"
	done
done
