//! The stepper on the project's own kernels: every kernel under `shaders/` is lowered or listed as
//! not stepped, and a lowered kernel run by the interpreter ends as the same kernel does on the
//! machine's GPU (lavapipe in CI): with the same memory where no schedule can change it, and, for
//! a racy kernel, with a memory the interpreter can reach.

use std::collections::BTreeSet;
use std::sync::Arc;
use stepper::run::{Run, Setup};
use stepper::{Finding, Program};
use syncscope::gpu::buffers::{storage_buffer_with, uniform_words};
use syncscope::gpu::dispatch::dispatch_once;
use syncscope::gpu::readback::u32s;
use syncscope::stepped;
use syncscope::testing::gpu;

#[test]
fn every_kernel_is_lowered_or_listed_with_its_reason() {
    let docs = std::fs::read_to_string("docs/stepper.md").expect("docs/stepper.md");
    let listed: BTreeSet<&str> = docs.lines().filter_map(|l| l.strip_prefix("- `shaders/")).filter_map(|l| l.split('`').next()).collect();
    let refused: BTreeSet<&str> = stepped::NOT_STEPPED.iter().map(|(path, _)| path.strip_prefix("shaders/").unwrap_or(path)).collect();
    assert_eq!(refused, listed, "docs/stepper.md's list of kernels not stepped, against the lowering's refusals: {:?}", stepped::NOT_STEPPED);
    let mut on_disk = 0;
    let mut folders = vec![std::path::PathBuf::from("shaders")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap().flatten() {
            if entry.path().is_dir() {
                folders.push(entry.path());
            } else if entry.path().extension().is_some_and(|x| x == "wgsl") {
                on_disk += 1;
            }
        }
    }
    assert_eq!(stepped::ALL.len() + stepped::NOT_STEPPED.len(), on_disk);
    assert!(stepped::ALL.len() >= 60, "{} kernels lowered", stepped::ALL.len());
}

#[test]
fn the_programs_built_in_are_the_kernels_lowered_now() {
    for (path, program) in stepped::ALL {
        let source = std::fs::read_to_string(path).unwrap();
        let fresh = stepper::lower::lower(&source).unwrap_or_else(|r| panic!("{path}: {r}"));
        assert!(fresh == **program, "{path}: the program built in differs from the kernel lowered now");
    }
}

/// A kernel run the same way by the interpreter and on the GPU: its buffers in binding order.
struct Case {
    file: &'static str,
    program: &'static Program,
    workgroups: u32,
    workgroup_size: u32,
    buffers: Vec<Vec<u32>>,
    /// Buffers whose words no schedule can change, compared word for word; the others (tickets
    /// handed out in the order of arrival) are compared as sets of values.
    exact: &'static [u32],
}

impl Case {
    fn setup(&self) -> Setup {
        Setup {
            workgroups: self.workgroups,
            subgroup_size: 4,
            overrides: vec![("workgroup_size".into(), self.workgroup_size)],
            buffers: self.buffers.iter().enumerate().map(|(b, w)| ((0, b as u32), w.clone())).collect(),
        }
    }

    fn interpreted(&self, seed: u64) -> (Vec<Vec<u32>>, Vec<Finding>) {
        let mut run = Run::new(Arc::new(self.program.clone()), &self.setup()).unwrap();
        run.run_to_end(random(seed), 1_000_000).unwrap();
        let out = (0..self.buffers.len() as u32).map(|b| run.buffer(0, b).unwrap().to_vec()).collect();
        (out, run.findings.clone())
    }

    fn on_gpu(&self, ctx: &syncscope::gpu::GpuContext) -> Vec<Vec<u32>> {
        let source = std::fs::read_to_string(self.file).unwrap();
        let pipeline = pollster::block_on(ctx.compile("stepped", &source, self.workgroup_size)).unwrap();
        let buffers: Vec<wgpu::Buffer> = self
            .buffers
            .iter()
            .enumerate()
            .map(|(b, words)| {
                let var = &self.program.vars[self.program.binding(0, b as u32).unwrap() as usize];
                match var.space {
                    stepper::ir::Space::Uniform => uniform_words(&ctx.device, words),
                    _ => storage_buffer_with(&ctx.device, "stepped", &words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()),
                }
            })
            .collect();
        let reads: Vec<(&wgpu::Buffer, u64)> =
            buffers.iter().zip(&self.buffers).filter(|(b, _)| b.usage().contains(wgpu::BufferUsages::COPY_SRC)).map(|(b, w)| (b, 4 * w.len() as u64)).collect();
        let bound: Vec<&wgpu::Buffer> = buffers.iter().collect();
        let read = pollster::block_on(dispatch_once(ctx, &pipeline, "stepped", &bound, self.workgroups, &reads, false)).unwrap();
        let mut out = Vec::new();
        let mut got = read.buffers.iter();
        for (b, words) in buffers.iter().zip(&self.buffers) {
            out.push(if b.usage().contains(wgpu::BufferUsages::COPY_SRC) { u32s(got.next().unwrap()) } else { words.clone() });
        }
        out
    }
}

fn random(seed: u64) -> impl FnMut(&[u32]) -> usize {
    let mut state = seed;
    move |ready: &[u32]| {
        state = syncscope::model::splitmix64(state);
        (state % ready.len() as u64) as usize
    }
}

fn sorted(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v
}

fn cases() -> Vec<Case> {
    let values: Vec<u32> = (0..16).map(|i| (i * 7 + 3) % 11).collect();
    vec![
        Case {
            file: "shaders/race/race_atomic.wgsl",
            program: &stepped::RACE_ATOMIC,
            workgroups: 2,
            workgroup_size: 4,
            buffers: vec![vec![0], vec![7]],
            exact: &[0],
        },
        Case {
            file: "shaders/atomic-counter/tickets.wgsl",
            program: &stepped::TICKETS,
            workgroups: 3,
            workgroup_size: 4,
            buffers: vec![vec![0], vec![0; 12], vec![12]],
            exact: &[0],
        },
        Case {
            file: "shaders/reduction/reduction_tree.wgsl",
            program: &stepped::REDUCTION_TREE,
            workgroups: 2,
            workgroup_size: 8,
            buffers: vec![values[..13].to_vec(), vec![0; 2], vec![13]],
            exact: &[1],
        },
        Case {
            file: "shaders/scan/scan_hillis_steele.wgsl",
            program: &stepped::SCAN_HILLIS_STEELE,
            workgroups: 2,
            workgroup_size: 8,
            buffers: vec![values.clone(), vec![0; 16], vec![0; 2], vec![16, 0]],
            exact: &[1, 2],
        },
        Case {
            file: "shaders/scan/scan_work_efficient.wgsl",
            program: &stepped::SCAN_WORK_EFFICIENT,
            workgroups: 2,
            workgroup_size: 8,
            buffers: vec![values.clone(), vec![0; 16], vec![0; 2], vec![16, 0]],
            exact: &[1, 2],
        },
        Case {
            file: "shaders/barrier/barrier.wgsl",
            program: &stepped::BARRIER,
            workgroups: 2,
            workgroup_size: 4,
            buffers: vec![vec![0; 8], vec![0; 16], vec![8]],
            exact: &[0],
        },
    ]
}

#[test]
fn kernels_no_schedule_can_change_end_alike_in_the_interpreter_and_on_the_gpu() {
    let Some(ctx) = gpu() else { return };
    let cases = cases();
    for case in &cases {
        let gpu = case.on_gpu(&ctx);
        for seed in 0..8 {
            let (stepped, findings) = case.interpreted(seed);
            assert_eq!(findings, [], "{}: the interpreter found {findings:?}", case.file);
            for (b, (s, g)) in stepped.iter().zip(&gpu).enumerate() {
                if case.exact.contains(&(b as u32)) {
                    assert_eq!(s, g, "{} binding {b}, seed {seed}", case.file);
                } else {
                    assert_eq!(sorted(s.clone()), sorted(g.clone()), "{} binding {b} as a set, seed {seed}", case.file);
                }
            }
        }
    }
    // And what they agree on is what the kernels compute: nothing was left at zero on both sides.
    let values = &cases[2].buffers[0];
    let (stepped, _) = cases[2].interpreted(0);
    assert_eq!(stepped[1], [values[..8].iter().sum::<u32>(), values[8..13].iter().sum()]);
    let (stepped, _) = cases[3].interpreted(0);
    let running: Vec<u32> = cases[3].buffers[0]
        .chunks(8)
        .flat_map(|tile| {
            tile.iter()
                .scan(0, |sum, v| {
                    *sum += v;
                    Some(*sum)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(stepped[1], running);
    assert_eq!(cases[0].interpreted(0).0[0], [7]);
}

/// Every final memory the interpreter can reach from `run`, over every order of its steps.
fn reachable(run: &Run, out: &mut BTreeSet<Vec<u32>>, budget: &mut usize) {
    let ready: Vec<u32> = run.ready().collect();
    if ready.is_empty() {
        out.insert(run.buffer(0, 0).unwrap().to_vec());
        return;
    }
    for i in ready {
        assert!(*budget > 0, "too many orders to enumerate");
        *budget -= 1;
        let mut next = run.clone();
        next.step(i).unwrap();
        reachable(&next, out, budget);
    }
}

#[test]
fn a_racy_counters_gpu_result_is_one_the_interpreter_reaches() {
    let Some(ctx) = gpu() else { return };
    let case = Case {
        file: "shaders/race/race_racy.wgsl",
        program: &stepped::RACE_RACY,
        workgroups: 1,
        workgroup_size: 4,
        buffers: vec![vec![0], vec![4]],
        exact: &[],
    };
    let start = Run::new(Arc::new(case.program.clone()), &case.setup()).unwrap();
    let mut finals = BTreeSet::new();
    reachable(&start, &mut finals, &mut 100_000);
    // Four load-then-store pairs: any count from 1 (all load before any stores) to 4.
    assert_eq!(finals, (1..=4).map(|n| vec![n]).collect());
    for _ in 0..5 {
        let gpu = case.on_gpu(&ctx);
        assert!(finals.contains(&gpu[0]), "the GPU's count {:?} is none the interpreter reaches", gpu[0]);
    }
}

/// What the interpreter finds in a lesson's kernel, run to its end in one order.
fn findings(program: &'static Program, workgroups: u32, workgroup_size: u32, buffers: Vec<Vec<u32>>, seed: u64) -> Vec<Finding> {
    let case = Case { file: "", program, workgroups, workgroup_size, buffers, exact: &[] };
    case.interpreted(seed).1
}

fn kinds(found: &[Finding]) -> Vec<&'static str> {
    let mut kinds: Vec<&'static str> = found
        .iter()
        .map(|f| match f {
            Finding::Race { .. } => "race",
            Finding::Divergence { .. } => "divergence",
            Finding::OutOfBounds { .. } => "out of bounds",
            Finding::Spin { .. } => "spin",
        })
        .collect();
    kinds.dedup();
    kinds
}

#[test]
fn the_lessons_kernels_race_where_the_lessons_say_they_do() {
    // 4 × 4 matrices in tiles of 2 × 2: four workgroups of four.
    let matrix: Vec<u32> = (0..16).map(|i| i % 5 + 1).collect();
    let tiled = |program| findings(program, 4, 4, vec![matrix.clone(), matrix.clone(), vec![0; 16], vec![4, 2]], 3);
    assert_eq!(kinds(&tiled(&stepped::TILED)), Vec::<&str>::new());
    assert_eq!(kinds(&tiled(&stepped::TILED_WITHOUT_FIRST)), ["race"]);
    assert_eq!(kinds(&tiled(&stepped::TILED_WITHOUT_SECOND)), ["race"]);

    let barrier = |program, seed| findings(program, 2, 4, vec![vec![0; 8], vec![0; 16], vec![8]], seed);
    assert_eq!(kinds(&barrier(&stepped::BARRIER, 1)), Vec::<&str>::new());
    let missing = barrier(&stepped::BARRIER_MISSING, 1);
    assert_eq!(kinds(&missing), ["race"]);
    // The race names the write and the neighbour's read of one cell, by two invocations.
    let Finding::Race { first, second, .. } = missing[0] else { unreachable!() };
    let lines = [first.pc, second.pc].map(|pc| stepped::BARRIER_MISSING.instrs[pc as usize].line);
    assert_ne!(first.invocation, second.invocation);
    assert_ne!(lines[0], lines[1]);
    // naga takes the barrier inside `if lane < workgroup_size / 2u` that the browser refuses;
    // half of the lanes never reach it.
    let in_branch = findings(&stepped::BARRIER_IN_BRANCH, 1, 4, vec![vec![0; 4], vec![0; 8], vec![4]], 0);
    assert!(kinds(&in_branch).contains(&"divergence"), "{in_branch:?}");

    // Eight invocations counting 16 values into 4 bins: plain adds race, atomic adds do not.
    let values: Vec<u32> = (0..16).map(|i| i % 4).collect();
    let histogram = |program| findings(program, 2, 4, vec![values.clone(), vec![0; 4], vec![16, 8]], 5);
    assert_eq!(kinds(&histogram(&stepped::HISTOGRAM_PLAIN)), ["race"]);
    assert_eq!(kinds(&histogram(&stepped::HISTOGRAM_ATOMIC)), Vec::<&str>::new());
}
