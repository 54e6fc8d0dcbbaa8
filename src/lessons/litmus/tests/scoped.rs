//! The scoped model's verdicts on the tests its rules were written for, each checked by hand
//! against the PTX model's definitions.

use crate::model::litmus::{parse, scoped, LitmusTest, Outcome, Placement};
use crate::model::Space;

fn test(text: &str) -> LitmusTest {
    parse(text, Placement::Across, Space::Storage).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Whether the scoped model allows some outcome matching `condition` (`r0=1 r1=0 x=2`, a
/// partial assignment of registers and final values).
pub fn allows(test: &LitmusTest, condition: &str) -> bool {
    let verdicts = scoped::verdicts(test).unwrap_or_else(|e| panic!("{e}"));
    verdicts.allowed.keys().any(|o| matches(test, o, condition))
}

pub fn matches(test: &LitmusTest, outcome: &Outcome, condition: &str) -> bool {
    let name = test.name(outcome);
    let parts: Vec<&str> = name.split(' ').collect();
    condition.split_whitespace().all(|c| parts.contains(&c))
}

#[test]
fn message_passing_by_order_and_scope() {
    let cases = [
        ("T0: x = 1; y = 1 | T1: r0 = y; r1 = x", true),
        ("T0: x = 1; y.store(1, release, device) | T1: r0 = y.load(acquire, device); r1 = x", false),
        ("T0: x.store(1, plain); y.store(1, release, device) | T1: r0 = y.load(acquire, device); r1 = x.load(plain)", false),
        // Workgroup scope between two workgroups: the pair is not morally strong.
        ("T0@wg0: x = 1; y.store(1, release, workgroup) | T1@wg1: r0 = y.load(acquire, workgroup); r1 = x", true),
        ("T0@wg0: x = 1; y.store(1, release, workgroup) | T1@wg0: r0 = y.load(acquire, workgroup); r1 = x", false),
        ("T0@wg0: x = 1; y.store(1, release, workgroup) | T1@wg0: r0 = y.load(acquire, device); r1 = x", false),
        // Fences on both sides, of device scope, with relaxed flag accesses.
        ("T0: x = 1; __threadfence(); y = 1 | T1: r0 = y; __threadfence(); r1 = x", false),
        ("T0: x = 1; fence(acq_rel, device); y = 1 | T1: r0 = y; fence(acq_rel, device); r1 = x", false),
        ("T0@wg0: x = 1; __threadfence_block(); y = 1 | T1@wg1: r0 = y; __threadfence_block(); r1 = x", true),
        // Only one side: nothing promised.
        ("T0: x = 1; __threadfence(); y = 1 | T1: r0 = y; r1 = x", true),
        ("T0: x = 1; y.store(1, release, device) | T1: r0 = y; r1 = x", true),
        // A plain flag is no synchronisation.
        ("T0: x = 1; fence(acq_rel, device); y.store(1, plain) | T1: r0 = y.load(plain); fence(acq_rel, device); r1 = x", true),
        // seq_cst accesses.
        ("T0: x = 1; y.store(1, seq_cst, device) | T1: r0 = y.load(seq_cst, device); r1 = x", false),
    ];
    for (text, weak) in cases {
        assert_eq!(allows(&test(text), "r0=1 r1=0"), weak, "{text}");
    }
}

#[test]
fn store_buffering_needs_seq_cst_fences() {
    let cases = [
        ("T0: x = 1; r0 = y | T1: y = 1; r1 = x", true),
        ("T0: x = 1; fence(acq_rel, device); r0 = y | T1: y = 1; fence(acq_rel, device); r1 = x", true),
        ("T0: x = 1; __threadfence(); r0 = y | T1: y = 1; __threadfence(); r1 = x", false),
        ("T0@wg0: x = 1; __threadfence_block(); r0 = y | T1@wg1: y = 1; __threadfence_block(); r1 = x", true),
        ("T0@wg0: x = 1; __threadfence_block(); r0 = y | T1@wg0: y = 1; __threadfence_block(); r1 = x", false),
        ("T0: x.store(1, seq_cst, device); r0 = y.load(seq_cst, device) | T1: y.store(1, seq_cst, device); r1 = x.load(seq_cst, device)", false),
    ];
    for (text, weak) in cases {
        assert_eq!(allows(&test(text), "r0=0 r1=0"), weak, "{text}");
    }
}

#[test]
fn coherence_and_atomicity() {
    // Two reads of one location by one thread never go backwards when both are atomic.
    assert!(!allows(&test("T0: x = 1 | T1: r0 = x; r1 = x"), "r0=1 r1=0"));
    // Two read-modify-writes never read the same value.
    assert!(!allows(&test("T0: r0 = atomicAdd(x, 1) | T1: r1 = atomicAdd(x, 1)"), "r0=0 r1=0"));
    assert!(allows(&test("T0: r0 = atomicAdd(x, 1) | T1: r1 = atomicAdd(x, 1)"), "r0=0 r1=1 x=2"));
    // Load buffering: no dependencies, so allowed.
    assert!(allows(&test("T0: r0 = x; y = 1 | T1: r1 = y; x = 1"), "r0=1 r1=1"));
    // A barrier in one workgroup orders; across workgroups it does not synchronise.
    assert!(!allows(&test("T0@wg0: x = 1; workgroupBarrier() | T1@wg0: workgroupBarrier(); r0 = x"), "r0=0"));
    assert!(allows(&test("T0@wg0: x = 1; workgroupBarrier() | T1@wg1: workgroupBarrier(); r0 = x"), "r0=0"));
}

/// One published test, as `published_scoped.txt` writes it.
struct Published<'a> {
    name: &'a str,
    test: &'a str,
    condition: &'a str,
    allowed: bool,
}

/// The published scoped tests, translated into the lab's syntax with the verdict their source
/// gives (its header says where each comes from and how the verdicts were read).
fn published() -> Vec<Published<'static>> {
    let text = include_str!("published_scoped.txt");
    let field = |entry: &'static str, key: &str| entry.lines().find_map(|l| l.strip_prefix(key)).map(str::trim).unwrap_or_else(|| panic!("an entry lacks {key}\n{entry}"));
    text.split("\n\n")
        .filter(|e| e.trim_start().starts_with("name:"))
        .map(|e| Published {
            name: field(e, "name:"),
            test: field(e, "test:"),
            condition: field(e, "condition:"),
            allowed: match field(e, "expected:") {
                "allowed" => true,
                "forbidden" => false,
                other => panic!("expected: {other}?"),
            },
        })
        .collect()
}

#[test]
fn published_scoped_tests_get_their_sources_verdicts() {
    let tests = published();
    assert!(tests.len() >= 80, "{} published tests", tests.len());
    let mut disagree = Vec::new();
    for p in &tests {
        let t = parse(p.test, Placement::Across, Space::Storage).unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let possible = t.outcomes().iter().any(|o| matches(&t, o, p.condition));
        assert!(possible, "{}: no outcome of the test matches {}", p.name, p.condition);
        if allows(&t, p.condition) != p.allowed {
            disagree.push(format!("{} (source: {})", p.name, if p.allowed { "allowed" } else { "forbidden" }));
        }
    }
    assert!(disagree.is_empty(), "{} of {} disagree:\n{}", disagree.len(), tests.len(), disagree.join("\n"));
}
