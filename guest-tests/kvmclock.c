/* kvmclock: the guest's kvmclock on every CPU, across a pause/resume of the
 * whole VM, before and after the guest moves its pvclock records. The
 * regression test for seed 001: on pause, a VMM that derives the guest's
 * clock from the guest's pvclock records must read each vCPU's
 * MSR_KVM_SYSTEM_TIME(_NEW) at that moment. QEMU cached it; a guest that
 * moved its record (a WRMSR KVM handles in the kernel, with no exit to user
 * space: invisible to a VMM that does not ask) then had its time taken from
 * the stale record and jumped on resume.
 *
 * 1. CPUID: the KVM signature and kvmclock (CLOCKSOURCE2, else CLOCKSOURCE);
 *    skipped cleanly without them.
 * 2. Every CPU points the MSR at its own record (a 64-byte slot of a page).
 * 3. lib/pvclock.c reads the records (version-checked, LFENCE;RDTSC).
 * 4. The clock never goes backwards on one CPU, nor between CPUs (a warp
 *    check: CPUs take turns reading and publishing the latest time under
 *    a lock). Where KVM does not set PVCLOCK_TSC_STABLE_BIT the pvclock
 *    ABI allows small steps back (struct order): seen, they make a SKIP.
 * 5. A pause/resume of PAUSE_MS through the test device: the guest must not
 *    see the paused interval (less than PAUSE_TOLERANCE_NS), nor time going
 *    backwards on any CPU. Result pause_jump_ns.
 * 6. Every CPU moves its record to a second page, then fills the old one
 *    with garbage that reads as ~206 years; steps 4 and 5 again (result
 *    pause_jump2_ns). A VMM still reading the old record (and taking the
 *    later of it and KVM_GET_CLOCK) makes the clock jump by years: FAIL.
 * 7. Result cpus_checked.
 *
 * Run the VMM with --kvmclock-guest-view where KVM reports a stable clock,
 * or it never reads the guest's records and step 6 cannot tell.
 *
 * References: Documentation/virt/kvm/x86/msr.rst and cpuid.rst (KVM);
 * arch/x86/include/asm/pvclock-abi.h and arch/x86/kernel/pvclock.c (Linux). */
#include "libguest.h"
#include "pvclock.h"

#define BOOT_TIMEOUT_MS 2000
#define AP_READY_TIMEOUT_US 1000000
#define NS_PER_MS ((uint64_t)1000000)
#define NS_PER_S ((uint64_t)1000000000)

/* The monotonic check runs each CPU for a few thousand reads or a span of
 * its own clock, whichever ends first: a read costs ~200 ns in the nested
 * rig (L1 under TCG) but 50-70 us on the development machine (itself a
 * nested guest, where RDTSC evidently exits). The warp check runs for its
 * span: where reads are cheap, a few thousand turns per CPU fit in one
 * time slice, and CPUs that do not run at the same time do not compare
 * their clocks (in the rig, 2000 turns per CPU under the lock alone made 3
 * comparisons); its read count only bounds a clock that does not advance.
 * The repeat after the move is a quarter as long. */
#define MONO_SPAN_NS (100 * NS_PER_MS)
#define MONO_MAX_READS 4000	/* per CPU */
#define WARP_SPAN_NS (200 * NS_PER_MS)
#define WARP_MAX_READS 1000000	/* per CPU */
#define QUICK_DIVISOR 4

/* The pause, and how much of it the guest may see. What the guest may see
 * is the VMM's own work around the pause while the guest's clock runs:
 * the exit, kicking and parking every vCPU, KVM_GET_CLOCK; then resuming.
 * Measured: 0.5-8 ms on the development machine, 3-16 ms in the nested rig
 * under TCG. 100 ms leaves room for a slower, overcommitted host, and is a
 * third of the pause, so a VMM that lets the paused interval count
 * (>= 300 ms) fails, and one that takes a stale record's time (years)
 * fails by far. */
#define PAUSE_MS 300
#define PAUSE_TOLERANCE_NS (100 * NS_PER_MS)
_Static_assert(PAUSE_TOLERANCE_NS < PAUSE_MS * NS_PER_MS, "the tolerance must be below the pause");

/* The old records' fill: version 0x5a5a5a5a is even (reads as consistent),
 * tsc_timestamp 0x5a5a... is ahead of any TSC here (a reader that counts
 * a TSC behind the stamp as no time, as the VMM's does, gets system_time),
 * system_time 0x5a5a5a5a5a5a5a5a ns is about 206 years. */
#define GARBAGE 0x5a
#define GARBAGE_NS 0x5a5a5a5a5a5a5a5aULL

/* One record per CPU, each in its own 64-byte slot: 4-byte aligned, never
 * across a page. 64 slots of 64 bytes: one page per array. */
struct pvclock_slot {
	struct pvclock_vcpu_time_info t;
} __attribute__((aligned(64)));

static struct pvclock_slot first_area[MAX_CPUS] __attribute__((aligned(4096)));
static struct pvclock_slot second_area[MAX_CPUS] __attribute__((aligned(4096)));

/* How a sequence of readings went. A step back between two readings whose
 * records both had PVCLOCK_TSC_STABLE_BIT breaks what the pvclock ABI
 * promises. Without it, KVM (no master clock: the host's clocksource is
 * not the TSC, as in the nested rig under TCG) refreshes each vCPU's
 * record from the host's clock on its own, and small steps back, on one
 * CPU or between CPUs, are allowed: Linux's pvclock_clocksource_read
 * clamps them with a global last value. They are counted apart. */
struct order {
	uint64_t reads, unstable_reads; /* unstable: no PVCLOCK_TSC_STABLE_BIT */
	uint64_t back, max_back;        /* both stable: a failure */
	uint64_t allowed, max_allowed;  /* either unstable: what the ABI allows */
};

/* One reading t (stable: its record's flag) after *latest (*latest_stable). */
static void order_see(struct order *o, uint64_t *latest, bool *latest_stable, uint64_t t,
		      bool stable)
{
	o->reads++;
	o->unstable_reads += !stable;
	if (t >= *latest) {
		*latest = t;
		*latest_stable = stable;
	} else if (stable && *latest_stable) {
		o->back++;
		if (*latest - t > o->max_back)
			o->max_back = *latest - t;
	} else {
		o->allowed++;
		if (*latest - t > o->max_allowed)
			o->max_allowed = *latest - t;
	}
}

static void order_add(struct order *sum, const struct order *o)
{
	sum->reads += o->reads;
	sum->unstable_reads += o->unstable_reads;
	sum->back += o->back;
	sum->allowed += o->allowed;
	if (o->max_back > sum->max_back)
		sum->max_back = o->max_back;
	if (o->max_allowed > sum->max_allowed)
		sum->max_allowed = o->max_allowed;
}

/* What each CPU saw, by the runtime's CPU index; checked on the BSP. */
struct cpu_state {
	uint64_t msr_written, msr_read;
	uint32_t version; /* of the record just after the WRMSR: KVM filled it */
	uint8_t flags;
	uint64_t before_move, after_move; /* time from the old record, then the new */
	bool before_move_stable, after_move_stable;
	struct order mono; /* the monotonic check */
	uint64_t before_pause, after_pause;
};

static struct kvmclock_cpuid kc;
static unsigned ncpus;
static const volatile struct pvclock_vcpu_time_info *area[MAX_CPUS]; /* each CPU's current record */
static struct cpu_state st[MAX_CPUS];
static struct pvclock_slot *target; /* the array the enable job points the MSR at */

static uint64_t now(void)
{
	return pvclock_read_ns(area[smp_id()], NULL);
}

/* A reading, and whether its record had PVCLOCK_TSC_STABLE_BIT. */
static uint64_t read_ns(const volatile struct pvclock_vcpu_time_info *p, bool *stable)
{
	uint8_t flags;
	uint64_t t = pvclock_read_ns(p, &flags);
	*stable = flags & PVCLOCK_TSC_STABLE_BIT;
	return t;
}

/* ns as "S.mmm s" or "M.uuu ms" for messages. */
static const char *fmt_ns(char *buf, size_t size, uint64_t ns)
{
	if (ns >= NS_PER_S)
		snprintf(buf, size, "%lu.%03lu s", ns / NS_PER_S, ns % NS_PER_S / NS_PER_MS);
	else
		snprintf(buf, size, "%lu.%03lu ms", ns / NS_PER_MS, ns % NS_PER_MS / 1000);
	return buf;
}

/* Runs fn on every online CPU at the same time (the APs, then the BSP,
 * meet at a barrier first) and returns when all have finished. */
static void (*volatile job)(void);
static volatile uint32_t job_started, job_finished;

static void job_run(void *unused)
{
	(void)unused;
	atomic_inc(&job_started);
	while (atomic_read(&job_started) < ncpus)
		cpu_relax();
	job();
	atomic_inc(&job_finished);
}

static void on_all_cpus(void (*fn)(void))
{
	job = fn;
	atomic_set(&job_started, 0);
	atomic_set(&job_finished, 0);
	for (unsigned i = 1; i < ncpus; i++) {
		/* An AP counts as online a moment before it takes calls. */
		uint64_t t0 = rdtsc();
		while (!on_cpu_async(i, job_run, NULL)) {
			if (delay_tsc_to_us(rdtsc() - t0) > AP_READY_TIMEOUT_US) {
				report(false, "CPU %u takes calls", i);
				exit(report_summary());
			}
			cpu_relax();
		}
	}
	job_run(NULL);
	while (atomic_read(&job_finished) < ncpus)
		cpu_relax();
}

/* Step 2 (target = first_area) and step 6 (target = second_area). */
static void point_msr_job(void)
{
	unsigned i = smp_id();
	struct cpu_state *s = &st[i];
	const volatile struct pvclock_vcpu_time_info *old = area[i];
	if (old)
		s->before_move = read_ns(old, &s->before_move_stable);
	s->msr_written = (uint64_t)(uintptr_t)&target[i] | KVM_SYSTEM_TIME_ENABLE;
	wrmsr(kc.msr, s->msr_written); /* handled inside KVM: no exit to the VMM */
	s->msr_read = rdmsr(kc.msr);
	area[i] = &target[i].t;
	s->version = area[i]->version;
	if (s->version) { /* else KVM did not fill it: the BSP reports that */
		s->after_move = pvclock_read_ns(area[i], &s->flags);
		s->after_move_stable = s->flags & PVCLOCK_TSC_STABLE_BIT;
	}
	if (old) /* only now: KVM no longer writes the old record */
		memset((void *)(uintptr_t)old, GARBAGE, sizeof(struct pvclock_slot));
}

static uint64_t span_ns, max_reads; /* for the job running */

static void mono_job(void)
{
	struct cpu_state *s = &st[smp_id()];
	const volatile struct pvclock_vcpu_time_info *p = area[smp_id()];
	s->mono = (struct order){ 0 };
	bool stable, latest_stable;
	uint64_t start = read_ns(p, &latest_stable), latest = start;
	while (s->mono.reads + 1 < max_reads && latest - start < span_ns) {
		uint64_t t = read_ns(p, &stable);
		order_see(&s->mono, &latest, &latest_stable, t, stable);
	}
}

/* The warp check (kvm-unit-tests' kvmclock_test): the latest time any CPU
 * read, under a lock. A CPU reads its own clock holding the lock, so each
 * reading is taken after the one published before it: one lower is a
 * warp. Readings that follow another CPU's are the ones that compare two
 * CPUs' clocks; there must be some. CPUs take turns: one that published
 * waits for another to, for at most TURN_WAIT_NS (the lock alone lets the
 * CPU that just released it take it again, turn after turn; and on an
 * overcommitted host the others may not be running at all). */
#define TURN_WAIT_NS (1 * NS_PER_MS)

static struct spinlock warp_lock = SPINLOCK_INIT;
static struct order warp; /* under warp_lock */
static uint64_t warp_latest, warp_handoffs;
static bool warp_latest_stable;
static volatile unsigned warp_last_cpu, warp_cpus_done;

static void warp_job(void)
{
	unsigned me = smp_id();
	const volatile struct pvclock_vcpu_time_info *p = area[me];
	bool stable;
	uint64_t start = read_ns(p, &stable), t = start;
	for (uint64_t n = 0; n < max_reads && t - start < span_ns; n++) {
		spin_lock(&warp_lock);
		t = read_ns(p, &stable);
		if (warp.reads && warp_last_cpu != me)
			warp_handoffs++;
		order_see(&warp, &warp_latest, &warp_latest_stable, t, stable);
		warp_last_cpu = me;
		spin_unlock(&warp_lock);

		for (unsigned k = 1; warp_last_cpu == me && warp_cpus_done < ncpus - 1; k++) {
			cpu_relax();
			if (k % 64 == 0 && pvclock_read_ns(p, NULL) - t >= TURN_WAIT_NS)
				break;
		}
	}
	spin_lock(&warp_lock);
	warp_cpus_done++;
	spin_unlock(&warp_lock);
}

/* PASS: no step back at all. FAIL: one between stable records, or (warp
 * check) no reading compared with another CPU's. SKIP: only steps the ABI
 * allows, between records without PVCLOCK_TSC_STABLE_BIT. */
static void report_order(const struct order *o, bool compared, const char *what, const char *detail)
{
	char unstable[128] = "", back[48] = "";
	if (o->unstable_reads)
		snprintf(unstable, sizeof(unstable),
			 "; %lu readings without PVCLOCK_TSC_STABLE_BIT, %lu steps back among them "
			 "(up to %lu ns)",
			 o->unstable_reads, o->allowed, o->max_allowed);
	if (o->back)
		snprintf(back, sizeof(back), " (up to %lu ns)", o->max_back);
	if (o->back || !compared || !o->allowed)
		report(!o->back && compared, "%s: %lu steps back%s %s%s", what, o->back, back, detail,
		       unstable);
	else
		report_skip("%s: only steps back the pvclock ABI allows without "
			    "PVCLOCK_TSC_STABLE_BIT (KVM has no master clock here) %s%s",
			    what, detail, unstable);
}

static void check_monotonic(const char *when, unsigned divisor)
{
	char b[32], c[32], what[96], detail[160];
	span_ns = MONO_SPAN_NS / divisor;
	max_reads = MONO_MAX_READS / divisor;
	uint64_t t0 = now(), fewest = ~0ULL;
	on_all_cpus(mono_job);
	struct order sum = { 0 };
	for (unsigned i = 0; i < ncpus; i++) {
		const struct order *o = &st[i].mono;
		order_add(&sum, o);
		if (o->reads + 1 < fewest)
			fewest = o->reads + 1;
		if (o->back || o->allowed)
			printf("kvmclock: CPU %u went back %lu + %lu times (stable + not) in %lu reads, "
			       "by up to %lu + %lu ns\n",
			       i, o->back, o->allowed, o->reads + 1, o->max_back, o->max_allowed);
	}
	snprintf(what, sizeof(what), "%s: monotonic on each of %u CPUs", when, ncpus);
	snprintf(detail, sizeof(detail),
		 "in at least %lu consecutive reads per CPU, for up to %s (took %s)", fewest,
		 fmt_ns(b, sizeof(b), span_ns), fmt_ns(c, sizeof(c), now() - t0));
	report_order(&sum, true, what, detail);

	if (ncpus < 2) {
		report_skip("%s: warp check across CPUs (one CPU)", when);
		return;
	}
	span_ns = WARP_SPAN_NS / divisor;
	max_reads = WARP_MAX_READS / divisor;
	warp = (struct order){ 0 };
	warp_latest = warp_handoffs = 0;
	warp_latest_stable = true;
	warp_last_cpu = warp_cpus_done = 0;
	t0 = now();
	on_all_cpus(warp_job);
	snprintf(what, sizeof(what), "%s: no warp between CPUs", when);
	snprintf(detail, sizeof(detail), "in %lu reads, %lu of them after another CPU's (took %s)",
		 warp.reads, warp_handoffs, fmt_ns(b, sizeof(b), now() - t0));
	report_order(&warp, warp_handoffs > 0, what, detail);
}

static void before_pause_job(void)
{
	st[smp_id()].before_pause = now();
}

static void after_pause_job(void)
{
	st[smp_id()].after_pause = now();
}

/* Step 5: false if the VMM does not pause (no VMM behind the test device). */
static bool check_pause(const char *when, const char *result)
{
	char b[32], c[32];
	on_all_cpus(before_pause_job);
	uint64_t t0 = now();
	uint32_t status = testdev_pause(PAUSE_MS);
	uint64_t t1 = now();
	on_all_cpus(after_pause_job);
	if (status == TESTDEV_NO_VMM) {
		report_skip("%s: no VMM answered the pause request (QEMU?)", when);
		return false;
	}
	if (!report(status == TESTDEV_OK, "%s: VMM took the request for a %u ms pause (status %u)",
		    when, PAUSE_MS, status))
		return false;

	report(t1 >= t0, "%s: the clock did not go backwards across the pause (%lu -> %lu ns%s%s)",
	       when, t0, t1, t1 < t0 ? ", back by " : "",
	       t1 < t0 ? fmt_ns(b, sizeof(b), t0 - t1) : "");
	uint64_t jump = t1 >= t0 ? t1 - t0 : 0;
	const char *why = "";
	if (t1 >= GARBAGE_NS)
		why = ": the clock restored on resume is the old records' garbage: the VMM read "
		      "a pvclock record the guest had moved away from (seed 001: a cached "
		      "MSR_KVM_SYSTEM_TIME)";
	else if (jump >= PAUSE_MS * NS_PER_MS)
		why = ": the guest saw the paused interval";
	report(jump < PAUSE_TOLERANCE_NS,
	       "%s: the guest's clock advanced %s across a %u ms pause (tolerance %lu ms)%s", when,
	       fmt_ns(b, sizeof(b), jump), PAUSE_MS, PAUSE_TOLERANCE_NS / NS_PER_MS, why);
	testdev_result(result, jump);

	unsigned good = 0;
	for (unsigned i = 0; i < ncpus; i++) {
		const struct cpu_state *s = &st[i];
		if (s->after_pause >= s->before_pause)
			good++;
		printf("kvmclock: CPU %u across the pause: %lu -> %lu ns (%s%s)\n", i,
		       s->before_pause, s->after_pause, s->after_pause >= s->before_pause ? "+" : "-",
		       fmt_ns(c, sizeof(c),
			      s->after_pause >= s->before_pause ? s->after_pause - s->before_pause
								: s->before_pause - s->after_pause));
	}
	report(good == ncpus, "%s: the clock did not go backwards across the pause on %u of %u CPUs",
	       when, good, ncpus);
	return true;
}

/* Step 2 and step 6's WRMSR: did every CPU's MSR take, and KVM fill the record? */
static unsigned check_pointed(const char *what)
{
	unsigned taken = 0, filled = 0;
	for (unsigned i = 0; i < ncpus; i++) {
		const struct cpu_state *s = &st[i];
		printf("kvmclock: CPU %u: MSR 0x%x = 0x%lx (reads 0x%lx), version %u, flags 0x%x%s\n", i,
		       kc.msr, s->msr_written, s->msr_read, s->version, s->flags,
		       s->flags & PVCLOCK_TSC_STABLE_BIT ? " (TSC stable)" : "");
		taken += s->msr_read == s->msr_written;
		filled += s->version && !(s->version & 1);
	}
	report(taken == ncpus, "%s: MSR 0x%x reads back what was written on %u of %u CPUs", what,
	       kc.msr, taken, ncpus);
	report(filled == ncpus, "%s: KVM filled the record on %u of %u CPUs", what, filled, ncpus);
	return filled;
}

int main(void)
{
	char b[32];
	uint64_t want = testdev_param("cpus", 1);
	if (!report(want >= 1 && want <= MAX_CPUS, "cpus=%lu is within 1..%u", want, MAX_CPUS))
		return report_summary();
	ncpus = smp_boot((unsigned)want, NULL, BOOT_TIMEOUT_MS);
	if (!report(ncpus == want, "%u of %lu CPUs online", ncpus, want))
		return report_summary();

	/* Step 1. */
	kvmclock_cpuid(&kc);
	printf("kvmclock: CPUID 0x40000000 \"%s\" (max leaf 0x%x), 0x40000001 EAX 0x%x\n",
	       kc.signature, kc.max_leaf, kc.features);
	if (!kc.kvm) {
		report_skip("no KVM signature at CPUID 0x40000000: no kvmclock to test");
		return report_summary();
	}
	if (!kc.msr) {
		report_skip("KVM offers no kvmclock (CPUID 0x40000001 EAX bits 0 and 3 clear)");
		return report_summary();
	}
	report(kc.features & KVM_FEATURE_CLOCKSOURCE2,
	       "KVM offers kvmclock through MSR_KVM_SYSTEM_TIME_NEW (CPUID 0x40000001 EAX bit 3)%s",
	       kc.msr == MSR_KVM_SYSTEM_TIME ? "; testing MSR_KVM_SYSTEM_TIME instead" : "");
	printf("kvmclock: MSR 0x%x; %u CPUs; pause %u ms, tolerance %lu ms: a clock that counted "
	       "the pause would show >= %u ms\n",
	       kc.msr, ncpus, PAUSE_MS, PAUSE_TOLERANCE_NS / NS_PER_MS, PAUSE_MS);

	/* Step 2. */
	target = first_area;
	on_all_cpus(point_msr_job);
	if (check_pointed("enable") != ncpus)
		return report_summary();
	printf("kvmclock: BSP clock %s since kvmclock's epoch\n", fmt_ns(b, sizeof(b), now()));

	/* Steps 4 and 5. */
	check_monotonic("before the move", 1);
	if (!check_pause("pause 1", "pause_jump_ns"))
		return report_summary();

	/* Step 6. */
	target = second_area;
	on_all_cpus(point_msr_job);
	if (check_pointed("move") != ncpus)
		return report_summary();
	struct order moved = { 0 };
	for (unsigned i = 0; i < ncpus; i++) {
		struct order o = { 0 };
		uint64_t latest = st[i].before_move;
		bool latest_stable = st[i].before_move_stable;
		o.unstable_reads = !latest_stable;
		order_see(&o, &latest, &latest_stable, st[i].after_move, st[i].after_move_stable);
		order_add(&moved, &o);
	}
	report_order(&moved, true, "move: the clock did not go back from the old record to the new",
		     "on any CPU");
	check_monotonic("after the move", QUICK_DIVISOR);
	check_pause("pause 2 (after the move)", "pause_jump2_ns");

	/* The premise of step 6: KVM writes the new records only. */
	unsigned untouched = 0;
	for (unsigned i = 0; i < ncpus; i++) {
		const uint8_t *p = (const uint8_t *)&first_area[i];
		size_t k = 0;
		while (k < sizeof(first_area[i]) && p[k] == GARBAGE)
			k++;
		untouched += k == sizeof(first_area[i]);
	}
	report(untouched == ncpus, "KVM left the old records alone on %u of %u CPUs", untouched,
	       ncpus);

	/* Step 7. */
	testdev_result("cpus_checked", ncpus);
	return report_summary();
}
