//! The litmus lab's engine: reading tests (and every mistake named by line and column), the
//! outcomes sequential consistency reaches, and the verdicts of WGSL's memory model, against
//! what the literature and the WebGPU conformance tests say of the classic tests.

use crate::model::litmus::wgsl::Relation;
use crate::model::litmus::{parse, preset, sc, wgsl, with_barriers, LitmusTest, Outcome, Placement, PRESETS};
use crate::model::Space;

fn test(name: &str, placement: Placement, memory: Space) -> LitmusTest {
    parse(preset(name).unwrap(), placement, memory).unwrap()
}

/// `(sequential consistency reaches it, WGSL allows it)` for the outcome named `name`.
fn verdict(t: &LitmusTest, name: &str) -> (bool, bool) {
    let outcome: Outcome = t.outcomes().into_iter().find(|o| t.name(o) == name).unwrap_or_else(|| panic!("no outcome {name}"));
    let sc = sc::reachable(t).contains_key(&outcome);
    let wgsl = wgsl::verdicts(t).allowed.contains_key(&outcome);
    (sc, wgsl)
}

#[test]
fn the_weak_outcomes_of_the_classic_tests_are_allowed_across_workgroups_and_never_sequentially_consistent() {
    for (name, weak) in [
        ("mp", "r0=1 r1=0"),
        ("sb", "r0=0 r1=0"),
        ("lb", "r0=1 r1=1"),
        ("s", "r0=1 x=2"),
        ("r", "r0=0 y=2"),
        ("2+2w", "x=1 y=1"),
        ("iriw", "r0=1 r1=0 r2=1 r3=0"),
    ] {
        let t = test(name, Placement::Across, Space::Storage);
        assert_eq!(verdict(&t, weak), (false, true), "{name}: {weak}");
    }
}

#[test]
fn coherence_forbids_the_same_outcomes_under_both_models() {
    for (name, forbidden) in [("corr", "r0=1 r1=0"), ("coww", "x=1"), ("corw", "r0=1"), ("cowr", "r0=0 x=1"), ("cowr", "r0=0 x=2"), ("cowr", "r0=2 x=1")] {
        let t = test(name, Placement::Across, Space::Storage);
        assert_eq!(verdict(&t, forbidden), (false, false), "{name}: {forbidden}");
    }
    let t = test("coww", Placement::Across, Space::Storage);
    assert_eq!(verdict(&t, "x=2"), (true, true));
}

#[test]
fn a_barrier_forbids_weak_message_passing_only_within_one_workgroup_and_for_its_own_memory() {
    let mp = |placement, memory, barrier| with_barriers(&test("mp", placement, memory), barrier);
    // storageBarrier() between the accesses, every thread in one workgroup: ordered.
    assert_eq!(verdict(&mp(Placement::Same, Space::Storage, Space::Storage), "r0=1 r1=0"), (false, false));
    assert_eq!(verdict(&mp(Placement::Same, Space::Workgroup, Space::Workgroup), "r0=1 r1=0"), (false, false));
    // The same barrier across workgroups orders nothing between them.
    assert_eq!(verdict(&mp(Placement::Across, Space::Storage, Space::Storage), "r0=1 r1=0"), (false, true));
    // A barrier of the other memory class orders nothing here.
    assert_eq!(verdict(&mp(Placement::Same, Space::Storage, Space::Workgroup), "r0=1 r1=0"), (false, true));
}

#[test]
fn whatever_sequential_consistency_reaches_wgsl_allows() {
    for (name, _) in PRESETS {
        for placement in [Placement::Across, Placement::Same] {
            for barrier in [None, Some(Space::Storage), Some(Space::Workgroup)] {
                let base = test(name, placement, Space::Storage);
                let t = barrier.map_or(base.clone(), |b| with_barriers(&base, b));
                let allowed = wgsl::verdicts(&t).allowed;
                let reached = sc::reachable(&t);
                assert!(!reached.is_empty(), "{name}");
                for outcome in reached.keys() {
                    assert!(allowed.contains_key(outcome), "{name} {placement:?} {barrier:?}: {} is sequentially consistent", t.name(outcome));
                    assert!(t.outcomes().contains(outcome), "{name}: {} is not listed", t.name(outcome));
                }
            }
        }
    }
}

#[test]
fn read_modify_writes_are_atomic_and_a_weak_compare_exchange_may_fail() {
    let adds = parse("T0: r0 = atomicAdd(x, 1) | T1: r1 = atomicAdd(x, 1)", Placement::Across, Space::Storage).unwrap();
    assert_eq!(verdict(&adds, "r0=0 r1=0 x=1"), (false, false), "a lost update");
    assert_eq!(verdict(&adds, "r0=0 r1=1 x=2"), (true, true));
    let cas = parse("T0: r0 = atomicCompareExchangeWeak(x, 0, 1)", Placement::Across, Space::Storage).unwrap();
    let reached: Vec<String> = sc::reachable(&cas).keys().map(|o| cas.name(o)).collect();
    assert_eq!(reached, ["r0=0"], "one register; success and spurious failure both read 0");
    let two = parse("T0: r0 = atomicCompareExchangeWeak(x, 0, 1) | T1: r1 = atomicCompareExchangeWeak(x, 0, 2)", Placement::Across, Space::Storage).unwrap();
    assert_eq!(verdict(&two, "r0=0 r1=0 x=0"), (true, true), "both may fail spuriously");
    assert_eq!(verdict(&two, "r0=0 r1=0 x=1"), (true, true), "one succeeds, the other fails");
}

#[test]
fn every_mistake_is_named_by_line_and_column() {
    let at = |text: &str| parse(text, Placement::Across, Space::Storage).map(|_| ()).map_err(|e| (e.line, e.column, e.message));
    assert!(at("T0: x = 1\nT1: r0 = x").is_ok());
    let (line, column, message) = at("T0: x = 1\nT1: r0 = w").unwrap_err();
    assert_eq!((line, column), (2, 10), "{message}");
    assert!(message.contains("unknown location"), "{message}");
    let (line, column, _) = at("T0: x = 1 | T1: r0 = x; r0 = y").unwrap_err();
    assert_eq!((line, column), (1, 25), "a register written twice");
    let (_, column, _) = at("T0: x = banana").unwrap_err();
    assert_eq!(column, 9);
    let (_, column, message) = at("T0: r0 = atomicAdd(x)").unwrap_err();
    assert_eq!(column, 10, "{message}");
    let (_, column, message) = at("T0: x = 1 | T2: y = 1").unwrap_err();
    assert_eq!(column, 13, "{message}");
    assert!(at("").is_err());
    assert!(at("T0: x = 1 | T1: x = 1 | T2: x = 1 | T3: x = 1 | T4: x = 1").is_err());
    assert!(parse("T0: x = 1", Placement::Across, Space::Workgroup).is_err(), "workgroup memory needs one workgroup");
    let uneven = parse("T0: x = 1; workgroupBarrier() | T1: r0 = x", Placement::Same, Space::Workgroup).unwrap_err();
    assert!(uneven.message.contains("same barriers"), "{uneven}");
}

#[test]
fn random_text_never_panics() {
    // A tiny generator over the syntax's own characters: whatever comes back is a test or a message.
    let alphabet: Vec<char> = "T0123:xyzr=;|() ,atomicAdExchngeWkBrrsto\n&u".chars().collect();
    let mut seed = 7u64;
    let mut next = || {
        seed = crate::model::splitmix64(seed);
        seed
    };
    for _ in 0..3000 {
        let len = (next() % 40) as usize;
        let text: String = (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
        if let Ok(t) = parse(&text, Placement::Same, Space::Storage) {
            let _ = sc::reachable(&t);
            let _ = wgsl::verdicts(&t);
        }
    }
}

#[test]
fn a_verdict_comes_with_its_reason() {
    let corr = test("corr", Placement::Across, Space::Storage);
    let stale = corr.outcomes().into_iter().find(|o| corr.name(o) == "r0=1 r1=0").unwrap();
    let why = &wgsl::verdicts(&corr).forbidden[&stale];
    assert!(why.why.starts_with("coherence:"), "{}", why.why);
    // The cycle: T1's first read before its second (po), the second reads x before T0's write
    // (fr), which the first read took its value from (rf).
    assert_eq!(why.cycle, [((1, 0), (1, 1), Relation::Po), ((1, 1), (0, 0), Relation::Fr), ((0, 0), (1, 0), Relation::Rf)]);
    let adds = parse("T0: r0 = atomicAdd(x, 1) | T1: r1 = atomicAdd(x, 1)", Placement::Across, Space::Storage).unwrap();
    let lost = adds.outcomes().into_iter().find(|o| adds.name(o) == "r0=0 r1=0 x=1").unwrap();
    let why = &wgsl::verdicts(&adds).forbidden[&lost];
    assert!(why.why.starts_with("atomicity:"), "{}", why.why);
    assert_eq!(why.cycle.len(), 2, "{:?}", why.cycle);
    // A read-modify-write that reads a write its own precedes: said as such, not garbled.
    let late = parse("T0: r0 = atomicAdd(x, 1) | T1: x = 5", Placement::Across, Space::Storage).unwrap();
    let o = late.outcomes().into_iter().find(|o| late.name(o) == "r0=5 x=5").unwrap();
    let why = &wgsl::verdicts(&late).forbidden[&o];
    assert_eq!(why.why, "atomicity: the read-modify-write T0's statement 1 reads what T1's statement 1 wrote, yet its own write to x comes before that one");
    assert_eq!(why.cycle, [((1, 0), (0, 0), Relation::Rf), ((0, 0), (1, 0), Relation::Co)]);
    // Weak message passing: the flag read from T0's store, the data the initial 0.
    let mp = test("mp", Placement::Across, Space::Storage);
    let weak = mp.outcomes().into_iter().find(|o| mp.name(o) == "r0=1 r1=0").unwrap();
    let execution = &wgsl::verdicts(&mp).allowed[&weak];
    assert_eq!(execution.reads_from, [((1, 0), Some((0, 1))), ((1, 1), None)]);
    // And an interleaving for each outcome sequential consistency reaches.
    let sc = sc::reachable(&mp);
    let both = mp.outcomes().into_iter().find(|o| mp.name(o) == "r0=1 r1=1").unwrap();
    assert_eq!(sc[&both], [(0, 0), (0, 1), (1, 0), (1, 1)]);
}

/// Every outcome matching `partial` (some registers and final values, e.g. `[("r0", 1)]`), by name.
fn matching<'a>(t: &'a LitmusTest, partial: &'a [(&str, u32)]) -> impl Iterator<Item = Outcome> + 'a {
    t.outcomes().into_iter().filter(move |o| {
        let name = t.name(o);
        let values: Vec<(&str, u32)> = name.split(' ').filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k, v.parse().unwrap())).collect();
        partial.iter().all(|p| values.contains(p))
    })
}

/// The WebGPU conformance tests' memory-model cases (gpuweb/cts,
/// `src/webgpu/shader/execution/memory_model/`), each in the lab's syntax with the outcome the
/// CTS fails on: WGSL's model must forbid it too, for every placement and memory the CTS runs.
#[test]
fn what_the_webgpu_cts_fails_on_the_model_forbids() {
    let storage_across = [(Placement::Across, Space::Storage), (Placement::Same, Space::Storage), (Placement::Same, Space::Workgroup)];
    let coherence: [(&str, &[(&str, u32)]); 10] = [
        ("T0: x=1 | T1: r0=x; r1=x", &[("r0", 1), ("r1", 0)]),
        ("T0: r0=atomicExchange(x, 1) | T1: r1=x; r2=atomicAdd(x, 0)", &[("r1", 1), ("r2", 0)]),
        ("T0: x=1; x=2", &[("x", 1)]),
        ("T0: r0=atomicExchange(x, 1); x=2", &[("x", 1)]),
        ("T0: x=1; r0=x | T1: x=2", &[("r0", 2), ("x", 1)]),
        ("T0: r0=atomicExchange(x, 1); r1=atomicAdd(x, 0) | T1: r2=atomicExchange(x, 2)", &[("r1", 2), ("x", 1)]),
        ("T0: r0=x; x=1", &[("r0", 1)]),
        ("T0: r0=x; x=1 | T1: x=2", &[("r0", 2), ("x", 2)]),
        ("T0: r0=x; x=1 | T1: r1=atomicExchange(x, 2)", &[("r0", 2), ("x", 2)]),
        // atomicity, as the CTS means it (its atomicAdd(x, 0) can never write the 1 it checks for)
        ("T0: r0=atomicExchange(x, 1) | T1: x=2", &[("r0", 0), ("x", 1)]),
    ];
    for (text, forbidden) in coherence {
        for (placement, memory) in storage_across {
            let t = parse(text, placement, memory).unwrap();
            let allowed = wgsl::verdicts(&t).allowed;
            let mut any = false;
            for o in matching(&t, forbidden) {
                any = true;
                assert!(!allowed.contains_key(&o), "{text} ({placement:?}, {memory:?}): {} is allowed", t.name(&o));
            }
            assert!(any, "{text}: no outcome matches {forbidden:?}");
        }
    }
    // weak.spec and barrier.spec: one workgroup, a barrier of the memory's class between accesses
    // (as the CTS runs them, every invocation passes both barriers).
    let weak: [(&str, &[(&str, u32)]); 9] = [
        ("T0: x=1; B; y=1; B | T1: B; r0=y; B; r1=x", &[("r0", 1), ("r1", 0)]),
        ("T0: x=2; B; y=1; B | T1: B; r0=y; B; x=1", &[("r0", 1), ("x", 2)]),
        ("T0: r0=y; B; x=1; B | T1: B; r1=x; B; y=1", &[("r0", 1), ("r1", 1)]),
        ("T0: x=1; B; r0=atomicExchange(y, 1); B | T1: B; r1=atomicExchange(y, 2); B; r2=x", &[("r2", 0), ("y", 2)]),
        ("T0: x=1; B; r0=atomicAdd(y, 0); B | T1: B; r1=atomicExchange(y, 1); B; r2=x", &[("r0", 0), ("r2", 0)]),
        ("T0: x=2; B; r0=atomicExchange(y, 1); B | T1: B; r1=atomicExchange(y, 2); B; x=1", &[("x", 2), ("y", 2)]),
        ("T0: x=1; B | T1: B; r0=x", &[("r0", 0)]),
        ("T0: r0=x; B | T1: B; x=1", &[("r0", 1)]),
        ("T0: x=1; B | T1: B; x=2", &[("x", 1)]),
    ];
    for (text, forbidden) in weak {
        for (memory, barrier) in [(Space::Storage, "storageBarrier()"), (Space::Workgroup, "workgroupBarrier()")] {
            let t = parse(&text.replace('B', barrier), Placement::Same, memory).unwrap();
            let verdicts = wgsl::verdicts(&t);
            let mut any = false;
            for o in matching(&t, forbidden) {
                any = true;
                assert!(!verdicts.allowed.contains_key(&o), "{text} ({memory:?}): {} is allowed", t.name(&o));
            }
            assert!(any, "{text}: no outcome matches {forbidden:?}");
            // Without the barriers' ordering (each thread in a workgroup of its own) the weak
            // outcomes of the two-location tests come back.
            if text.contains('y') && memory == Space::Storage {
                let across = parse(&text.replace('B', barrier), Placement::Across, memory).unwrap();
                let allowed = wgsl::verdicts(&across).allowed;
                assert!(matching(&across, forbidden).any(|o| allowed.contains_key(&o)), "{text} across workgroups");
            }
        }
    }
}

/// The Vulkan memory model's Alloy litmus tests (KhronosGroup/Vulkan-MemoryModel,
/// `alloy/tests/*.test`) that the lab's syntax writes faithfully, each with the outcome its
/// reads-from values ask about and Alloy's verdict: `SATISFIABLE consistent[X]` allowed,
/// `NOSOLUTION consistent[X]` forbidden. Where a test also asks about data races (`#dr`), only
/// whether the execution is consistent is checked: the lab's accesses are all atomic and it has
/// no races.
///
/// How a test is written here:
/// - each `NEWWG` starts a workgroup: threads in workgroups of their own are `Across`, threads
///   sharing one (`NEWSG` only between them) are `Same`;
/// - `sc0` is either memory class: storage (`Across` or `Same`) and workgroup (`Same` only);
/// - relaxed atomics (`ld.atom`, `st.atom`, `rmw` at any scope covering the test's threads) are
///   the lab's loads, stores and `atomicAdd(x, 1)` (`rmw x = 1 2` reads 1, writes 2);
/// - `cbar.acq.rel.scopewg.semsc0`, a workgroup-scope control barrier acquiring and releasing
///   the accesses' storage class, is WGSL's barrier of that class: `storageBarrier()` is
///   `OpControlBarrier(Workgroup, Workgroup, AcquireRelease | UniformMemory)`,
///   `workgroupBarrier()` the same with `WorkgroupMemory`;
/// - a non-atomic access (`st.av`/`ld.vis` at a scope covering the test's threads, `nonpriv`,
///   private `ld.sc0`/`st.sc0`) is a plain access only where nothing but program order or such a
///   barrier relates it to the other accesses of its location, so that being atomic changes no
///   verdict: a single thread (privpo, noncohandatom), program order within each thread
///   (noncohcoww), a barrier (noncohrmw, noncohrmwfail).
///
/// Left out (79 of 89): every test with acquire or release atomics or fences (`membar`), which
/// WGSL lacks; control barriers of device, queue-family or subgroup scope (test6, test7,
/// scopeaccum, noncohmpbarsg); system-synchronizes-with (`SSW`); two storage classes aliased to
/// one location (`SLOC`: test11); test16, which asks only whether a non-atomic load races (the
/// lab has no races); and cbarinst, which accesses no memory.
#[test]
fn what_the_vulkan_alloy_tests_say_the_model_agrees_with() {
    let across = &[(Placement::Across, Space::Storage)][..];
    let one_workgroup = &[(Placement::Same, Space::Storage), (Placement::Same, Space::Workgroup)][..];
    let anywhere = &[(Placement::Across, Space::Storage), (Placement::Same, Space::Storage), (Placement::Same, Space::Workgroup)][..];
    // (file, test, where it runs, outcome, Alloy allows it)
    type AlloyTest<'a> = (&'a str, &'a str, &'a [(Placement, Space)], &'a [(&'a str, u32)], bool);
    let alloy: [AlloyTest; 10] = [
        // Relaxed atomics, each thread in a workgroup of its own, device scope: coherence.
        ("asmo.test", "T0: x=1 | T1: x=2 | T2: r0=x; r1=x | T3: r2=x; r3=x", across, &[("r0", 1), ("r1", 2), ("r2", 2), ("r3", 1)], false),
        ("corr.test", "T0: r0=x; r1=x | T1: r2=x; r3=x | T2: x=2 | T3: x=1", across, &[("r0", 2), ("r1", 1), ("r2", 1), ("r3", 2)], false),
        ("corw.test", "T0: r0=x; x=1 | T1: x=2 | T2: r1=x; r2=x", across, &[("r0", 2), ("r1", 1), ("r2", 2)], false),
        ("cowr.test", "T0: x=1; r0=x | T1: x=2 | T2: r1=x; r2=x", across, &[("r0", 2), ("r1", 2), ("r2", 1)], false),
        ("coww.test", "T0: x=1; x=2 | T1: r0=x; r1=x", across, &[("r0", 2), ("r1", 1)], false),
        // Non-atomic accesses where being atomic changes nothing.
        ("noncohcoww.test", "T0: x=1; x=2 | T1: r0=x; r1=x", one_workgroup, &[("r0", 2), ("r1", 1)], false),
        ("noncohandatom.test", "T0: y=1; r0=atomicAdd(y, 1); r1=y", anywhere, &[("r0", 1), ("r1", 2)], true),
        ("privpo.test", "T0: r0=x; x=1; r1=x; x=2", anywhere, &[("r0", 0), ("r1", 1), ("x", 2)], true),
        // One workgroup, cbar.acq.rel.scopewg.semsc0 as B.
        ("noncohrmw.test", "T0: x=1; B; r0=atomicAdd(x, 1) | T1: B; r1=atomicAdd(x, 1)", one_workgroup, &[("r0", 2), ("r1", 1)], true),
        ("noncohrmwfail.test", "T0: x=1; B; r0=atomicAdd(x, 1) | T1: B; r1=atomicAdd(x, 1)", one_workgroup, &[("r0", 1), ("r1", 1)], false),
    ];
    for (file, text, places, asked, allows) in alloy {
        for &(placement, memory) in places {
            let barrier = if memory == Space::Storage { "storageBarrier()" } else { "workgroupBarrier()" };
            let t = parse(&text.replace('B', barrier), placement, memory).unwrap();
            let allowed = wgsl::verdicts(&t).allowed;
            let outcomes: Vec<Outcome> = matching(&t, asked).collect();
            assert!(!outcomes.is_empty(), "{file}: no outcome matches {asked:?}");
            let agrees = outcomes.iter().any(|o| allowed.contains_key(o)) == allows;
            assert!(agrees, "{file} ({placement:?}, {memory:?}): Alloy {} {asked:?}", if allows { "allows" } else { "forbids" });
        }
    }
}

#[test]
fn the_scoped_syntax_reads_orders_scopes_fences_and_workgroups() {
    let t = parse(
        "T0@wg0: x.store(1, plain); fence(acq_rel, device); y.store(1, release, gpu)\nT1@wg0: r0 = y.load(acquire, cta); __threadfence_block(); r1 = x.load(plain)\nT2@wg5: r2 = atomicAdd(x, 1, acq_rel, system); fence(sc, sys)",
        Placement::Across,
        Space::Storage,
    )
    .unwrap();
    assert_eq!(t.groups, [0, 0, 1], "workgroups numbered in order of appearance");
    assert_eq!(t.placement, Placement::Mixed);
    let written: Vec<String> = t.threads.iter().flatten().map(|op| crate::lessons::litmus::describe(&t, *op)).collect();
    assert_eq!(
        written,
        [
            "x.store(1, plain)",
            "fence(acq_rel, device)",
            "y.store(1, release, device)",
            "r0 = y.load(acquire, workgroup)",
            "fence(seq_cst, workgroup)",
            "r1 = x.load(plain)",
            "r2 = atomicAdd(x, 1, acq_rel, system)",
            "fence(seq_cst, system)"
        ]
    );
    // What is written back reads back the same.
    let describe = |op: &crate::model::litmus::Op| crate::lessons::litmus::describe(&t, *op);
    let text: Vec<String> =
        t.threads.iter().enumerate().map(|(i, ops)| format!("T{i}@wg{}: {}", t.groups[i], ops.iter().map(describe).collect::<Vec<_>>().join("; "))).collect();
    assert_eq!(parse(&text.join("\n"), Placement::Same, Space::Storage).unwrap(), t);
    assert!(t.beyond_wgsl().is_some());
    assert!(t.nearest_wgsl().beyond_wgsl().is_none());
    assert_eq!(parse("T0: x = 1 | T1: r0 = x", Placement::Across, Space::Storage).unwrap().beyond_wgsl(), None);

    let err = |text: &str| parse(text, Placement::Across, Space::Storage).unwrap_err();
    assert!(err("T0: x.store(1, acquire, device)").message.contains("a store cannot be acquire"));
    assert!(err("T0: r0 = x.load(release)").message.contains("a load cannot be release"));
    assert!(err("T0: x.store(1, plain, device)").message.contains("no scope"));
    assert!(err("T0: fence(relaxed, device)").message.contains("orders nothing"));
    assert!(err("T0: r0 = x.load(acquire, galaxy)").message.contains("unknown scope"));
    assert!(err("T0@wg0: x = 1 | T1: r0 = x").message.contains("every thread must"));
    assert!(err("T0@block1: x = 1").message.contains("expected a workgroup"));
    let e = err("T0: x = 1 | T1: r0 = x.load(acquire, device, 3)");
    assert_eq!((e.line, e.column), (1, 46), "{}", e.message);
    assert!(parse("T0@wg0: x = 1 | T1@wg1: r0 = x", Placement::Same, Space::Workgroup).is_err(), "workgroup memory in two workgroups");
    let uneven = parse("T0@wg0: workgroupBarrier(); x = 1 | T1@wg0: r0 = x | T2@wg1: y = 1", Placement::Across, Space::Storage).unwrap_err();
    assert!(uneven.message.contains("T0 reaches 1, T1 0"), "{uneven}");
}
