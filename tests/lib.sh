# shellcheck shell=bash disable=SC2034 # sourced: the variables are for its callers
# Shared by the suite's scripts: where things are, and TAP result lines.
# Scripts print "ok - NAME" / "not ok - NAME"; tests/run-suite numbers them.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
VMM=${VMM:-$BUILD/vmm}
GUEST=${GUEST:-$BUILD/guest-tests}
# Per-test VM time limit; generous, because the nested rig is slow.
TEST_TIMEOUT=${TEST_TIMEOUT:-120s}

tap_ok() { echo "ok - $1"; }
tap_not_ok() {
	echo "not ok - $1"
	shift
	local line
	for line in "$@"; do echo "#   $line"; done
}
# tap_check NAME CONDITION-STATUS [DETAIL...]: ok if the status is 0.
tap_check() {
	local name=$1 status=$2
	shift 2
	if [ "$status" -eq 0 ]; then tap_ok "$name"; else tap_not_ok "$name" "$@"; fi
}
