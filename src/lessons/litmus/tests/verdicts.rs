//! The engine's verdicts on thousands of random tests the lab accepts — every thread count,
//! location, kind of statement, barrier kind and placement, both memory classes — held to what
//! must be true of any reading of the model, and to a second, independent reading ([`herd`]).
//!
//! `SYNCSCOPE_RANDOM_TESTS` sets how many (default 1,500); the seed is fixed, so a failure
//! names a test that fails again.

use super::herd;
use crate::lessons::litmus::generate::kernels;
use crate::lessons::litmus::gpu::WORKGROUP_SIZE;
use crate::lessons::litmus::{rows, BarrierModifier, LabSettings, MAX_CANDIDATES, MAX_OUTCOMES};
use crate::model::litmus::{parse, sc, wgsl, LitmusTest, Placement, LOCATIONS, MAX_STATEMENTS, MAX_THREADS};
use crate::model::{splitmix64, Space};
use std::collections::{BTreeMap, BTreeSet};

/// Candidates above this are left out: they cost seconds each in a debug build and add no kind
/// of test the smaller ones lack.
const MOST_CANDIDATES: u128 = 4_000;

fn how_many() -> usize {
    std::env::var("SYNCSCOPE_RANDOM_TESTS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_500)
}

/// One statement of a generated test, kept apart from its text so that the text can be written
/// again with threads or locations renamed.
#[derive(Clone, Debug)]
enum Gen {
    Store(usize, u32),
    Load(String, usize),
    Add(String, usize, u32),
    Exchange(String, usize, u32),
    Cas(String, usize, u32, u32),
    Barrier(Space),
}

#[derive(Clone, Debug)]
struct Generated {
    threads: Vec<Vec<Gen>>,
    placement: Placement,
    memory: Space,
}

impl Generated {
    /// The test's text with location `l` written as `names[l]`.
    fn text_with(&self, names: [&str; 3]) -> String {
        let statement = |g: &Gen| match g {
            Gen::Store(l, v) => format!("{} = {v}", names[*l]),
            Gen::Load(r, l) => format!("{r} = {}", names[*l]),
            Gen::Add(r, l, v) => format!("{r} = atomicAdd({}, {v})", names[*l]),
            Gen::Exchange(r, l, v) => format!("{r} = atomicExchange({}, {v})", names[*l]),
            Gen::Cas(r, l, e, v) => format!("{r} = atomicCompareExchangeWeak({}, {e}, {v})", names[*l]),
            Gen::Barrier(Space::Workgroup) => "workgroupBarrier()".to_owned(),
            Gen::Barrier(Space::Storage) => "storageBarrier()".to_owned(),
        };
        self.threads.iter().enumerate().map(|(t, ops)| format!("T{t}: {}", ops.iter().map(statement).collect::<Vec<_>>().join("; "))).collect::<Vec<_>>().join(" | ")
    }

    fn text(&self) -> String {
        self.text_with(LOCATIONS)
    }

    fn parsed(&self) -> LitmusTest {
        parse(&self.text(), self.placement, self.memory).unwrap_or_else(|e| panic!("{}: {e}", self.text()))
    }
}

struct Random(u64);

impl Random {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = splitmix64(self.0);
        self.0 % n
    }
    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.below(from.len() as u64) as usize]
    }
}

/// A random test the grammar accepts. In one workgroup every thread reaches the same number of
/// barriers (each of either kind); alone in its workgroup a thread may have any.
fn generate(random: &mut Random) -> Generated {
    let placement = random.pick(&[Placement::Across, Placement::Same]);
    let memory = if placement == Placement::Same { random.pick(&[Space::Storage, Space::Workgroup]) } else { Space::Storage };
    let threads = 1 + random.below(4) as usize;
    // Mostly two locations, so that threads meet; sometimes one or three.
    let locations = random.pick(&[1usize, 2, 2, 2, 3]);
    let barriers_each = if placement == Placement::Same { random.pick(&[0usize, 0, 1, 1, 2]) } else { 0 };
    let shared_kinds: Vec<Space> = (0..barriers_each).map(|_| random.pick(&[Space::Storage, Space::Workgroup])).collect();
    let mut registers = 0;
    let mut out = Vec::new();
    for _ in 0..threads {
        let accesses = 1 + random.below(3) as usize;
        let mut ops = Vec::new();
        for _ in 0..accesses {
            let l = random.below(locations as u64) as usize;
            let mut reg = || {
                registers += 1;
                format!("r{}", registers - 1)
            };
            ops.push(match random.below(10) {
                0..=3 => Gen::Store(l, 1 + random.below(2) as u32),
                4..=6 => Gen::Load(reg(), l),
                7 => Gen::Add(reg(), l, 1),
                8 => Gen::Exchange(reg(), l, 1 + random.below(2) as u32),
                _ => Gen::Cas(reg(), l, random.below(2) as u32, 1 + random.below(2) as u32),
            });
        }
        // In one workgroup the k-th barrier is of one kind in every thread, as WGSL requires.
        let kinds = if placement == Placement::Same { shared_kinds.clone() } else { (0..random.pick(&[0usize, 0, 1])).map(|_| random.pick(&[Space::Storage, Space::Workgroup])).collect() };
        let mut cuts: Vec<usize> = kinds.iter().map(|_| random.below(ops.len() as u64 + 1) as usize).collect();
        cuts.sort_unstable();
        for (k, (&at, &kind)) in cuts.iter().zip(&kinds).enumerate() {
            ops.insert(at + k, Gen::Barrier(kind));
        }
        out.push(ops);
    }
    Generated { threads: out, placement, memory }
}

/// Random accepted tests small enough to enumerate, with their parsed form.
fn random_tests(seed: u64) -> impl Iterator<Item = (Generated, LitmusTest)> {
    let mut random = Random(seed);
    std::iter::repeat_with(move || generate(&mut random))
        .map(|g| {
            let t = g.parsed();
            (g, t)
        })
        .filter(|(_, t)| wgsl::candidates(t) <= MOST_CANDIDATES)
        .take(how_many())
}

/// An outcome by names: each register's value, each overwritten location's final value.
fn named(t: &LitmusTest, outcomes: impl IntoIterator<Item = crate::model::litmus::Outcome>) -> BTreeSet<BTreeMap<String, u32>> {
    outcomes
        .into_iter()
        .map(|o| {
            let regs = t.registers.iter().cloned().zip(o.registers.iter().copied());
            let finals = o.finals.iter().map(|&(l, v)| (LOCATIONS[l].to_owned(), v));
            regs.chain(finals).collect()
        })
        .collect()
}

#[test]
fn the_engine_and_an_independent_reading_of_the_model_agree_on_random_tests() {
    let mut checked = 0;
    let mut disagreements = Vec::new();
    for (g, t) in random_tests(0x05EE_D1AB) {
        let engine: BTreeSet<_> = wgsl::verdicts(&t).allowed.into_keys().collect();
        let second = herd::allowed(&t);
        if engine != second {
            let only = |a: &BTreeSet<_>, b: &BTreeSet<_>| a.difference(b).map(|o| t.name(o)).collect::<Vec<_>>();
            disagreements.push(format!(
                "{} ({:?}, {:?}): only the engine allows {:?}; only the second reading allows {:?}",
                g.text(),
                g.placement,
                g.memory,
                only(&engine, &second),
                only(&second, &engine)
            ));
        }
        checked += 1;
    }
    eprintln!("# {checked} random tests checked against the second reading; {} disagreement(s)", disagreements.len());
    assert!(disagreements.is_empty(), "{} of {checked} disagree, e.g.:\n{}", disagreements.len(), disagreements.iter().take(8).cloned().collect::<Vec<_>>().join("\n"));
}

#[test]
fn on_random_tests_what_sequential_consistency_reaches_is_allowed_and_listed() {
    for (g, t) in random_tests(0xC0FFEE) {
        let allowed = wgsl::verdicts(&t).allowed;
        let listed = t.outcomes();
        for outcome in sc::reachable(&t).keys() {
            assert!(allowed.contains_key(outcome), "{} ({:?}, {:?}): {} is sequentially consistent", g.text(), g.placement, g.memory, t.name(outcome));
            assert!(listed.contains(outcome), "{}: {} is not in the table", g.text(), t.name(outcome));
        }
    }
}

#[test]
fn on_random_tests_taking_a_barrier_away_never_forbids_more() {
    for (g, t) in random_tests(0xBA55) {
        let most = g.threads.iter().map(|ops| ops.iter().filter(|o| matches!(o, Gen::Barrier(_))).count()).max().unwrap_or(0);
        for k in 0..most {
            // The k-th barrier of every thread: in one workgroup they stay matched.
            let mut fewer = g.clone();
            for ops in &mut fewer.threads {
                if let Some(at) = ops.iter().enumerate().filter(|(_, o)| matches!(o, Gen::Barrier(_))).map(|(i, _)| i).nth(k) {
                    ops.remove(at);
                }
            }
            if fewer.threads.iter().any(Vec::is_empty) {
                continue;
            }
            let without = fewer.parsed();
            let before = named(&t, wgsl::verdicts(&t).allowed.into_keys());
            let after = named(&without, wgsl::verdicts(&without).allowed.into_keys());
            assert!(before.is_subset(&after), "{} → {}: taking barrier {k} away forbade something", g.text(), fewer.text());
        }
    }
}

#[test]
fn on_random_tests_the_verdicts_do_not_depend_on_names_or_order() {
    let mut random = Random(0x0DE5);
    for (g, t) in random_tests(0x4A3E) {
        let allowed = named(&t, wgsl::verdicts(&t).allowed.into_keys());
        // The threads in another order (registers keep their names).
        let mut shuffled = g.clone();
        let turns = random.below(g.threads.len() as u64) as usize;
        shuffled.threads.rotate_left(turns);
        shuffled.threads.reverse();
        let s = shuffled.parsed();
        assert_eq!(named(&s, wgsl::verdicts(&s).allowed.into_keys()), allowed, "{} vs {}", g.text(), shuffled.text());
        // The locations renamed: x ↔ z, y stays.
        let renamed = g.text_with(["z", "y", "x"]);
        let r = parse(&renamed, g.placement, g.memory).unwrap();
        let back: BTreeSet<BTreeMap<String, u32>> = named(&r, wgsl::verdicts(&r).allowed.into_keys())
            .into_iter()
            .map(|o| o.into_iter().map(|(k, v)| (match k.as_str() { "x" => "z".to_owned(), "z" => "x".to_owned(), _ => k }, v)).collect())
            .collect();
        assert_eq!(back, allowed, "{} vs {renamed}", g.text());
    }
}

#[test]
fn in_one_workgroup_the_threads_barriers_must_match_in_number_and_kind() {
    // The k-th barrier of each thread is one barrier of the workgroup: a storageBarrier() where
    // another thread has a workgroupBarrier() is no WGSL kernel (barriers need uniform control
    // flow), and counting each kind apart once made the engine forbid what an interleaving reaches.
    let mixed = "T0: y = 1; storageBarrier(); r0 = y | T1: workgroupBarrier(); r1 = atomicAdd(y, 1)";
    let e = parse(mixed, Placement::Same, Space::Workgroup).unwrap_err();
    assert_eq!((e.line, e.column), (1, 39), "{e}");
    assert_eq!(e.message, "in one workgroup every thread must reach the same barriers: T0's barrier 1 is storageBarrier(), T1's is workgroupBarrier()");
    // Alone in its workgroup, each thread may have any barriers: they order nothing.
    assert!(parse(mixed, Placement::Across, Space::Storage).is_ok());
    let fewer = parse("T0: x = 1; storageBarrier(); y = 1 | T1: r0 = y; r1 = x", Placement::Same, Space::Storage).unwrap_err();
    assert!(fewer.message.contains("T0 reaches 1, T1 0"), "{fewer}");
}

/// A random test of `MAX_THREADS` threads of up to `MAX_STATEMENTS` statements each, over one
/// to three locations, with or without barriers: as large as the editor takes, and smaller.
fn generate_at_limits(random: &mut Random) -> Generated {
    let placement = random.pick(&[Placement::Across, Placement::Same]);
    let memory = if placement == Placement::Same { random.pick(&[Space::Storage, Space::Workgroup]) } else { Space::Storage };
    let locations = random.pick(&[1usize, 2, 3]);
    let barriers = random.pick(&[0usize, 0, 1, 2]);
    // Out of ten statements, how many read: with many, nearly every test is over the outcome limit.
    let reading = random.pick(&[1u64, 2, 4, 6]);
    let kinds: Vec<Space> = (0..barriers).map(|_| random.pick(&[Space::Storage, Space::Workgroup])).collect();
    let mut registers = 0;
    let threads = (0..MAX_THREADS)
        .map(|_| {
            let mut ops: Vec<Gen> = (0..1 + random.below((MAX_STATEMENTS - barriers) as u64))
                .map(|_| {
                    let l = random.below(locations as u64) as usize;
                    let mut reg = || {
                        registers += 1;
                        format!("r{}", registers - 1)
                    };
                    match random.below(10) {
                        k if k >= reading => Gen::Store(l, 1 + random.below(3) as u32),
                        0 => Gen::Add(reg(), l, 1),
                        1 => Gen::Exchange(reg(), l, 1 + random.below(3) as u32),
                        2 => Gen::Cas(reg(), l, random.below(2) as u32, 1 + random.below(3) as u32),
                        _ => Gen::Load(reg(), l),
                    }
                })
                .collect();
            for (k, &kind) in kinds.iter().enumerate() {
                let at = (k + 1) * ops.len() / (barriers + 1);
                ops.insert(at, Gen::Barrier(kind));
            }
            ops
        })
        .collect();
    Generated { threads, placement, memory }
}

/// Nothing the editor takes may freeze the tab: a test as large as the editor allows is either
/// refused with a message naming the limit it is over, or weighed with its table and its count
/// kernel's counters within those limits. The slowest one weighed is printed (a measurement, not
/// a budget: the bench holds the budget).
#[test]
fn at_the_editors_limits_a_test_is_refused_naming_the_limit_or_weighed_within_it() {
    // Twenty-four read-modify-writes of one location: the values they may leave were once
    // multiplied round after round (ten exchanges took the tab seconds, this test forever).
    let exchanges = (0..MAX_THREADS)
        .map(|t| format!("T{t}:{}", (0..MAX_STATEMENTS).map(|i| format!("r{}=atomicExchange(x,{})", t * MAX_STATEMENTS + i, 1 + i % 3)).collect::<Vec<_>>().join(";")))
        .collect::<Vec<_>>()
        .join("\n");
    let e = LabSettings { text: exchanges, ..LabSettings::default() }.test().unwrap_err();
    // Each register and x itself may hold 0, 1, 2 or 3: 4²⁵ outcomes.
    assert!(e.message.starts_with(&format!("{} outcomes", 4u128.pow(25))), "{e}");
    let mut random = Random(0x11_5175);
    let (mut refused, mut weighed) = (0, 0);
    let mut slowest = (0.0, String::new());
    for _ in 0..how_many() {
        if weighed == (how_many() / 100).max(4) {
            break;
        }
        let g = generate_at_limits(&mut random);
        let settings = LabSettings { text: g.text().replace(" | ", "\n"), placement: g.placement, memory: g.memory, barrier: BarrierModifier::None };
        let t = match settings.test() {
            Ok(t) => t,
            Err(e) => {
                let names_a_limit = e.message.contains(&format!("at most {MAX_OUTCOMES}")) || e.message.contains(&format!("at most {MAX_CANDIDATES}"));
                assert!(names_a_limit && e.line.is_none(), "{}: refused without naming a limit: {e}", g.text());
                refused += 1;
                continue;
            }
        };
        assert!(wgsl::candidates(&t) <= MAX_CANDIDATES, "{}", g.text());
        let start = std::time::Instant::now();
        let table = rows(&t);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        assert!(!table.is_empty() && table.len() as u128 <= MAX_OUTCOMES, "{}: {} rows", g.text(), table.len());
        assert_eq!(kernels(&t, &settings.text, WORKGROUP_SIZE).outcomes, table.len(), "{}: one counter per row", g.text());
        if ms > slowest.0 {
            slowest = (ms, format!("{} ({:?}, {:?}; {} candidates, {} outcomes)", g.text(), g.placement, g.memory, wgsl::candidates(&t), table.len()));
        }
        weighed += 1;
    }
    eprintln!("# at the editor's limits: {weighed} weighed, {refused} refused; slowest {:.0} ms (this build): {}", slowest.0, slowest.1);
    assert!(refused > 0 && weighed > 0, "{refused} refused, {weighed} weighed: the generator misses one side of the limits");
}
