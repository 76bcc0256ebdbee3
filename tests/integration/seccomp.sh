#!/usr/bin/env bash
# Seccomp: a vCPU thread that makes a forbidden system call (the test build's
# --test-fault seccomp-vcpu: an ioctl KVM_CREATE_VM on its vCPU fd, once its
# filter is loaded) stops vmm at once with 159 (128 + SIGSYS) and one line
# naming the call; with --no-seccomp the same call is harmless (ENOTTY). The
# rest of the suite runs with the filters on, as they are by default.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

kernel=$GUEST/lifecycle.elf
faulty=$BUILD/vmm-testfaults
line='^vmm: seccomp: vcpu thread made forbidden syscall 16$' # 16: ioctl on x86-64

# check NAME WANT-STATUS GOT-STATUS OUTPUT [GREP-PATTERN [ABSENT-PATTERN]]
check() {
	local name=$1 want=$2 got=$3 out=$4 pattern=${5:-} absent=${6:-}
	local why=()
	[ "$got" -eq "$want" ] || why+=("exit status $got, expected $want")
	[ -z "$pattern" ] || grep -qE "$pattern" <<<"$out" || why+=("output lacks /$pattern/")
	[ -z "$absent" ] || ! grep -qE "$absent" <<<"$out" || why+=("output has /$absent/")
	if [ ${#why[@]} -eq 0 ]; then tap_ok "seccomp: $name"; else
		tap_not_ok "seccomp: $name" "${why[@]}" "--- output:" "$(tail -n 8 <<<"$out")"; fi
}

for cpus in 1 2; do
	out=$("$faulty" run --test-fault seccomp-vcpu --cpus $cpus --timeout 60s --param mode=0 \
		--expect '^never printed$' "$kernel" 2>&1)
	status=$?
	check "forbidden ioctl in a vCPU thread ($cpus vCPU): exit 159 and one line" 159 "$status" \
		"$out" "$line"
	n=$(grep -cE "$line" <<<"$out")
	[ "$n" -eq 1 ] && tap_ok "seccomp: the line is printed once ($cpus vCPU)" ||
		tap_not_ok "seccomp: the line is printed once ($cpus vCPU)" "printed $n times"
done

out=$("$faulty" run --no-seccomp --test-fault seccomp-vcpu --timeout 60s --param mode=0 \
	--expect '^lifecycle: ready$' "$kernel" 2>&1)
status=$?
check "--no-seccomp: the same ioctl is harmless" 0 "$status" "$out" '^lifecycle: ready' 'seccomp'

config=$BUILD/seccomp-test.ini
printf '[run]\nseccomp = off\n' >"$config"
out=$("$faulty" run --config "$config" --test-fault seccomp-vcpu --timeout 60s --param mode=0 \
	--expect '^lifecycle: ready$' "$kernel" 2>&1)
status=$?
check "config [run] seccomp = off: the same" 0 "$status" "$out" '^lifecycle: ready' 'seccomp'
rm -f "$config"

# The filters on (the default), through the paths they must allow: a guest
# pause cycle is not here (the kvmclock rows do it), but the exit reports
# are: --stats, --stats-json, --report-memory, a guest exit status.
json=$BUILD/seccomp-stats.json
out=$("$VMM" run --timeout 60s --param mode=0 --expect '^lifecycle: ready$' --stats \
	--stats-json "$json" --report-memory --cpus 2 "$kernel" 2>&1)
status=$?
check "filters on: --stats, --stats-json, --report-memory at exit" 0 "$status" "$out" \
	'peak_rss_kib' 'seccomp'
[ -s "$json" ] && tap_ok "seccomp: --stats-json written under the main filter" ||
	tap_not_ok "seccomp: --stats-json written under the main filter" "no $json"
rm -f "$json"

out=$("$VMM" run --timeout 60s --param mode=3 "$kernel" 2>&1)
status=$?
check "filters on: a triple fault still reports its registers" 1 "$status" "$out" \
	'triple fault \(KVM_EXIT_SHUTDOWN\)' 'seccomp'
