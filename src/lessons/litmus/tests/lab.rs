//! The litmus lab: what it reads from a link, the outcome table's verdicts, the kernels it
//! writes for every preset, and those kernels run natively (lavapipe in CI): every instance
//! counted once and nothing the memory model forbids. Weak outcomes are printed, never asserted.

use crate::lessons::litmus::generate::kernels;
use crate::lessons::litmus::gpu::{compile, run, Shape, CPU_SPIN_LIMIT, INSTANCES, SPIN_LIMIT, WORKGROUP_SIZE};
use crate::lessons::litmus::{export, preset_of, preset_text, rows, BarrierModifier, LabSettings, Wgsl, MAX_TEXT};
use crate::model::litmus::{Placement, PRESETS};
use crate::model::Space;
use std::time::Instant;

use crate::testing::gpu;

fn link(pairs: &[(&str, &str)]) -> (LabSettings, Vec<String>) {
    LabSettings::parse(|k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| (*v).to_owned()))
}

fn settings(preset: &str, placement: Placement, memory: Space, barrier: BarrierModifier) -> LabSettings {
    LabSettings { text: preset_text(preset), placement, memory, barrier }
}

/// Every way the lab can run a preset: both placements in storage memory, workgroup memory in
/// one workgroup, each without and with a barrier of the memory's class.
fn configurations() -> Vec<(Placement, Space, BarrierModifier)> {
    vec![
        (Placement::Across, Space::Storage, BarrierModifier::None),
        (Placement::Same, Space::Storage, BarrierModifier::None),
        (Placement::Same, Space::Storage, BarrierModifier::Storage),
        (Placement::Same, Space::Workgroup, BarrierModifier::None),
        (Placement::Same, Space::Workgroup, BarrierModifier::Workgroup),
        (Placement::Across, Space::Storage, BarrierModifier::Storage),
    ]
}

#[test]
fn a_link_opens_a_preset_or_a_test_and_refuses_what_it_cannot_read() {
    let (s, problems) = link(&[("preset", "sb"), ("placement", "same"), ("barrier", "storage")]);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(s.text, "T0: x=1; r0=y\nT1: y=1; r1=x");
    assert_eq!((s.placement, s.barrier), (Placement::Same, BarrierModifier::Storage));
    // The link the page writes reopens the same state.
    let pairs = s.to_pairs();
    let (again, _) = LabSettings::parse(|k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()));
    assert_eq!(again, s);
    assert_eq!(pairs[0], ("preset", "sb".to_owned()), "a preset's text is linked by name");

    let own = "T0: x = 1; r0 = atomicAdd(y, 2)\nT1: y = 3; r1 = x";
    let (s, problems) = link(&[("test", own)]);
    assert!(problems.is_empty());
    assert_eq!(s.text, own);
    assert_eq!(s.to_pairs()[0], ("test", own.to_owned()));

    let (s, problems) = link(&[("preset", "nope"), ("placement", "sideways"), ("memory", "disk"), ("barrier", "fence")]);
    assert_eq!(s, LabSettings::default());
    assert_eq!(problems.len(), 4, "{problems:?}");
    assert!(problems[0].contains("preset=") && problems[0].contains("mp, sb"), "{}", problems[0]);

    let (s, problems) = link(&[("memory", "workgroup")]);
    assert_eq!(s.placement, Placement::Same, "workgroup memory needs one workgroup");
    assert_eq!(problems.len(), 1);

    let long = "T0: x=1;".repeat(MAX_TEXT);
    let (s, problems) = link(&[("test", &long)]);
    assert_eq!(s.text, LabSettings::default().text);
    assert!(problems[0].contains("longer than"), "{problems:?}");
    assert_eq!(preset_of("T0: x = 1 ; y = 1 | T1 : r0 = y ; r1 = x"), Some("mp"), "spacing and separators do not matter");
}

#[test]
fn mistakes_name_their_line_and_column_and_oversized_tests_are_refused() {
    let mut s = LabSettings { text: "T0: x = 1\nT1: r0 = q".into(), ..LabSettings::default() };
    let e = s.test().unwrap_err();
    assert_eq!(e.line, Some((2, 10)), "{e}");
    assert!(e.message.contains("unknown location"), "{e}");
    // Twelve loads of x, each of four values: 4¹² × 4 outcomes, far more than a table can list
    // or the count kernel keep counters for.
    s.text = (0..4).map(|t| format!("T{t}: x=1; x=2; x=3; r{a}=x; r{b}=x; r{c}=x", a = 3 * t, b = 3 * t + 1, c = 3 * t + 2)).collect::<Vec<_>>().join("\n");
    let e = s.test().unwrap_err();
    assert_eq!(e.message, "67108864 outcomes: the lab lists at most 4096. Use fewer registers, or fewer values per location.");
    // Twelve stores and four loads of x: a table of 1,024 rows, but far too many candidate
    // executions to weigh.
    s.text = (0..4).map(|t| format!("T{t}: x=1; x=2; x=3; r{t}=x")).collect::<Vec<_>>().join("\n");
    let e = s.test().unwrap_err();
    assert!(e.line.is_none() && e.message.contains("candidate executions"), "{e}");
}

#[test]
fn the_table_gives_both_verdicts_and_their_reasons() {
    let table = |s: &LabSettings| rows(&s.test().unwrap());
    let find = |rows: &[crate::lessons::litmus::Row], name: &str| rows.iter().find(|r| r.name == name).cloned().unwrap();
    let mp = table(&settings("mp", Placement::Across, Space::Storage, BarrierModifier::None));
    assert_eq!(mp.len(), 4);
    let weak = find(&mp, "r0=1 r1=0");
    assert!(weak.sc.is_none() && weak.allowed(), "weak message passing: allowed, not sequentially consistent");
    for r in mp.iter().filter(|r| r.name != "r0=1 r1=0") {
        let moves = r.sc.as_ref().expect("the other three are interleavings");
        assert_eq!(moves.len(), 4);
    }
    // In one workgroup with storageBarrier() between the accesses, the weak outcome is forbidden.
    let fenced = table(&settings("mp", Placement::Same, Space::Storage, BarrierModifier::Storage));
    match &find(&fenced, "r0=1 r1=0").wgsl {
        Wgsl::Forbidden(refusal) => assert!(!refusal.why.is_empty()),
        other => panic!("expected forbidden, got {other:?}"),
    }
    // Coherence: a location's final value is part of the outcome, and 2+2W lists it.
    let coww = table(&settings("coww", Placement::Across, Space::Storage, BarrierModifier::None));
    assert_eq!(coww.iter().map(|r| (r.name.as_str(), r.allowed())).collect::<Vec<_>>(), [("x=0", false), ("x=1", false), ("x=2", true)]);
    // Whatever an interleaving reaches, WGSL allows.
    for (name, _) in PRESETS {
        for (p, m, b) in configurations() {
            for r in table(&settings(name, p, m, b)) {
                assert!(r.sc.is_none() || r.allowed(), "{name} {p:?} {m:?} {b:?}: {}", r.name);
            }
        }
    }
}

#[test]
fn the_export_lists_every_outcome_with_its_verdicts() {
    let s = settings("sb", Placement::Across, Space::Storage, BarrierModifier::None);
    let t = s.test().unwrap();
    let json = export(&s, &t, &rows(&t), None).to_pretty();
    assert!(json.contains("\"test\": \"T0: x=1; r0=y\\nT1: y=1; r1=x\""), "{json}");
    assert_eq!(json.matches("\"outcome\"").count(), 4);
    assert!(json.contains("\"execution\": \"T0: r0 = y reads the initial 0; T1: r1 = x reads the initial 0\""), "{json}");
}

#[test]
fn every_preset_has_kernels_that_name_its_statements() {
    for (name, _) in PRESETS {
        for (p, m, b) in configurations() {
            let s = settings(name, p, m, b);
            let t = s.test().unwrap();
            let k = kernels(&t, &s.text, WORKGROUP_SIZE);
            assert_eq!(k.outcomes, t.outcomes().len(), "{name}");
            assert!(k.test.source.contains("fn main"), "{name}");
            // Every barrier the test has stands at the top of the kernel, reached by every lane.
            let barriers =
                k.test.source.lines().filter(|l| l.trim_start().starts_with("workgroupBarrier()") || l.trim_start().starts_with("storageBarrier()")).count();
            let most = t.threads.iter().map(|ops| ops.iter().filter(|o| matches!(o, crate::model::litmus::Op::Barrier(_))).count()).max().unwrap();
            let copy_out = usize::from(m == Space::Workgroup && !t.overwritten().is_empty());
            assert!(barriers >= most + copy_out, "{name} {p:?} {m:?} {b:?}: {barriers} barriers for {most}");
            for l in k.test.source.lines().filter(|l| l.contains("Barrier()")) {
                assert!(l.starts_with("    ") && !l.starts_with("     "), "{name}: a barrier inside a branch: {l:?}");
            }
        }
    }
}

fn now_ms() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

#[test]
fn every_preset_runs_natively_counting_every_instance_and_nothing_forbidden() {
    let Some(ctx) = gpu() else { return };
    // lavapipe runs on the CPU, so the lab waits the CPU's shorter time for partners there.
    if ctx.adapter.name.contains("llvmpipe") {
        assert!(ctx.adapter.is_cpu, "{:?}", ctx.adapter);
    }
    for (name, _) in PRESETS {
        for (p, m, b) in configurations() {
            let s = settings(name, p, m, b);
            let t = s.test().unwrap();
            let table = rows(&t);
            let compiled = pollster::block_on(compile(&ctx, kernels(&t, &s.text, WORKGROUP_SIZE))).unwrap_or_else(|e| panic!("{name} {p:?} {m:?} {b:?}: {e}"));
            let counts = pollster::block_on(run(&ctx, &t, &compiled, INSTANCES, 2, 1, now_ms)).unwrap();
            assert_eq!(counts.shape, Shape::of(&t, INSTANCES));
            assert_eq!(counts.spin_limit, if ctx.adapter.is_cpu { CPU_SPIN_LIMIT } else { SPIN_LIMIT });
            assert!(counts.shape.instances >= INSTANCES);
            assert_eq!(counts.unlisted, 0, "{name} {p:?} {m:?} {b:?}");
            assert_eq!(counts.counts.iter().sum::<u64>(), counts.instances(), "{name} {p:?} {m:?} {b:?}: every instance counted once");
            let mut weak = Vec::new();
            for (r, &c) in table.iter().zip(&counts.counts) {
                assert!(r.allowed() || c == 0, "{name} {p:?} {m:?} {b:?}: forbidden {} seen {c} times", r.name);
                if r.sc.is_none() && c > 0 {
                    weak.push(format!("{} {c}", r.name));
                }
            }
            if b == BarrierModifier::None {
                eprintln!(
                    "{name} {p:?} {m:?} on {}: {:.0} instances/s, weak: {}",
                    ctx.adapter.name,
                    counts.per_second(),
                    if weak.is_empty() { "none".into() } else { weak.join(", ") }
                );
            }
        }
    }
}

#[test]
fn random_texts_never_panic_the_lab() {
    let alphabet: Vec<char> = "T0123:xyzr=;|() ,atomicAdExchngeWkBrrsto\n&u".chars().collect();
    let mut seed = 11u64;
    let mut next = || {
        seed = crate::model::splitmix64(seed);
        seed
    };
    for i in 0..2000 {
        let len = (next() % 60) as usize;
        let text: String = (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
        let placement = if i % 2 == 0 { Placement::Same } else { Placement::Across };
        let s = LabSettings { text, placement, memory: Space::Storage, barrier: BarrierModifier::None };
        if let Ok(t) = s.test() {
            let table = rows(&t);
            let k = kernels(&t, &s.text, WORKGROUP_SIZE);
            assert_eq!(k.outcomes, table.len());
        }
    }
}

#[test]
fn the_model_player_steps_each_interleaving_to_its_outcome() {
    use crate::lessons::litmus::LabModel;
    for (name, _) in PRESETS {
        for (p, m, b) in configurations() {
            let t = settings(name, p, m, b).test().unwrap();
            let model = LabModel::of(&t);
            for r in rows(&t) {
                let Some(moves) = &r.sc else { continue };
                let mut session = model.replay(moves);
                assert_eq!(session.cursor(), 0, "the reader steps it from the start");
                let end = session.run_to_end().clone();
                assert!(end.is_finished(), "{name} {p:?} {m:?} {b:?} {}: every thread done", r.name);
                // Every step is one of the test's own lines: none spent choosing a thread's
                // block or leaving it. A statement takes one step (a read-modify-write also
                // sets its operands first; a barrier one thread passes alone is left out).
                assert!(model.owner.iter().all(Option::is_some), "{name}: a line that is no statement");
                let lines_of = |mv: &(usize, usize)| model.owner.iter().filter(|o| **o == Some(*mv)).count();
                assert_eq!(session.known_ticks(), moves.iter().map(lines_of).sum::<usize>(), "{name} {p:?} {m:?} {b:?} {}", r.name);
                assert_eq!(LabModel::outcome(&t, &end), r.name, "{name} {p:?} {m:?} {b:?}");
            }
        }
    }
}

#[test]
fn the_h100_figures_cover_every_preset_and_add_up() {
    use crate::data::measured::Table;
    use crate::lessons::litmus::measured::{parse_litmus_report, read_outcomes, H100_LITMUS, SCHEMA};
    assert_eq!(Table::parse(H100_LITMUS).expect("data/h100-litmus.json has a table").conforms(SCHEMA), Ok(()));
    let (adapter, configs) = parse_litmus_report(H100_LITMUS).expect("data/h100-litmus.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    for (name, _) in PRESETS {
        for placement in ["across", "same"] {
            assert!(
                configs.iter().any(|c| c.preset == name && c.placement == placement && c.memory == "storage" && c.barrier == "none"),
                "{name} {placement}: no row"
            );
        }
        assert!(configs.iter().any(|c| c.preset == name && c.memory == "workgroup"), "{name}: no workgroup-memory row");
    }
    for c in &configs {
        let at = format!("{} {}", c.preset, c.configuration());
        assert!(c.instances_per_dispatch >= INSTANCES, "{at}");
        assert_eq!(u64::from(c.instances), u64::from(c.instances_per_dispatch) * u64::from(c.dispatches), "{at}");
        let counted: u64 = c.outcomes.iter().map(|o| o.count).sum::<u64>() + u64::from(c.unlisted);
        assert_eq!(counted, u64::from(c.instances), "{at}: every instance counted once");
        assert!(c.per_second > 0.0 && c.wall_ms > 0.0, "{at}");
        // The row's totals are its outcomes', and its verdicts the lab's own for that configuration.
        assert_eq!(u64::from(c.weak), c.outcomes.iter().filter(|o| o.weak()).map(|o| o.count).sum::<u64>(), "{at}");
        assert_eq!(u64::from(c.forbidden), c.outcomes.iter().filter(|o| !o.allowed).map(|o| o.count).sum::<u64>(), "{at}");
        assert_eq!(c.flagged, c.forbidden > 0 || c.unlisted > 0, "{at}");
        let placement = if c.placement == "same" { Placement::Same } else { Placement::Across };
        let memory = if c.memory == "workgroup" { Space::Workgroup } else { Space::Storage };
        let barrier = match c.barrier.as_str() {
            "storage" => BarrierModifier::Storage,
            "workgroup" => BarrierModifier::Workgroup,
            _ => BarrierModifier::None,
        };
        let table = rows(&settings(&c.preset, placement, memory, barrier).test().unwrap());
        let named: Vec<(&str, bool, bool)> = table.iter().map(|r| (r.name.as_str(), r.sc.is_some(), r.allowed())).collect();
        let read: Vec<(&str, bool, bool)> = c.outcomes.iter().map(|o| (o.outcome.as_str(), o.sc, o.allowed)).collect();
        assert_eq!(read, named, "{at}: the outcomes in the lab's order, with its verdicts");
    }
    assert_eq!(read_outcomes("r0=1 r1=0: 12 sc=maybe wgsl=allowed"), None, "a verdict that does not read is refused");
}

#[test]
fn results_in_a_link_come_back_as_they_went_and_bad_ones_are_refused_in_words() {
    use crate::lessons::litmus::{SharedResults, MAX_SHARED_COUNTS};
    let run = SharedResults { adapter: "NVIDIA H100 80GB HBM3 (Vulkan)".to_owned(), counts: vec![3_986_895, 796_200, 286_578, 0] };
    assert_eq!(run.to_value(), "NVIDIA H100 80GB HBM3 (Vulkan):3986895,796200,286578,0");
    assert_eq!(SharedResults::parse(&run.to_value()), Ok(run));
    // A name may hold colons of its own: the counts follow the last.
    assert_eq!(SharedResults::parse("GPU: one:1,2").map(|r| (r.adapter, r.counts)), Ok(("GPU: one".to_owned(), vec![1, 2])));
    let too_many = format!("GPU:{}", vec!["1"; MAX_SHARED_COUNTS + 1].join(","));
    for (bad, said) in [
        ("no colon", "no colon found"),
        (":1,2", "GPU's name"),
        ("GPU:1,,2", "“” is not a count"),
        ("GPU:1,-2", "“-2” is not a count"),
        ("GPU:1,2.5", "“2.5” is not a count"),
        ("GPU:99999999999999999999", "is not a count"),
        (too_many.as_str(), "at most 256"),
    ] {
        let e = SharedResults::parse(bad).expect_err(bad);
        assert!(e.starts_with("results= was ignored") && e.contains(said), "{bad}: {e}");
    }
}

/// Threads the test's labels place some together and some apart run so on the GPU: the two
/// together pass their barrier as one workgroup (its storage barrier forbids the weak message
/// passing between them), the third reads from another workgroup.
#[test]
fn threads_placed_by_labels_run_natively_in_their_workgroups() {
    let Some(ctx) = gpu() else { return };
    let text = "T0@wg0: x = 1; storageBarrier(); y = 1\nT1@wg0: storageBarrier(); r0 = x\nT2@wg1: r1 = y; r2 = x";
    let s = LabSettings { text: text.to_owned(), ..LabSettings::default() };
    let t = s.test().unwrap();
    assert_eq!(t.placement, Placement::Mixed);
    let table = rows(&t);
    assert!(!table.iter().find(|r| r.name == "r0=0 r1=0 r2=0").unwrap().allowed(), "the barrier orders T0's store before T1's load");
    assert!(table.iter().find(|r| r.name == "r0=1 r1=1 r2=0").unwrap().allowed(), "nothing orders T2's reads");
    let kernels = kernels(&t, &s.text, WORKGROUP_SIZE);
    assert!(kernels.test.source.contains("let i2 = ((w + 1u) % params.groups)"), "{}", kernels.test.source);
    let compiled = pollster::block_on(compile(&ctx, kernels)).unwrap();
    let counts = pollster::block_on(run(&ctx, &t, &compiled, INSTANCES, 2, 1, now_ms)).unwrap();
    assert_eq!(counts.shape.groups, Shape::of(&t, INSTANCES).groups);
    assert_eq!(counts.unlisted, 0);
    assert_eq!(counts.counts.iter().sum::<u64>(), counts.instances(), "every instance counted once");
    // What this GPU did, for the record (`--nocapture`): the counts, not asserted beyond the model.
    let adapter = &ctx.adapter;
    println!("{} on {} ({}, driver {}): {} instances in {} workgroups", text.replace('\n', " | "), adapter.name, adapter.backend, adapter.driver, counts.instances(), counts.shape.groups);
    for (r, &c) in table.iter().zip(&counts.counts) {
        println!("  {:<16} {:>9}  {}", r.name, c, if r.allowed() { "allowed" } else { "forbidden" });
        assert!(r.allowed() || c == 0, "forbidden {} seen {c} times", r.name);
    }
}
