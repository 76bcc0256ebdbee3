#!/usr/bin/env bash
# How a VM ends: --expect, --timeout, SIGTERM (with and without guest exits),
# a triple fault. Each must give its documented exit status, promptly.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

kernel=$GUEST/lifecycle.elf
now_ms() { date +%s%3N; }

# check NAME WANT-STATUS GOT-STATUS MAX-MS ELAPSED-MS OUTPUT [GREP-PATTERN]
check() {
	local name=$1 want=$2 got=$3 max_ms=$4 ms=$5 out=$6 pattern=${7:-}
	local why=()
	[ "$got" -eq "$want" ] || why+=("exit status $got, expected $want")
	[ "$ms" -le "$max_ms" ] || why+=("took $ms ms, limit $max_ms ms")
	[ -z "$pattern" ] || grep -qE "$pattern" <<<"$out" || why+=("output lacks /$pattern/")
	if [ ${#why[@]} -eq 0 ]; then tap_ok "lifecycle: $name"; else
		tap_not_ok "lifecycle: $name" "${why[@]}" "--- output:" "$(tail -n 8 <<<"$out")"; fi
}

# run_vmm OPTIONS...: sets out, status, ms
run_vmm() {
	local t0
	t0=$(now_ms)
	out=$("$VMM" run "$@" "$kernel" 2>&1)
	status=$?
	ms=$(($(now_ms) - t0))
}

run_vmm --timeout 60s --param mode=0 --expect '^lifecycle: ready$'
check "--expect matches a console line: exit 0" 0 "$status" 60000 "$ms" "$out" '^lifecycle: ready'

run_vmm --timeout 60s --param mode=0 --expect '^never printed$'
check "--expect, guest ends first: non-zero" 1 "$status" 60000 "$ms" "$out" 'ended before its console matched'

run_vmm --timeout 2s --param mode=1
check "--timeout with a ticking guest: exit 124" 124 "$status" 30000 "$ms" "$out" 'timeout passed'

run_vmm --timeout 2s --param mode=2 --cpus 2
check "--timeout with a guest spinning without exits: exit 124" 124 "$status" 30000 "$ms" "$out"

run_vmm --timeout 60s --param mode=3
check "triple fault: exit 1 with registers" 1 "$status" 60000 "$ms" "$out" 'triple fault \(KVM_EXIT_SHUTDOWN\)'

# SIGTERM: vmm stops the VM, exits 128+15, well before its own timeout.
for mode in 1 2; do
	t0=$(now_ms)
	"$VMM" run --timeout 120s --param mode=$mode --cpus 2 "$kernel" >"$BUILD/lifecycle.out" 2>&1 &
	pid=$!
	sleep 2
	kill -TERM "$pid"
	wait "$pid"
	status=$?
	ms=$(($(now_ms) - t0))
	out=$(cat "$BUILD/lifecycle.out")
	check "SIGTERM (mode $mode): exit 143" 143 "$status" 60000 "$ms" "$out" 'stopping the VM: Terminated'
done
rm -f "$BUILD/lifecycle.out"
