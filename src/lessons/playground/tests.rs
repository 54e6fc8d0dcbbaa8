//! The playground's reading of a reader's kernel: what it refuses and why, the buffers it lays
//! out, and what one run to the end finds.

use super::*;

fn analysed(source: &str, choices: &Choices) -> Analysis {
    let opened = open(source, choices).unwrap_or_else(|e| panic!("{e}"));
    analyse(&opened).unwrap_or_else(|e| panic!("{e}"))
}

/// The 1-based line of `source` holding `needle`.
fn line_of(source: &str, needle: &str) -> usize {
    source.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("no {needle:?}")) + 1
}

fn with_fills(fills: &[(&str, &str)]) -> Choices {
    Choices { fills: fills.iter().map(|(n, f)| (n.to_string(), Fill::parse(f).unwrap())).collect(), ..Choices::default() }
}

#[test]
fn the_starter_races_on_its_total_and_names_both_lines() {
    let a = analysed(kernels::STARTER.source(), &Choices::default());
    assert_eq!(a.unfinished, None);
    assert!(a.count(Kind::Race) >= 1, "{:?}", a.found);
    let race = a.found.iter().find(|f| f.kind == Kind::Race).unwrap();
    let line = line_of(kernels::STARTER.source(), "total = total + 1u");
    assert_eq!(race.lines, vec![line, line], "{race:?}");
    assert_eq!(race.invocations.len(), 2);
    assert_ne!(race.invocations[0], race.invocations[1]);
    assert!(race.text.contains("total"), "{}", race.text);
    // Replayed to the step it was found at, the run has just taken the second access.
    assert!(race.at_step >= 2 && race.at_step <= a.order.len());
    assert_eq!(a.order[race.at_step - 1], race.invocations[1]);
}

#[test]
fn the_starter_made_atomic_has_no_race() {
    let fixed = kernels::STARTER.source().replace("var<storage, read_write> total: u32", "var<storage, read_write> total: atomic<u32>").replace("total = total + 1u;", "atomicAdd(&total, 1u);");
    let a = analysed(&fixed, &Choices::default());
    assert_eq!(a.found, Vec::new());
    assert_eq!(a.unfinished, None);
}

/// Every kernel the site ships, opened by its text alone (its own `// playground:` line sets
/// its sizes and buffers), is what its lesson says it is: race-free kernels give no finding and
/// end, racy ones give their race, and a lost update between atomics shows as more than one way
/// to end (`verdicts.txt` beside this file, which the browser test reads too).
#[test]
fn every_kernel_the_site_ships_is_what_its_lesson_says() {
    let verdicts: Vec<(&str, &str)> = VERDICTS.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(|l| {
        let mut cols = l.split('\t');
        (cols.next().unwrap(), cols.next().unwrap_or_else(|| panic!("no verdict: {l}")))
    }).collect();
    let shipped: Vec<crate::gpu::Kernel> = crate::lessons::all_kernels().filter(|k| *k != kernels::STARTER).collect();
    for k in &shipped {
        assert!(verdicts.iter().any(|(p, _)| *p == k.path()), "{} has no verdict", k.path());
    }
    for (path, verdict) in &verdicts {
        let k = shipped.iter().find(|k| k.path() == *path).unwrap_or_else(|| panic!("{path} is not a kernel the site ships"));
        let opened = open(k.source(), &Choices::default()).unwrap_or_else(|e| panic!("{path}: {e}"));
        let a = analyse(&opened).unwrap_or_else(|e| panic!("{path}: {e}"));
        match *verdict {
            "race-free" => assert!(a.found.is_empty() && a.unfinished.is_none(), "{path}: {:?} {:?}", a.found, a.unfinished),
            "race" => assert!(a.count(Kind::Race) >= 1, "{path}: {:?}", a.found),
            "lost-update" => {
                assert_eq!(a.count(Kind::Race), 0, "{path}: {:?}", a.found);
                let ends = reachable(&opened).unwrap().outcomes.len();
                assert!(ends > 1, "{path}: the model ends only {ends} way(s)");
            }
            other => panic!("{path}: no verdict \"{other}\""),
        }
    }
}

const VERDICTS: &str = include_str!("verdicts.txt");

#[test]
fn a_barrier_removed_makes_a_race_appear() {
    let with = "
        var<workgroup> cells: array<u32, 4>;
        @group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
        @compute @workgroup_size(4)
        fn main(@builtin(local_invocation_index) i: u32) {
            cells[i] = i + 1u;
            workgroupBarrier();
            out[i] = cells[(i + 1u) % 4u];
        }";
    assert_eq!(analysed(with, &Choices::default()).found, Vec::new());
    let without = with.replace("workgroupBarrier();", "");
    let a = analysed(&without, &Choices::default());
    assert!(a.count(Kind::Race) >= 1, "{:?}", a.found);
    let race = a.found.iter().find(|f| f.kind == Kind::Race).unwrap();
    let lines = [line_of(&without, "cells[i] ="), line_of(&without, "out[i] =")];
    assert_eq!(race.lines.iter().copied().collect::<std::collections::BTreeSet<_>>(), lines.into());
}

#[test]
fn naga_takes_a_barrier_in_a_branch_and_the_run_finds_it_not_reached() {
    let source = "
        @group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
        @compute @workgroup_size(4)
        fn main(@builtin(local_invocation_index) i: u32) {
            if i < 2u {
                workgroupBarrier();
            }
            out[i] = i;
        }";
    let a = analysed(source, &Choices::default());
    assert!(a.count(Kind::Divergence) >= 1, "{:?}", a.found);
    assert!(a.found.iter().any(|f| f.kind == Kind::Divergence && f.lines.contains(&line_of(source, "workgroupBarrier"))), "{:?}", a.found);
}

#[test]
fn two_workgroups_race_on_one_word_whatever_their_barriers() {
    let source = "
        @group(0) @binding(0) var<storage, read_write> last: u32;
        @compute @workgroup_size(2)
        fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) i: u32) {
            storageBarrier();
            if i == 0u {
                last = group.x;
            }
            storageBarrier();
        }";
    assert_eq!(analysed(source, &Choices::default()).found, Vec::new(), "one workgroup: one writer");
    let a = analysed(source, &Choices { workgroups: Some(2), ..Choices::default() });
    let race = a.found.iter().find(|f| f.kind == Kind::Race).unwrap_or_else(|| panic!("{:?}", a.found));
    let line = line_of(source, "last = group.x");
    assert_eq!(race.lines, vec![line, line]);
}

#[test]
fn a_wait_nobody_ends_is_stopped_and_said() {
    let source = "
        @group(0) @binding(0) var<storage, read_write> flag: atomic<u32>;
        @compute @workgroup_size(1)
        fn main() {
            while atomicLoad(&flag) == 0u {}
        }";
    let a = analysed(source, &Choices::default());
    assert!(a.unfinished.as_deref().is_some_and(|u| u.contains("not ended")), "{:?}", a.unfinished);
    assert!(a.steps <= STEP_BUDGET);
}

#[test]
fn a_private_loop_without_end_is_a_spin_found() {
    let source = "
        @group(0) @binding(0) var<storage, read_write> out: u32;
        @compute @workgroup_size(1)
        fn main() {
            var x = 0u;
            loop { x = x + 1u; }
            out = x;
        }";
    let a = analysed(source, &Choices::default());
    assert!(a.count(Kind::Spin) == 1, "{:?}", a.found);
}

/// 256 invocations that each spin share the page's private budget: each is stopped after its
/// share, not after the interpreter's own 100,000 instructions, and says so.
#[test]
fn many_invocations_that_spin_are_stopped_after_their_share_of_the_budget() {
    let source = "
        @group(0) @binding(0) var<storage, read_write> out: array<u32>;
        @compute @workgroup_size(256)
        fn main(@builtin(local_invocation_index) i: u32) {
            var x = 0u;
            loop { x = x + 1u; }
            out[i] = x;
        }";
    let opened = open(source, &Choices::default()).unwrap();
    let (a, model, _) = read(&opened).unwrap();
    // One finding for the line, however many invocations spin on it.
    assert_eq!(a.count(Kind::Spin), 1, "{:?}", a.found);
    let share = crate::text::grouped(u64::from(PRIVATE_WORK / 256));
    assert!(a.found[0].text.contains(&format!("ran {share} instructions")), "{}", a.found[0].text);
    assert_eq!(model.threads.len(), 256);
    assert_eq!(a.steps, 0, "every invocation was stopped before its first step");
}

/// A kernel's own `// playground:` line sets its sizes, overrides and fills; the reader's
/// choices come before it, and a word it cannot follow is refused with its line.
#[test]
fn a_kernels_own_line_opens_it_as_it_asks() {
    let source = "
        struct Params { n: u32, step: u32 }
        @group(0) @binding(0) var<storage, read_write> out: array<u32>;
        @group(0) @binding(1) var<uniform> params: Params;
        override width: u32 = 64u;
        @compute @workgroup_size(width)
        fn main(@builtin(global_invocation_id) id: vec3<u32>) {
            out[id.x] = params.n + params.step * id.x;
        }
        // playground: workgroups=2 width=4 elements=9 params=5,2 out=index";
    let o = open(source, &Choices::default()).unwrap();
    assert_eq!((o.setup.workgroups, o.invocations), (2, 8));
    assert_eq!((o.elements, o.buffers[0].words), (9, 9));
    assert_eq!(o.buffers[0].fill, Fill::Index);
    assert_eq!(o.buffers[1].fill, Fill::List(vec![5, 2]));
    let end = reachable(&o).unwrap();
    assert_eq!(end.outcomes[0].memory, vec![vec![5, 7, 9, 11, 13, 15, 17, 19, 8]]);
    // The reader's choices first.
    let mine = open(source, &Choices { workgroups: Some(1), elements: Some(4), ..with_fills(&[("params", "1,1")]) }).unwrap();
    assert_eq!((mine.invocations, mine.buffers[0].words, mine.buffers[1].fill.clone()), (4, 4, Fill::List(vec![1, 1])));
    for (bad, says) in [("nobody=3", "no buffer or override named `nobody`"), ("workgroups=99", "1 to 8"), ("params=x", "params"), ("width", "name=value")] {
        let text = source.replace("workgroups=2 width=4 elements=9 params=5,2 out=index", bad);
        let refusal = open(&text, &Choices::default()).unwrap_err();
        assert_eq!(refusal.line as usize, line_of(&text, "// playground:"), "{bad}");
        assert!(refusal.reason.contains(says), "{bad}: {}", refusal.reason);
    }
}

#[test]
fn bad_input_is_refused_in_words_and_never_panics() {
    let refused = |source: &str, choices: &Choices| open(source, choices).expect_err(source).to_string();
    let choices = Choices::default();
    assert!(refused("", &choices).contains("no kernel"));
    assert!(refused("   \n  ", &choices).contains("no kernel"));
    assert!(refused(&"a".repeat(MAX_SOURCE_BYTES + 1), &choices).contains("at most"));
    assert!(!refused("fn main() {}", &choices).is_empty());
    assert!(!refused(&"{".repeat(10_000), &choices).is_empty());
    assert!(!refused("\u{0}\u{1}\u{fffd}", &choices).is_empty());
    let starter = kernels::STARTER.source();
    assert!(refused(starter, &Choices { workgroups: Some(0), ..Choices::default() }).contains("workgroups"));
    assert!(refused(starter, &Choices { workgroups: Some(99), ..Choices::default() }).contains("workgroups"));
    assert!(refused(starter, &Choices { elements: Some(1 << 30), ..Choices::default() }).contains("elements"));
    assert!(refused(starter, &with_fills(&[("nope", "zeros")])).contains("nope"));
    let big = starter.replace("@workgroup_size(workgroup_size)", "@workgroup_size(1024)");
    assert!(refused(&big, &choices).contains("at most"));
    let line = open("@compute @workgroup_size(1)\nfn main() {\n  let x: u32 = ;\n}", &choices).unwrap_err();
    assert_eq!(line.line, 3, "{line}");
}

#[test]
fn fills_read_their_own_text_back() {
    for text in ["zeros", "index", "random:7", "3,1,2", "64"] {
        let fill = Fill::parse(text).unwrap();
        assert_eq!(Fill::parse(&fill.text()).unwrap(), fill, "{text}");
    }
    assert_eq!(Fill::parse("index").unwrap().words(4), vec![0, 1, 2, 3]);
    assert_eq!(Fill::parse("3,1").unwrap().words(4), vec![3, 1, 0, 0]);
    assert_eq!(Fill::parse("-1").unwrap().words(1), vec![u32::MAX]);
    assert_eq!(Fill::parse("random:3").unwrap().words(8), Fill::parse("random:3").unwrap().words(8));
    assert!(Fill::parse("seven").is_err());
    assert!(Fill::parse("random:x").is_err());
}

#[test]
fn buffers_come_from_the_bindings_with_runtime_arrays_sized_by_the_run() {
    let opened = open(kernels::STARTER.source(), &with_fills(&[("seen", "index")])).unwrap();
    let names: Vec<(&str, u32)> = opened.buffers.iter().map(|b| (b.name.as_str(), b.words)).collect();
    assert_eq!(names, vec![("total", 1), ("seen", 4)]);
    assert_eq!(opened.setup.buffers[1].1, vec![0, 1, 2, 3]);
    let more = open(kernels::STARTER.source(), &Choices { elements: Some(10), workgroups: Some(2), ..Choices::default() }).unwrap();
    assert_eq!(more.buffers[1].words, 10);
    assert_eq!(more.invocations, 8);
}

#[test]
fn a_uniforms_invocations_starts_as_the_invocation_count() {
    // The racy counter, without its own line: `params.invocations` starts as the invocation
    // count, so every invocation does its work.
    let racy = crate::lessons::race::kernels::RACY.source().replace(ASKS, "// ");
    let opened = open(&racy, &Choices::default()).unwrap();
    assert_eq!(opened.buffers[1].fill, Fill::List(vec![64]));
    let a = analyse(&opened).unwrap();
    // A load and a store each: the add is private, folded into the store it feeds.
    assert_eq!(a.steps, 2 * 64);
    // Its atomics are a lost update, not a data race: every access to the counter is atomic.
    assert_eq!(a.count(Kind::Race), 0);
    // Set to 0, every invocation returns at once.
    assert_eq!(analyse(&open(&racy, &with_fills(&[("params", "0")])).unwrap()).unwrap().steps, 0);
}

/// The same kernel on a real device (lavapipe here): an atomic sum ends at exactly the number
/// of invocations in every run; the racy one anywhere from 1 to it.
#[test]
fn on_the_gpu_the_atomic_sum_has_one_outcome_and_the_racy_one_stays_within_bounds() {
    let Some(ctx) = crate::testing::gpu() else { return };
    let choices = Choices { workgroups: Some(4), ..Choices::default() };
    let atomic = kernels::STARTER.source().replace("total: u32", "total: atomic<u32>").replace("total = total + 1u;", "atomicAdd(&total, 1u);");
    let opened = open(&atomic, &choices).unwrap();
    let outcomes = pollster::block_on(gpu::run(&ctx, &opened, 20)).unwrap();
    assert_eq!(outcomes.runs, 20);
    assert_eq!(outcomes.distinct.len(), 1, "{outcomes:?}");
    let (memory, count) = &outcomes.distinct[0];
    assert_eq!((memory[0].as_slice(), *count), ([16u32].as_slice(), 20));
    assert_eq!(memory[1], (0..16).collect::<Vec<u32>>());
    let racy = open(kernels::STARTER.source(), &choices).unwrap();
    let outcomes = pollster::block_on(gpu::run(&ctx, &racy, 20)).unwrap();
    assert_eq!(outcomes.distinct.iter().map(|d| d.1).sum::<u32>(), 20);
    for (memory, _) in &outcomes.distinct {
        assert!((1..=16).contains(&memory[0][0]), "{memory:?}");
    }
}

/// The page binds what the kernel declares, where it declares it: an entry point of any name,
/// buffers in two groups, one of them declared and never used, a read-only one and a uniform.
#[test]
fn any_entry_point_and_bindings_in_two_groups_run_on_the_gpu() {
    let Some(ctx) = crate::testing::gpu() else { return };
    let source = "
        struct Sizes { n: u32 }
        @group(0) @binding(0) var<storage, read> input: array<u32>;
        @group(0) @binding(3) var<storage, read_write> unused: array<u32, 2>;
        @group(1) @binding(1) var<storage, read_write> output: array<u32>;
        @group(1) @binding(0) var<uniform> sizes: Sizes;
        @compute @workgroup_size(4)
        fn double_them(@builtin(global_invocation_id) id: vec3<u32>) {
            if id.x < sizes.n {
                output[id.x] = input[id.x] * 2u;
            }
        }";
    let choices = with_fills(&[("input", "index"), ("sizes", "3")]);
    let opened = open(source, &choices).unwrap();
    assert_eq!(analyse(&opened).unwrap().found, Vec::new());
    let outcomes = pollster::block_on(gpu::run(&ctx, &opened, 3)).unwrap();
    assert_eq!(outcomes.distinct.len(), 1, "{outcomes:?}");
    // Storage buffers in the kernel's order: input, unused, output.
    assert_eq!(outcomes.distinct[0].0, vec![vec![0, 1, 2, 3], vec![0, 0], vec![0, 2, 4, 0]]);
}

#[test]
fn the_starter_can_end_with_any_total_from_one_to_four_and_each_has_its_order() {
    let opened = open(kernels::STARTER.source(), &Choices::default()).unwrap();
    let r = reachable(&opened).unwrap();
    assert!(r.every_order);
    let mut totals: Vec<u32> = r.outcomes.iter().map(|o| o.memory[0][0]).collect();
    totals.sort_unstable();
    assert_eq!(totals, vec![1, 2, 3, 4]);
    for o in &r.outcomes {
        assert_eq!(o.memory[1], vec![0, 1, 2, 3]);
        // The order given reaches that memory when replayed.
        let mut run = Run::new(Arc::new(opened.program.borrowed()), &opened.setup).unwrap();
        for &i in &o.schedule {
            run.step(i).unwrap();
        }
        assert!(run.is_finished());
        assert_eq!(final_memory(&opened, &run), o.memory);
    }
    let atomic = kernels::STARTER.source().replace("total: u32", "total: atomic<u32>").replace("total = total + 1u;", "atomicAdd(&total, 1u);");
    let r = reachable(&open(&atomic, &Choices::default()).unwrap()).unwrap();
    assert!(r.every_order);
    assert_eq!(r.outcomes.iter().map(|o| o.memory[0][0]).collect::<Vec<_>>(), vec![4]);
}

#[test]
fn too_many_orders_are_sampled_and_said_so() {
    let many = kernels::STARTER.source().replace("override workgroup_size: u32 = 4u;", "override workgroup_size: u32 = 64u;");
    let r = reachable(&open(&many, &Choices::default()).unwrap()).unwrap();
    assert!(!r.every_order);
    assert!(!r.outcomes.is_empty());
    assert!(r.outcomes.iter().all(|o| (1..=64).contains(&o.memory[0][0])));
}

/// lavapipe's final memories of the racy starter lie among the model's: every order of steps
/// was tried, so a memory outside them would be the device's doing, not the schedule's.
#[test]
fn the_gpus_final_memories_lie_among_the_models() {
    let Some(ctx) = crate::testing::gpu() else { return };
    let opened = open(kernels::STARTER.source(), &Choices::default()).unwrap();
    let r = reachable(&opened).unwrap();
    assert!(r.every_order);
    let outcomes = pollster::block_on(gpu::run(&ctx, &opened, 50)).unwrap();
    for (memory, _) in &outcomes.distinct {
        assert!(r.contains(memory), "{memory:?} is not among {:?}", r.outcomes);
    }
}
