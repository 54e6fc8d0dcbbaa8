//! The model's lines and the kernels' lines are the same lines: every marker a model program
//! names appears exactly once in the kernel the code panel shows.

#[test]
fn every_step_of_a_lowered_model_stands_on_a_line_of_its_kernel() {
    // A model lowered from its kernel reads its lines from the kernel itself: every step (an
    // access, a barrier, a subgroup operation) names a line of the file the code panel shows.
    let mut lowered = 0;
    for lesson in syncscope::lessons::LESSONS {
        for (program, kernel) in (lesson.models)() {
            let Some(l) = &program.lowered else { continue };
            lowered += 1;
            let lines = kernel.source().lines().count();
            for (pc, _) in l.kernel.instrs.iter().enumerate().filter(|(_, i)| i.is_step(&l.kernel.vars)) {
                let line = program.source_line(pc, kernel.source()).unwrap_or(0);
                assert!((1..=lines).contains(&line), "{}: step {pc} on line {line}", kernel.file_name());
                assert!(l.line_text(pc).is_some_and(|t| !t.is_empty()), "{}: step {pc}", kernel.file_name());
            }
        }
    }
    assert!(lowered > 0, "no lesson steps a lowered kernel");
}

#[test]
fn every_lessons_models_name_lines_of_their_kernels() {
    // Driven by the lesson table: a new lesson's models are checked without a line here.
    for lesson in syncscope::lessons::LESSONS {
        let models = (lesson.models)();
        assert!(!models.is_empty(), "{} has a model", lesson.id);
        for (program, kernel) in &models {
            assert_eq!(kernel.lesson, lesson.id, "{}", kernel.file_name());
            assert_markers_match(program, *kernel);
        }
    }
}

fn assert_markers_match(program: &syncscope::model::Program, kernel: syncscope::gpu::Kernel) {
    let source = kernel.source();
    for (pc, line) in program.lines.iter().enumerate() {
        let needle = format!("// step: {}", line.marker);
        assert_eq!(source.matches(&needle).count(), 1, "{needle} in {}", kernel.file_name());
        assert!(program.source_line(pc, source).is_some());
    }
}

/// The scene groups memory by where the kernel keeps it: every array a model draws as workgroup
/// memory is declared `var<workgroup>` in its kernel, and every array the kernel declares so is
/// drawn as workgroup memory.
#[test]
fn every_models_memory_spaces_are_the_kernels() {
    use syncscope::model::Space;
    let workgroup_vars = |source: &str| -> Vec<String> {
        source
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("var<workgroup>"))
            .map(|rest| rest.trim().split(|c: char| c == ':' || c.is_whitespace()).next().unwrap_or("").to_owned())
            .collect()
    };
    let mut workgroup_arrays_seen = 0;
    for lesson in syncscope::lessons::LESSONS {
        for (program, kernel) in (lesson.models)() {
            let declared = workgroup_vars(kernel.source());
            for a in 0..program.memory_names.len() {
                let array = program.array_of(a);
                let in_kernel = declared.iter().any(|d| d == array);
                assert_eq!(program.space(a) == Space::Workgroup, in_kernel, "{array} in {} against its model", kernel.file_name());
                workgroup_arrays_seen += usize::from(in_kernel);
            }
            for name in program.workgroup {
                assert!(declared.iter().any(|d| d == name), "{name} is no var<workgroup> of {}", kernel.file_name());
            }
        }
    }
    assert!(workgroup_arrays_seen > 0, "the check found no workgroup memory at all");
}

#[test]
fn every_atomic_op_on_both_types_steps_its_own_line() {
    use syncscope::lessons::atomic_ops::{AtomicOp, AtomicSetup};
    use syncscope::model::{Effect, IntType, Schedule, Session};
    let source = AtomicSetup::kernel().source();
    for op in AtomicOp::ALL {
        for ty in [IntType::U32, IntType::I32] {
            let setup = AtomicSetup { op, ..AtomicSetup::DEFAULT }.with_type(ty);
            let mut s = Session::new(setup.machine(2), Schedule::Serial);
            s.run_to_end();
            s.seek(usize::MAX);
            // The step that touched the cell stands on the line that calls the op's own built-in,
            // in the function for the cell's type.
            let cell = setup.cell();
            let touched = |e: &Effect| match *e {
                Effect::Loaded { addr, .. } | Effect::Stored { addr, .. } | Effect::AtomicAdded { addr, .. } | Effect::Rmw { addr, .. } => addr == cell,
                Effect::CompareExchanged { addr, .. } => addr == cell,
                _ => false,
            };
            let pcs: Vec<usize> = s.past_events().filter(|(_, e)| touched(&e.effect)).map(|(_, e)| e.pc).collect();
            assert_eq!(pcs.len(), 2, "{op:?} {ty:?}: each thread touches the cell once");
            let program = s.current().program().clone();
            let line = program.source_line(pcs[0], source).unwrap();
            let text = source.lines().nth(line - 1).unwrap();
            assert!(text.contains(&format!("{}(p", op.function())), "{op:?} {ty:?}: {text}");
            assert!(text.contains(&format!("// step: {}-", ty.name())), "{op:?} {ty:?}: {text}");
        }
    }
}

#[test]
fn the_spinlock_models_name_lines_of_their_kernels_and_share_the_bound() {
    use syncscope::lessons::spinlock::{Lock, MAX_TRIES};
    let declaration = format!("override MAX_TRIES: u32 = {MAX_TRIES}u;");
    for lock in [Lock::None, Lock::SpinThenEnter, Lock::EnterInLoop] {
        let bounded = lock.kernel().source().matches(&declaration).count();
        assert_eq!(bounded, usize::from(lock != Lock::None), "{lock:?}: {declaration}");
    }
}

#[test]
fn the_barrier_kernel_without_it_is_the_one_with_it_less_the_barrier() {
    use syncscope::lessons::barrier::BarrierVariant;
    assert!(!BarrierVariant::Without.kernel().source().contains("workgroupBarrier()"));
}

#[test]
fn the_append_kernel_filters_with_the_models_limit() {
    use syncscope::lessons::append::{Append, LIMIT};
    let declaration = format!("const LIMIT: u32 = {LIMIT}u;");
    assert_eq!(Append::kernel().source().matches(&declaration).count(), 1, "{declaration}");
}

#[test]
fn every_file_in_shaders_is_a_kernel_of_the_lesson_whose_folder_holds_it() {
    // shaders/<lesson id>/<file>.wgsl, plus the refused kernels under shaders/<id>/rejected/.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut on_disk = Vec::new();
    for lesson in std::fs::read_dir(&root).unwrap() {
        let lesson = lesson.unwrap();
        assert!(lesson.file_type().unwrap().is_dir(), "{:?} is not a lesson folder", lesson.path());
        for file in std::fs::read_dir(lesson.path()).unwrap() {
            let name = file.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".wgsl") {
                on_disk.push(format!("{}/{name}", lesson.file_name().to_str().unwrap()));
            } else {
                assert_eq!(name, "rejected", "only kernels and a rejected/ folder in a lesson's shaders");
            }
        }
    }
    on_disk.sort();
    let mut known: Vec<String> = syncscope::lessons::all_kernels().map(|k| k.path()).collect();
    known.sort();
    assert_eq!(on_disk, known);
    for lesson in syncscope::lessons::LESSONS {
        assert!(lesson.kernels.iter().all(|k| k.lesson == lesson.id), "{}'s kernels live in shaders/{}/", lesson.id, lesson.id);
    }
}

#[test]
fn the_tiled_models_name_lines_of_their_kernels_and_lack_only_their_barrier() {
    use syncscope::lessons::tiled::TiledVariant;
    let both = TiledVariant::Both.kernel().source();
    for (v, gone) in [(TiledVariant::WithoutFirst, "barrier-loaded"), (TiledVariant::WithoutSecond, "barrier-used")] {
        let source = v.kernel().source();
        assert_eq!(source.matches("workgroupBarrier()").count(), 1, "{v:?}");
        assert!(!source.contains(gone), "{v:?}");
        // Apart from the header and the missing line, the kernel is the one with both barriers.
        let body = |s: &'static str| {
            s.lines().skip_while(|l| l.starts_with("//")).filter(|l| !l.contains("Barrier") && !l.contains("(no barrier")).collect::<Vec<_>>()
        };
        assert_eq!(body(source), body(both), "{v:?}");
    }
}

#[test]
fn the_histogram_models_name_lines_of_their_kernels() {
    use syncscope::lessons::histogram::{HistogramVariant, PER_INVOCATION};
    for v in HistogramVariant::ALL {
        assert!(v.kernel().source().contains(&format!("const PER_INVOCATION: u32 = {PER_INVOCATION}u;")), "{v:?}");
    }
}

#[test]
fn the_message_passing_models_name_lines_of_their_kernels() {
    use syncscope::lessons::message_passing::MessagePassingVariant;
    for v in MessagePassingVariant::ALL {
        assert_markers_match(&v.program(2), v.kernel());
    }
    // The barrier variants across workgroups are the relaxed kernel plus their two barriers.
    let body = |s: &'static str| s.lines().skip_while(|l| l.starts_with("//")).filter(|l| !l.contains("Barrier()")).collect::<Vec<_>>();
    let relaxed = MessagePassingVariant::Relaxed.kernel().source();
    for v in [MessagePassingVariant::StorageBarrier, MessagePassingVariant::WorkgroupBarrier] {
        let source = v.kernel().source();
        assert_eq!(body(source), body(relaxed), "{v:?}");
        assert_eq!(source.matches("Barrier(); // step: barrier-").count(), 2, "{v:?}");
    }
}
