#!/usr/bin/env bash
# vmm's ACPI tables checked by an independent implementation, ACPICA's iasl.
# The unit tests' dump case (tests/unit/test_acpi.c) writes every table of
# two machines (2s3c1t, and 1s300c1t with x2APIC structures). Each must
# disassemble with no error, warning or bad checksum, and compile back to
# the same bytes (except the checksum and the compiler ID and revision, which
# iasl puts its own in); the DSDT compile also checks \_S5_ against ACPICA's
# table of predefined names. iasl cannot disassemble an RSDP, so the RSDP is
# compiled from its fields instead and must come out byte for byte, both
# checksums included.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unit=$BUILD/tests/unit
# What iasl says when something is wrong with a table.
complaints='incorrect checksum|error|warning|\*\*\*\*|invalid|unknown|not contain a valid'

if ! command -v iasl >/dev/null; then
	tap_not_ok "acpi: iasl" "iasl not found: make deps installs acpica-tools"
	exit 0
fi
if [ ! -x "$unit" ]; then
	tap_not_ok "acpi: dump" "$unit missing: make $unit"
	exit 0
fi
out=$(ACPI_DUMP_DIR=$work CK_RUN_SUITE=acpi CK_RUN_CASE=dump "$unit" 2>&1)
status=$?
count=$(find "$work" -name '*.dat' | wc -l)
# Six tables a machine: RSDP, XSDT, FACP, FACS, DSDT, APIC.
tap_check "acpi: tables dumped" "$([ "$status" -eq 0 ] && [ "$count" -eq 12 ]; echo $?)" \
	"unit exit status $status, $count tables" "$out"

# Byte offsets (1-based, as cmp -l prints them) iasl may change on compiling
# a table with a standard header: the checksum (9) and the compiler ID and
# revision (28-35).
differences() {
	local ours=$1 theirs=$2 header=$3
	cmp -l "$ours" "$theirs" 2>&1 |
		awk -v header="$header" '!(header && ($1 == 10 || ($1 >= 29 && $1 <= 36)))'
}

# check_table FILE.dat: disassemble, look for complaints, compile back, compare.
check_table() {
	local dat=$1 name header=1
	name=$(basename "$dat" .dat)
	case $name in *-facs) header=0 ;; esac # the FACS has no standard header
	local dsl=${dat%.dat}.dsl why=() log
	log=$(cd "$work" && iasl -d "$dat" 2>&1) || why+=("iasl -d failed")
	[ -s "$dsl" ] || why+=("no disassembly")
	local said
	said=$(cat - "$dsl" <<<"$log" 2>/dev/null | grep -iE "$complaints" | grep -vE '0 Errors, 0 Warnings')
	[ -z "$said" ] || why+=("iasl: $(head -3 <<<"$said")")
	log=$(cd "$work" && iasl -p "$work/re-$name" "$dsl" 2>&1)
	grep -qE 'Compilation successful\. +0 Errors, +0 Warnings' <<<"$log" ||
		why+=("compiling the disassembly: $(tail -3 <<<"$log")")
	local diff
	diff=$(differences "$dat" "$work/re-$name.aml" "$header")
	[ -z "$diff" ] || why+=("recompiled bytes differ (offset+1, ours, iasl's, octal): $(head -5 <<<"$diff")")
	if [ ${#why[@]} -eq 0 ]; then tap_ok "acpi: $name"; else tap_not_ok "acpi: $name" "${why[@]}"; fi
}

# The RSDP (ACPI 6.3, 5.2.5.3) as an iasl data-table source, from our bytes.
rsdp_source() {
	local f=$1
	cat <<EOF
[0008]                          Signature : "$(dd if="$f" bs=1 skip=0 count=8 status=none)"
[0001]                           Checksum : 00
[0006]                             Oem ID : "$(dd if="$f" bs=1 skip=9 count=6 status=none)"
[0001]                           Revision : $(od -An -tx1 -j 15 -N 1 "$f" | tr -d ' ')
[0004]                       RSDT Address : $(od -An -tx4 -j 16 -N 4 "$f" | tr -d ' ')
[0004]                             Length : $(od -An -tx4 -j 20 -N 4 "$f" | tr -d ' ')
[0008]                       XSDT Address : $(od -An -tx8 -j 24 -N 8 "$f" | tr -d ' ')
[0001]                  Extended Checksum : 00
[0003]                           Reserved : 000000
EOF
}

check_rsdp() {
	local dat=$1 name why=() log
	name=$(basename "$dat" .dat)
	rsdp_source "$dat" >"$work/$name.asl"
	log=$(cd "$work" && iasl -p "$work/re-$name" "$work/$name.asl" 2>&1)
	grep -qE 'Compilation successful\. +0 Errors, +0 Warnings' <<<"$log" ||
		why+=("compiling the RSDP: $(tail -3 <<<"$log")")
	local diff
	diff=$(differences "$dat" "$work/re-$name.aml" 0)
	[ -z "$diff" ] || why+=("iasl's RSDP differs (offset+1, ours, iasl's, octal): $(head -5 <<<"$diff")")
	if [ ${#why[@]} -eq 0 ]; then tap_ok "acpi: $name"; else tap_not_ok "acpi: $name" "${why[@]}"; fi
}

for dat in "$work"/*.dat; do
	[ -e "$dat" ] || continue
	case $dat in
	*-rsdp.dat) check_rsdp "$dat" ;;
	*) check_table "$dat" ;;
	esac
done
