#!/usr/bin/env bash
# The control socket against a running test kernel: pause really stops the
# guest, resume restarts it, status tells which, bad requests get an error
# reply and leave the VM running, quit ends it with 0 and removes the socket.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

work=$(mktemp -d)
sock=$work/control.sock
out=$work/console
trap 'kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT

# ask JSON: one request on its own connection, print the one-line reply.
ask() { printf '%s\n' "$1" | timeout 10 socat -t 5 - "UNIX-CONNECT:$sock"; }
ticks() { grep -c '^lifecycle: tick' "$out"; }
expect_reply() { # NAME REQUEST PATTERN
	local reply
	reply=$(ask "$2")
	tap_check "control: $1" "$(grep -qE "$3" <<<"$reply"; echo $?)" "reply: $reply"
}

# The lifecycle kernel in mode 1 prints a tick every 100 ms.
"$VMM" run --timeout 120s --control "$sock" --param mode=1 --cpus 2 "$GUEST/lifecycle.elf" >"$out" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done

expect_reply "status while running" '{"execute":"status"}' '"status":"running","vcpus":2'
expect_reply "pause" '{"execute":"pause"}' '^\{"return":\{\}\}$'
before=$(ticks)
sleep 1
after=$(ticks)
tap_check "control: no guest output while paused" "$([ "$before" -eq "$after" ]; echo $?)" \
	"ticks went from $before to $after during a 1 s pause"
expect_reply "status while paused" '{"execute":"status"}' '"status":"paused"'
expect_reply "pause twice is an error" '{"execute":"pause"}' '"error".*already paused'
expect_reply "resume" '{"execute":"resume"}' '^\{"return":\{\}\}$'
sleep 0.5
tap_check "control: the guest runs again after resume" "$([ "$(ticks)" -gt "$after" ]; echo $?)"
expect_reply "malformed JSON" 'not json' '"error".*not one JSON object'
expect_reply "not an object" '[1, 2]' '"error".*expected'
expect_reply "unknown command" '{"execute":"reboot"}' '"CommandNotFound"'
expect_reply "oversized line" "$(head -c 6000 /dev/zero | tr '\0' x)" '"error".*too long'
expect_reply "still running after the bad requests" '{"execute":"status"}' '"status":"running"'
expect_reply "quit" '{"execute":"quit"}' '^\{"return":\{\}\}$'
wait "$pid"
status=$?
tap_check "control: quit ends vmm with 0" "$([ "$status" -eq 0 ]; echo $?)" "status $status"
tap_check "control: the socket is removed" "$([ ! -e "$sock" ]; echo $?)"

# A path that exists already is refused at start-up, and left alone.
touch "$work/taken"
err=$("$VMM" run --control "$work/taken" "$GUEST/hello.elf" 2>&1)
status=$?
tap_check "control: an existing path is refused" \
	"$([ "$status" -eq 2 ] && grep -q 'already exists' <<<"$err" && [ -f "$work/taken" ]; echo $?)" \
	"status $status: $err"

# SIGTERM while paused still ends the VM.
"$VMM" run --timeout 120s --control "$sock" --param mode=1 "$GUEST/lifecycle.elf" >"$out" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
ask '{"execute":"pause"}' >/dev/null
kill -TERM "$pid"
wait "$pid"
status=$?
tap_check "control: SIGTERM while paused exits 143" "$([ "$status" -eq 143 ]; echo $?)" "status $status"
