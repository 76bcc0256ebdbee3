#!/usr/bin/env bash
# Host input for the serial console: whatever stdin is (/dev/null, closed, a
# pipe that never writes, a terminal), the VM runs and ends as before and
# the main loop does not spin on it; input a guest does not read stays
# where it is; at a terminal, Ctrl-A x quits with 0, and the terminal is in
# raw mode only while the guest runs and is restored however vmm ends.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

work=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT
hello=$GUEST/hello.elf
lifecycle=$GUEST/lifecycle.elf

# check NAME WANT-STATUS GOT-STATUS OUTPUT [GREP-PATTERN...]
check() {
	local name=$1 want=$2 got=$3 out=$4
	shift 4
	local why=() pattern
	[ "$got" -eq "$want" ] || why+=("exit status $got, expected $want")
	for pattern in "$@"; do
		grep -qE -- "$pattern" <<<"$out" || why+=("output lacks /$pattern/")
	done
	if [ ${#why[@]} -eq 0 ]; then tap_ok "console input: $name"; else
		tap_not_ok "console input: $name" "${why[@]}" "--- output:" "$(tail -n 8 <<<"$out")"; fi
}

# (a) The test kernels finish as before with stdin /dev/null and closed.
out=$("$VMM" run --timeout "$TEST_TIMEOUT" "$hello" </dev/null 2>&1)
check "hello, stdin /dev/null" 1 $? "$out" '^SUMMARY: .* 0 unexpected failures' '^vmm: result hello=1$'
out=$("$VMM" run --timeout "$TEST_TIMEOUT" "$hello" <&- 2>&1)
check "hello, stdin closed" 1 $? "$out" '^SUMMARY: .* 0 unexpected failures' '^vmm: result hello=1$'
out=$("$VMM" run --timeout "$TEST_TIMEOUT" --cpus 2 "$GUEST/smp.elf" <&- 2>&1)
check "smp --cpus 2, stdin closed" 1 $? "$out" '^SUMMARY: .* 0 unexpected failures'
out=$("$VMM" run --timeout "$TEST_TIMEOUT" --param mode=0 --expect '^lifecycle: ready$' "$lifecycle" <&- 2>&1)
check "--expect, stdin closed" 0 $? "$out" '^lifecycle: ready'

# The main thread's CPU time in clock ticks (utime + stime of the thread
# whose id is the process's): a main loop spinning on stdin burns ~100 a
# second; an idle one, next to none.
main_ticks() {
	local stat
	stat=$(cat "/proc/$1/task/$1/stat" 2>/dev/null) || { echo -1; return; }
	stat=${stat##*) } # past "pid (comm) "
	# shellcheck disable=SC2086 # split into fields on purpose
	set -- $stat
	echo $((${12} + ${13})) # fields 14 and 15, counted from field 3
}

# no_spin NAME STDIN-REDIRECTION: a ticking guest with --timeout 4s; the VM
# must end with 124 and its main thread stay (nearly) idle meanwhile.
no_spin() {
	local name=$1 how=$2 pid ticks status
	case $how in
	closed) "$VMM" run --timeout 4s --param mode=1 "$lifecycle" <&- >"$work/out" 2>&1 & ;;
	null) "$VMM" run --timeout 4s --param mode=1 "$lifecycle" </dev/null >"$work/out" 2>&1 & ;;
	fifo) "$VMM" run --timeout 4s --param mode=1 "$lifecycle" <&3 >"$work/out" 2>&1 & ;;
	esac
	pid=$!
	pids+=("$pid")
	sleep 3
	ticks=$(main_ticks "$pid")
	wait "$pid"
	status=$?
	local why=()
	[ "$status" -eq 124 ] || why+=("exit status $status, expected 124")
	grep -q 'timeout passed' "$work/out" || why+=("no '--timeout passed' line")
	[ "$ticks" -ge 0 ] && [ "$ticks" -lt 50 ] ||
		why+=("main thread used $ticks clock ticks in 3 s: spinning on stdin?")
	if [ ${#why[@]} -eq 0 ]; then tap_ok "console input: $name"; else
		tap_not_ok "console input: $name" "${why[@]}" "--- output:" "$(tail -n 5 "$work/out")"; fi
}

no_spin "stdin closed: --timeout still 124, main loop idle" closed
no_spin "stdin /dev/null: --timeout still 124, main loop idle" null
# (b) A pipe that stays open and never writes: a FIFO opened read-write,
# so it has a writer (this shell) for as long as the test runs.
mkfifo "$work/fifo"
exec 3<>"$work/fifo"
no_spin "stdin an open pipe that never writes: --timeout still 124, main loop idle" fifo
exec 3>&-

# Input from a pipe waits until the guest's driver takes input (its receive
# interrupt on); the test kernels never read, so they consume none of it:
# not even a Ctrl-A x (escapes act on what vmm reads; a person at a raw
# terminal is read at once, below). So a script's `while read; do vmm ...;
# done <list` keeps its list. 4 KiB written into a FIFO this shell keeps
# open: all of it still there when the VM ends on its timeout.
exec 4<>"$work/fifo"
printf 'x\001x' >&4
head -c 4093 /dev/zero | tr '\0' a >&4
"$VMM" run --timeout 2s --param mode=1 "$lifecycle" <&4 >"$work/out" 2>&1
status=$?
# What is left: cat reads it all, then waits for more (this shell still
# holds a writer) until timeout ends it.
left=$(timeout 1 cat <&4 | wc -c)
exec 4>&-
tap_check "console input: a guest that does not read takes nothing from a pipe" \
	"$([ "$status" -eq 124 ] && [ "$left" -eq 4096 ] && ! grep -q 'quit from the console' "$work/out"; echo $?)" \
	"status $status, $left of 4096 bytes left in the pipe" "$(tail -n 3 "$work/out")"
# The same through a script's loop over a here-document (a pipe in bash 5.1
# and later): every line reaches the loop.
n=0
while read -r _; do
	"$VMM" run --timeout "$TEST_TIMEOUT" "$hello" >/dev/null 2>&1
	n=$((n + 1))
done <<'EOF_LINES'
one
two
three
EOF_LINES
tap_check "console input: a while-read loop around vmm keeps all its lines" "$([ "$n" -eq 3 ]; echo $?)" \
	"the loop ran $n times, expected 3"

# A terminal: under script(1), stdin is a pseudo-terminal.
if ! command -v script >/dev/null; then
	echo "# skipped: no script(1) for the terminal tests"
	exit 0
fi

# on_tty NAME BODY: run BODY (a bash script) with stdin a pseudo-terminal;
# it writes what it saw to $work/*.
on_tty() {
	printf '%s\n' "$2" >"$work/tty.sh"
	timeout 120 script -qec "bash $work/tty.sh" /dev/null >/dev/null 2>&1 </dev/null
}

# raw_during_and_restored NAME HOW WANT-STATUS-REGEX: vmm on the terminal (stdin
# and stdout; its messages, on stderr, to a file), ended by HOW (timeout,
# or a signal name): the terminal is raw while the guest runs and as before
# afterwards.
raw_during_and_restored() {
	local name=$1 how=$2 want=$3
	local timeout=8s kill_line=""
	if [ "$how" != timeout ]; then
		timeout=60s
		kill_line="kill -$how \$pid"
	fi
	rm -f "$work"/{before,during,after,status,out}
	on_tty "$name" "
stty -g >$work/before
exec 3<&0
$VMM run --timeout $timeout --param mode=1 $lifecycle <&3 2>$work/out &
pid=\$!
# Until vmm has the terminal raw (at most 6 s; a slow host takes longer
# to start the guest).
for i in \$(seq 60); do stty -a | grep -q -- -icanon && break; sleep 0.1; done
stty -a >$work/during
$kill_line
wait \$pid
echo \$? >$work/status
stty -g >$work/after"
	local why=() status during
	status=$(cat "$work/status" 2>/dev/null || echo none)
	during=$(cat "$work/during" 2>/dev/null)
	[[ $status =~ ^($want)$ ]] || why+=("exit status $status, expected $want")
	grep -qE -- '(^| )-icanon( |$)' <<<"$during" && grep -qE -- '(^| )-echo( |$)' <<<"$during" &&
		grep -qE -- '(^| )-isig( |$)' <<<"$during" || why+=("not raw while running: $during")
	grep -qE -- '(^| )opost( |$)' <<<"$during" && grep -qE -- '(^| )onlcr( |$)' <<<"$during" ||
		why+=("output post-processing off while running")
	[ -s "$work/before" ] && cmp -s "$work/before" "$work/after" ||
		why+=("terminal not restored: before $(cat "$work/before" 2>/dev/null), after $(cat "$work/after" 2>/dev/null)")
	if [ ${#why[@]} -eq 0 ]; then tap_ok "console input: $name"; else
		tap_not_ok "console input: $name" "${why[@]}" "--- output:" "$(tail -n 5 "$work/out" 2>/dev/null)"; fi
}

raw_during_and_restored "terminal raw while running, restored after --timeout" timeout 124
raw_during_and_restored "terminal restored after SIGTERM" TERM 143
# (Under ASan, whose handler vmm's passes SIGSEGV on to, the report ends
# vmm with the sanitizer run's status 99.)
raw_during_and_restored "terminal restored after SIGSEGV" SEGV '139|99'
raw_during_and_restored "terminal restored after SIGABRT" ABRT 134

# Ctrl-A h and Ctrl-A x typed at the terminal (after vmm is up, so raw
# mode is on): a person gets the escapes whether the guest reads or not.
rm -f "$work/status" "$work/out"
printf 'stty -g >%s/before; %s run --timeout 60s --param mode=1 %s 2>%s/out; echo $? >%s/status; stty -g >%s/after\n' \
	"$work" "$VMM" "$lifecycle" "$work" "$work" "$work" >"$work/tty.sh"
{ sleep 2; printf '\001h'; sleep 0.5; printf '\001x'; sleep 3; } | timeout 120 script -qec "bash $work/tty.sh" /dev/null >/dev/null 2>&1
status=$(cat "$work/status" 2>/dev/null || echo none)
tap_check "console input: Ctrl-A h, Ctrl-A x typed at the terminal: help, quit with 0, terminal restored" \
	"$([ "$status" = 0 ] && grep -q 'console escapes: Ctrl-A x quits' "$work/out" &&
		grep -q 'quit from the console' "$work/out" && cmp -s "$work/before" "$work/after"; echo $?)" \
	"status $status" "$(tail -n 3 "$work/out" 2>/dev/null)"

# A prompt, which ends no line, reaches a person at the terminal while the
# guest runs (raw mode writes through; a pipe or file gets whole lines).
rm -f "$work"/{typescript,status,seen}
printf '%s\n' "
exec 3<&0
$VMM run --timeout 60s --param mode=4 $lifecycle <&3 2>$work/out &
pid=\$!
for i in \$(seq 100); do grep -q 'lifecycle: prompt> ' $work/typescript && { echo yes >$work/seen; break; }; sleep 0.1; done
kill -TERM \$pid
wait \$pid
echo \$? >$work/status" >"$work/tty.sh"
timeout 120 script -qfec "bash $work/tty.sh" "$work/typescript" >/dev/null 2>&1 </dev/null
status=$(cat "$work/status" 2>/dev/null || echo none)
tap_check "console input: an unfinished line (a prompt) shows at the terminal while the guest runs" \
	"$([ "$status" = 143 ] && [ -s "$work/seen" ]; echo $?)" \
	"status $status; seen: $(cat "$work/seen" 2>/dev/null || echo no)" "$(tail -c 200 "$work/typescript" 2>/dev/null)"

# Started in the background of a terminal (job control on, another process
# group in the foreground): vmm leaves the terminal alone, reads nothing
# from it (a read would stop it with SIGTTIN), and ends as usual.
rm -f "$work"/{before,during,after,status,out}
on_tty "background" "
set -m
stty -g >$work/before
exec 3<&0
$VMM run --timeout 3s --param mode=1 $lifecycle <&3 2>$work/out &
pid=\$!
sleep 1.5
stty -g >$work/during
wait \$pid
echo \$? >$work/status
stty -g >$work/after"
status=$(cat "$work/status" 2>/dev/null || echo none)
tap_check "console input: started in the background, the terminal is left alone" \
	"$([ "$status" = 124 ] && cmp -s "$work/before" "$work/during" && cmp -s "$work/before" "$work/after"; echo $?)" \
	"status $status (a vmm stopped by SIGTTIN/SIGTTOU would not finish)"

# The guest's output to a file (a script or harness runs vmm, stdin still
# the terminal): the terminal stays as it is, so Ctrl-C still stops vmm.
rm -f "$work"/{before,during,after,status,out}
on_tty "output to a file" "
stty -g >$work/before
exec 3<&0
$VMM run --timeout 3s --param mode=1 $lifecycle <&3 >$work/out 2>&1 &
pid=\$!
sleep 1.5
stty -g >$work/during
wait \$pid
echo \$? >$work/status
stty -g >$work/after"
status=$(cat "$work/status" 2>/dev/null || echo none)
tap_check "console input: output not a terminal, the terminal stays cooked" \
	"$([ "$status" = 124 ] && cmp -s "$work/before" "$work/during" && cmp -s "$work/before" "$work/after"; echo $?)" \
	"status $status"
