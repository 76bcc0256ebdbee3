#!/usr/bin/env bash
# Bad input: each case gets one line on stderr naming the problem, exit 2,
# no crash, and nothing left behind in the working directory.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hello=$GUEST/hello.elf

# A copy of hello.elf with bytes patched at an offset: printf-escaped bytes.
patched() {
	local out=$work/$1 offset=$2 bytes=$3
	cp "$hello" "$out"
	printf '%b' "$bytes" | dd of="$out" bs=1 seek="$offset" conv=notrunc status=none
	echo "$out"
}

# Little-endian u64 read from the ELF file at a byte offset.
read_u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

# expect_usage_error NAME PATTERN VMM-ARGS...: exit 2, one stderr line
# matching PATTERN, nothing on stdout, no new files.
expect_usage_error() {
	local name=$1 pattern=$2
	shift 2
	local before after err out status
	before=$(ls -A "$work")
	out=$(cd "$work" && "$VMM" "$@" 2>"$work/.stderr")
	status=$?
	err=$(cat "$work/.stderr")
	rm -f "$work/.stderr"
	after=$(ls -A "$work")
	local why=()
	[ "$status" -eq 2 ] || why+=("exit status $status, expected 2")
	[ "$(wc -l <<<"$err")" -eq 1 ] || why+=("expected one line on stderr, got: $err")
	grep -qE "$pattern" <<<"$err" || why+=("stderr '$err' does not match /$pattern/")
	[ -z "$out" ] || why+=("unexpected stdout: $out")
	[ "$before" = "$after" ] || why+=("files left behind: $after")
	if [ ${#why[@]} -eq 0 ]; then tap_ok "bad input: $name"; else tap_not_ok "bad input: $name" "${why[@]}"; fi
}

expect_usage_error "missing kernel file" "nonexistent.elf: No such file" run "$work/nonexistent.elf"
# (root reads mode-000 files, so "unreadable" is tested with a directory)
expect_usage_error "kernel is a directory" "not a regular file" run "$work"
expect_usage_error "not an ELF file" "not an ELF file" run /etc/hostname
: >"$work/empty.elf"
expect_usage_error "empty kernel file" "not an ELF file" run "$work/empty.elf"
expect_usage_error "kernel is a device" "not a regular file" run /dev/null
# e_ident[EI_CLASS] (offset 4) = 1: ELFCLASS32
expect_usage_error "32-bit ELF" "not a 64-bit ELF" run "$(patched class32.elf 4 '\001')"
# e_machine (offset 18, u16) = 183: EM_AARCH64
expect_usage_error "non-x86 ELF" "machine 183 is not x86-64" run "$(patched arm64.elf 18 '\267\000')"
# p_paddr of the first program header (e_phoff + 24) = 0x40000000: 1 GiB, past 64 MiB of RAM
phoff=$(read_u64 "$hello" 32)
expect_usage_error "segment outside guest RAM" "outside guest RAM" \
	run --mem 64M "$(patched high.elf $((phoff + 24)) '\000\000\000\100\000\000\000\000')"
expect_usage_error "truncated kernel" "truncated" \
	run "$(head -c 200 "$hello" >"$work/trunc.elf"; echo "$work/trunc.elf")"
expect_usage_error "--cpus 0" "cpus '0'" run --cpus 0 "$hello"
expect_usage_error "--cpus above KVM's limit" "KVM supports at most" run --cpus 4096 "$hello"
expect_usage_error "--mem unparsable" "mem '12Q'" run --mem 12Q "$hello"
expect_usage_error "--mem zero" "mem '0'" run --mem 0 "$hello"
expect_usage_error "--mem larger than the host" "more than the host" run --mem 64T "$hello"
expect_usage_error "unknown option" "unknown option '--frobnicate'" run --frobnicate "$hello"
expect_usage_error "option without its value" "needs a value" run "$hello" --mem
printf '[machine]\ncpus = 2\nfrobs = 3\n' >"$work/bad.ini"
expect_usage_error "unknown config key" "bad.ini:3: unknown key 'frobs'" run --config "$work/bad.ini" "$hello"
printf '[machine]\nmem = lots\n' >"$work/badval.ini"
expect_usage_error "bad config value" "badval.ini:2: mem 'lots'" run --config "$work/badval.ini" "$hello"
expect_usage_error "missing config file" "nope.ini: No such file" run --config "$work/nope.ini" "$hello"

# Topology and caches (issue: CPU topology and CPUID).
expect_usage_error "--smp product is not cpus" "sockets \\(2\\) \\* cores \\(2\\) \\* threads \\(2\\) = 8, not cpus \\(6\\)" \
	run --smp cpus=6,sockets=2,cores=2,threads=2 "$hello"
expect_usage_error "--smp not divisible" "6 cpus cannot be split" run --smp cpus=6,cores=4 "$hello"
expect_usage_error "--smp zero count" "cores '0'" run --smp cpus=4,cores=0 "$hello"
expect_usage_error "--smp negative count" "threads '-2'" run --smp threads=-2 "$hello"
expect_usage_error "--smp unknown key" "unknown key 'dies'" run --smp cpus=4,dies=2 "$hello"
expect_usage_error "--smp above KVM's vCPU limit" "KVM supports at most" run --smp sockets=64,cores=64 "$hello"
expect_usage_error "unknown --l3-cache value" "l3-cache 'maybe'" run --l3-cache maybe "$hello"
expect_usage_error "unknown --cpu-vendor" "cpu-vendor 'via'" run --cpu-vendor via "$hello"
expect_usage_error "cache size not a power of two" "l3-size '3M'" run --l3-size 3M "$hello"
expect_usage_error "cache size not a size" "l2-size 'big'" run --l2-size big "$hello"
printf '[cpu]\nl3-cache = sometimes\n' >"$work/l3.ini"
expect_usage_error "bad l3-cache in a config" "l3.ini:2: l3-cache 'sometimes'" run --config "$work/l3.ini" "$hello"
rm -f "$work"/*.elf "$work"/*.ini

# Linux bzImages (the x86 boot protocol): the distribution's kernel and
# patched copies of it.
# A copy of FILE with bytes patched at an offset: printf-escaped bytes.
patched_copy() {
	local src=$1 out=$work/$2 offset=$3 bytes=$4
	cp "$src" "$out"
	printf '%b' "$bytes" | dd of="$out" bs=1 seek="$offset" conv=notrunc status=none
	echo "$out"
}
# Random bytes, with neither ELF's magic (offset 0) nor "HdrS" (0x202).
head -c 8192 /dev/urandom >"$work/random.bin"
printf 'XXXX' | dd of="$work/random.bin" bs=1 seek=0 conv=notrunc status=none
printf 'XXXX' | dd of="$work/random.bin" bs=1 seek=$((0x202)) conv=notrunc status=none
expect_usage_error "kernel of random bytes" "not an ELF file nor a Linux bzImage" run "$work/random.bin"
expect_usage_error "--initrd with an ELF kernel" "only a Linux bzImage takes an initrd" \
	run --initrd "$work/random.bin" "$hello"
linux=$(find /boot -maxdepth 1 -name 'vmlinuz-*' 2>/dev/null | sort | tail -n 1)
if [ -n "$linux" ] && [ -r "$linux" ]; then
	expect_usage_error "truncated bzImage" "runs past the end of the file.*truncated" \
		run --mem 128M "$(head -c 4096 "$linux" >"$work/trunc.bzimage"; echo "$work/trunc.bzimage")"
	# version (0x206, u16) = 0x020b: boot protocol 2.11
	expect_usage_error "boot protocol too old" "boot protocol 2.11 is too old: vmm needs 2.12" \
		run --mem 128M "$(patched_copy "$linux" old.bzimage $((0x206)) '\013\002')"
	expect_usage_error "bzImage needs more than --mem" "mem: the kernel needs RAM up to .*use --mem [0-9]+M or more" \
		run --mem 64M "$linux"
	# init_size (0x260, u32) = 16 MiB: the kernel runs in [16, 32) MiB, which
	# leaves 32 MiB of a 64 MiB guest for an initrd; this one is 48 MiB.
	truncate -s 48M "$work/big.initrd"
	expect_usage_error "initrd larger than --mem leaves" "initrd: initrd is 50331648 bytes .*only 33554432 fit" \
		run --mem 64M --initrd "$work/big.initrd" "$(patched_copy "$linux" small.bzimage $((0x260)) '\000\000\000\001')"
	expect_usage_error "missing initrd" "initrd: .*nope.img: No such file" \
		run --mem 128M --initrd "$work/nope.img" "$linux"
	long=$(head -c 3000 /dev/zero | tr '\0' 'x')
	expect_usage_error "command line longer than cmdline_size" "cmdline: command line is 3000 characters, the kernel takes at most [0-9]+" \
		run --mem 128M --cmdline "$long" "$linux"
else
	echo "# skipped: bzImage cases (no /boot/vmlinuz-*)"
fi
rm -f "$work"/*.bin "$work"/*.bzimage "$work"/*.initrd

# No /dev/kvm: hide it in a private mount namespace and check vmm says what to do.
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	# shellcheck disable=SC2016 # $0 and $1 are the inner shell's
	out=$(unshare -m sh -c 'mount -t tmpfs none /dev && exec "$0" run "$1"' "$VMM" "$hello" 2>&1)
	status=$?
	tap_check "bad input: no /dev/kvm" "$([ "$status" -eq 2 ] && grep -q '/dev/kvm: No such file.*tests/rig/run' <<<"$out"; echo $?)" \
		"status $status, output: $out"
else
	echo "# skipped: no /dev/kvm (cannot make a private mount namespace here)"
fi

# No /dev/kvm and no way to run the rig: the rig names what to install.
out=$(PATH=/nonexistent /bin/bash "$ROOT/tests/rig/run" --nested -- true 2>&1)
status=$?
tap_check "bad input: no KVM and no QEMU for the rig" \
	"$([ "$status" -eq 125 ] && grep -q 'install: apt-get install qemu-system-x86' <<<"$out"; echo $?)" \
	"status $status, output: $out"
