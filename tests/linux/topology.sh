# shellcheck shell=bash
# Sourced by tests/linux/run: what a row's topology means for what a Linux
# 6.1 guest shows in sysfs and debugfs, derived from the topology alone, and
# the checks against what the guest printed. Uses run's expect and skip.

# No forks in here: a fork costs tens of milliseconds in the rig's L1. The
# helpers return through namerefs.
# fmt_list VAR N...: sorted CPU numbers as Linux prints a cpulist (0-1,4).
fmt_list() {
	local -n into=$1
	shift
	local out='' start='' prev='' x
	for x in "$@"; do
		if [ -z "$start" ]; then start=$x
		elif ((x != prev + 1)); then
			out+="${out:+,}$start"; ((prev == start)) || out+="-$prev"
			start=$x
		fi
		prev=$x
	done
	if [ -n "$start" ]; then out+="${out:+,}$start"; ((prev == start)) || out+="-$prev"; fi
	into=$out
}
# group VAR ARRAY I: the CPUs whose ARRAY value equals CPU I's, as a
# cpulist; count VAR ARRAY I: how many.
group() {
	local -n key=$2
	local j members=()
	for ((j = 0; j < ncpu; j++)); do [ "${key[j]}" = "${key[$3]}" ] && members+=("$j"); done
	fmt_list "$1" "${members[@]}"
}
count() {
	local -n into=$1 key=$2
	local j c=0
	for ((j = 0; j < ncpu; j++)); do [ "${key[j]}" = "${key[$3]}" ] && c=$((c + 1)); done
	into=$c
}
# kv VAR LINE KEY: the value of KEY=VALUE among LINE's words.
kv() {
	local -n into=$1
	local w
	into=''
	for w in $2; do case $w in "$3="*) into=${w#*=}; return ;; esac; done
}
# domains VAR SMT-SPAN LLC-SPAN: the sched domain names Linux keeps, a
# level being kept when it spans more CPUs than the one below (SMT: the
# core's threads Linux sees; MC: the LLC; DIE: the node, every CPU here).
domains() {
	local -n into=$1
	local names='' prev=1
	(($2 > prev)) && names+=",SMT" && prev=$2
	(($3 > prev)) && names+=",MC" && prev=$3
	((ncpu > prev)) && names+=",DIE"
	names=${names#,}
	# shellcheck disable=SC2034 # a nameref
	into=${names:--}
}

REASON_SMT="AMD vendor without TopoExt: Linux 6.1 takes threads per core from 0x8000001E only with TopoExt (notes/cpuid-and-linux.md); it sees one thread per core"
REASON_LLC="AMD family 17h models 00h-1Fh: Linux 6.1 takes APIC ID >> 3 as the LLC whatever the cache leaves say (vmm warns; --cpu-vendor intel rows show the intent)"

# A topology aspect: the intent (from the row's configuration) and what
# Linux derives from it; a difference is checked as Linux derives it and
# reported as a SKIP of the intent, with the reason.
aspect() { # NAME INTENT LINUX GOT REASON
	if [ "$2" = "$3" ]; then
		expect "$1: $2" "$2" "$4"
	else
		expect "$1, as Linux derives it: $3" "$3" "$4"
		skip "$1: $2" "$5"
	fi
}

topology_checks() { # NAME SMP VENDOR(GenuineIntel|AuthenticAMD) L3 OUT GUEST-LINE
	local name=$1 smp=$2 vendor=$3 l3=$4 out=$5 guest=$6
	local S C T i s c t tb=0 cb=0 v
	[[ $smp =~ sockets=([0-9]+) ]] && S=${BASH_REMATCH[1]}
	[[ $smp =~ cores=([0-9]+) ]] && C=${BASH_REMATCH[1]}
	[[ $smp =~ threads=([0-9]+) ]] && T=${BASH_REMATCH[1]}
	ncpu=$((S * C * T))
	while ((1 << tb < T)); do tb=$((tb + 1)); done
	while ((1 << cb < C)); do cb=$((cb + 1)); done
	local family model topoext
	kv family "$guest" family
	kv model "$guest" model
	kv topoext "$guest" topoext
	local amd_early=0 smt_visible=1
	if [ "$vendor" = AuthenticAMD ]; then
		[ "$topoext" = 1 ] || smt_visible=0
		[ "$family" = 23 ] && [ "$model" -le 31 ] && amd_early=1
	fi
	# Per CPU, in vmm's order (socket, core, thread), which is Linux's CPU
	# numbering (the MADT's order): socket, global core, APIC ID (each
	# field ceil(log2(count)) bits wide), the LLC meant and the LLC Linux
	# derives.
	# shellcheck disable=SC2034 # read through group's and count's namerefs
	local cpu_sock=() cpu_core=() cpu_apic=() cpu_llc=() cpu_llc_intent=()
	for ((i = 0; i < ncpu; i++)); do
		s=$((i / (C * T))) c=$((i / T % C)) t=$((i % T))
		cpu_sock[i]=$s cpu_core[i]=$((s * C + c))
		cpu_apic[i]=$(((s << (cb + tb)) | (c << tb) | t))
		if [ "$l3" = on ]; then cpu_llc_intent[i]=$s; else cpu_llc_intent[i]=${cpu_core[i]}; fi
		# shellcheck disable=SC2034 # read through group's and count's namerefs
		if [ "$amd_early" = 1 ]; then cpu_llc[i]=$((cpu_apic[i] >> 3)); else cpu_llc[i]=${cpu_llc_intent[i]}; fi
	done
	local -A lines=()
	local line
	while IFS= read -r line; do
		[[ $line =~ vmmtest:\ cpu=([0-9]+)\  ]] && lines[${BASH_REMATCH[1]}]=$line
	done <"$out"

	local want_pkg='' want_cores='' want_thr='' linux_thr='' want_l3='' linux_l3='' w l3list
	local want_dom='' linux_dom='' got_pkg='' got_cores='' got_thr='' got_l3='' got_dom=''
	local intent_llc='' linux_llc='' sock_list core_list llc_list intent_list n_llc n_intent
	local smt_span=1
	[ "$smt_visible" = 1 ] && smt_span=$T
	for ((i = 0; i < ncpu; i++)); do
		line=${lines[$i]:-}
		group sock_list cpu_sock "$i"
		group core_list cpu_core "$i"
		group llc_list cpu_llc "$i"
		group intent_list cpu_llc_intent "$i"
		intent_llc+=" $intent_list" linux_llc+=" $llc_list"
		want_pkg+=" ${cpu_sock[i]}" want_cores+=" $sock_list" want_thr+=" $core_list"
		if [ "$smt_visible" = 1 ]; then linux_thr+=" $core_list"; else linux_thr+=" $i"; fi
		kv v "$line" pkg; got_pkg+=" $v"
		kv v "$line" cores; got_cores+=" $v"
		kv v "$line" thr; got_thr+=" $v"
		# The L3: Intel's from leaf 4 (the socket's threads); AMD's index3
		# is Linux's LLC mask.
		if [ "$l3" = on ]; then
			want_l3+=" $sock_list"
			if [ "$vendor" = AuthenticAMD ]; then linux_l3+=" $llc_list"; else linux_l3+=" $sock_list"; fi
		else
			want_l3+=" none" linux_l3+=" none"
		fi
		kv v "$line" cache
		l3list=none
		for w in ${v//\// }; do
			case $w in 3u:*) l3list=${w#3u:} ;; esac
		done
		got_l3+=" $l3list"
		count n_intent cpu_llc_intent "$i"
		count n_llc cpu_llc "$i"
		domains v "$T" "$n_intent"; want_dom+=" $v"
		domains v "$smt_span" "$n_llc"; linux_dom+=" $v"
		kv v "$line" dom; got_dom+=" $v"
	done
	aspect "$name: physical_package_id" "${want_pkg# }" "${want_pkg# }" "${got_pkg# }"
	aspect "$name: core_siblings_list" "${want_cores# }" "${want_cores# }" "${got_cores# }"
	aspect "$name: thread_siblings_list" "${want_thr# }" "${linux_thr# }" "${got_thr# }" "$REASON_SMT"
	aspect "$name: L3 (cache/index3) shared_cpu_list" "${want_l3# }" "${linux_l3# }" "${got_l3# }" "$REASON_LLC"
	local why=''
	[ "$T" -eq 1 ] || [ "$smt_visible" = 1 ] || why=$REASON_SMT
	[ "$intent_llc" = "$linux_llc" ] || why+="${why:+; }$REASON_LLC"
	aspect "$name: sched domains" "${want_dom# }" "${linux_dom# }" "${got_dom# }" "$why"
	# The point of --l3-cache for the scheduler, in so many words: the
	# cores share an LLC domain (MC) exactly when the L3 is exposed.
	local want_mc=no linux_mc=no got_mc=no intent
	[[ " ${want_dom# } " == *MC* ]] && want_mc=yes
	[[ " ${linux_dom# } " == *MC* ]] && linux_mc=yes
	[[ " ${got_dom# } " == *MC* ]] && got_mc=yes
	if [ "$want_mc" = yes ]; then intent="the cores share an LLC (MC) domain"
	else intent="the cores do not share an LLC (MC) domain"; fi
	if [ "$C" -gt 1 ]; then
		if [ "$want_mc" = "$linux_mc" ]; then
			expect "$name: $intent" "MC: $want_mc" "MC: $got_mc"
		else
			skip "$name: $intent (seen: MC $got_mc, ${got_dom# })" "$why"
		fi
	fi
}

