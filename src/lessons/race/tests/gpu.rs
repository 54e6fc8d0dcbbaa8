//! The race kernels on a real Vulkan device (lavapipe in CI, a GPU where there is one),
//! checked against the outcomes the model allows.
//!
//! A machine without any Vulkan device fails these tests rather than skipping them, so a
//! missing driver cannot pass for a green run. `SYNCSCOPE_SKIP_GPU=1` opts out explicitly.

use crate::lessons::race::gpu::{run_race, run_replay};
use crate::lessons::race::{check_params, GpuParams, Variant};
use crate::model::ReplayTimeline;

use crate::testing::{gpu, limits};

#[test]
fn atomic_add_counts_every_invocation_exactly() {
    let Some(ctx) = gpu() else { return };
    for (invocations, workgroup_size) in [(1, 1), (1024, 64), (1000, 256), (65_537, 128)] {
        let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
        let batch = pollster::block_on(run_race(&ctx, Variant::Atomic, p, 5)).unwrap();
        assert_eq!(batch.finals, vec![invocations; 5], "{p:?} on {}", ctx.adapter.name);
    }
}

#[test]
fn racy_increment_ends_within_what_the_model_allows() {
    let Some(ctx) = gpu() else { return };
    for (invocations, workgroup_size) in [(2, 2), (1024, 64), (4096, 256)] {
        let p = GpuParams { invocations, workgroup_size };
        let batch = pollster::block_on(run_race(&ctx, Variant::Racy, p, 20)).unwrap();
        let allowed = Variant::Racy.allowed_final_counts(invocations);
        for c in &batch.finals {
            assert!(allowed.contains(c), "{c} outside {allowed:?} for {p:?}");
        }
        eprintln!("{} racy {p:?}: {:?}", ctx.adapter.name, &batch.finals[..5]);
    }
}

#[test]
fn runs_in_one_batch_do_not_share_a_counter() {
    let Some(ctx) = gpu() else { return };
    let p = GpuParams { invocations: 300, workgroup_size: 32 };
    let batch = pollster::block_on(run_race(&ctx, Variant::Atomic, p, 100)).unwrap();
    assert_eq!(batch.finals.len(), 100);
    assert!(batch.finals.iter().all(|&c| c == 300));
}

#[test]
fn timestamps_measure_something_when_the_adapter_has_them() {
    let Some(ctx) = gpu() else { return };
    let batch = pollster::block_on(run_race(&ctx, Variant::Atomic, GpuParams::DEFAULT, 50)).unwrap();
    assert_eq!(batch.gpu_ns.is_some(), ctx.adapter.has_timestamps);
    if let Some(ns) = batch.gpu_ns {
        assert!(ns > 0.0, "50 dispatches took {ns} ns");
    }
}

#[test]
fn replay_records_are_a_consistent_history() {
    let Some(ctx) = gpu() else { return };
    for variant in [Variant::Racy, Variant::Atomic] {
        for lanes in [2u32, 8, 16] {
            let run = pollster::block_on(run_replay(&ctx, variant, lanes)).unwrap();
            assert_eq!(run.records.len(), lanes as usize);
            let timeline = ReplayTimeline::from_records(&run.records, 0, run.final_count).unwrap_or_else(|e| panic!("{variant:?} x{lanes}: {e}"));
            // Tickets are exactly 0..accesses: one clock, no gaps, no repeats.
            let tickets: Vec<u32> = timeline.steps.iter().map(|s| s.ticket).collect();
            assert_eq!(tickets, (0..tickets.len() as u32).collect::<Vec<_>>());
            // Every store wrote one more than its own load.
            assert!(run.records.iter().all(|r| r.stored == r.loaded + 1));
            assert!(variant.allowed_final_counts(lanes).contains(&run.final_count));
            if variant == Variant::Atomic {
                let mut olds: Vec<u32> = run.records.iter().map(|r| r.loaded).collect();
                olds.sort();
                assert_eq!(olds, (0..lanes).collect::<Vec<_>>(), "atomicAdd hands out distinct values");
            }
        }
    }
}

#[test]
fn sizes_beyond_the_adapter_are_refused_with_a_reason() {
    let Some(ctx) = gpu() else { return };
    let l = limits(&ctx);
    let too_wide = GpuParams { invocations: 64, workgroup_size: l.max_invocations_per_workgroup + 1 };
    assert!(check_params(too_wide, &l).unwrap_err().contains("workgroup size"));
    let zero = GpuParams { invocations: 0, workgroup_size: 64 };
    assert!(check_params(zero, &l).unwrap_err().contains("invocations"));
    assert!(pollster::block_on(run_race(&ctx, Variant::Atomic, GpuParams::DEFAULT, 0)).is_err());
    assert!(pollster::block_on(run_replay(&ctx, Variant::Atomic, 17)).is_err());
}

#[test]
fn every_shader_compiles_natively() {
    let Some(ctx) = gpu() else { return };
    for kernel in crate::lessons::all_kernels() {
        pollster::block_on(ctx.pipeline(kernel, 16)).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Each page primes a new pipeline with one workgroup on zeroed buffers (`GpuContext::prime`):
/// every kernel must end there too, whatever its loops make of a bound of 0. A kernel that
/// spins for ever is reported by name rather than hanging the tests. lavapipe runs a small
/// workgroup as one batch of lanes, so a wait on a neighbour lane may end here and not on a
/// GPU that runs the lanes in smaller groups: `e2e/shaders_compile.test.mjs` dispatches every
/// kernel on zeros in the browser's SwiftShader as well.
#[test]
fn every_kernel_ends_on_zeroed_buffers() {
    let Some(_turn) = gpu() else { return };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let ctx = pollster::block_on(crate::gpu::GpuContext::acquire()).expect("a device");
        for kernel in crate::lessons::all_kernels() {
            tx.send(Some(kernel.path())).unwrap();
            let pipeline = pollster::block_on(ctx.pipeline(kernel, 16)).unwrap_or_else(|e| panic!("{e}"));
            ctx.dispatch_on_zeros(&pipeline, kernel.source());
            ctx.device.poll(wgpu::PollType::wait_indefinitely()).expect("the dispatch ends");
        }
        tx.send(None).unwrap();
    });
    let mut last = String::new();
    loop {
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(Some(path)) => last = path,
            Ok(None) => break,
            Err(e) => panic!("{last} did not end on zeroed buffers within a minute ({e})"),
        }
    }
}

#[test]
fn a_broken_kernel_is_a_shader_error_with_its_position_not_a_panic() {
    let Some(ctx) = gpu() else { return };
    let broken = "override workgroup_size: u32 = 64u;\n@compute @workgroup_size(workgroup_size)\nfn main() {\n    let x: u32 = undefined_thing;\n}\n";
    match pollster::block_on(ctx.compile("broken.wgsl", broken, 64)) {
        Err(crate::gpu::GpuError::Shader { file, message }) => {
            assert_eq!(file, "broken.wgsl");
            assert!(message.contains("broken.wgsl:4:"), "{message}");
            assert!(message.contains("undefined_thing"), "{message}");
        }
        Err(other) => panic!("expected a shader error, got {other}"),
        Ok(_) => panic!("a broken kernel compiled"),
    }
    // The device is still usable afterwards.
    let batch = pollster::block_on(run_race(&ctx, Variant::Atomic, GpuParams { invocations: 64, workgroup_size: 64 }, 1)).unwrap();
    assert_eq!(batch.finals, [64]);
}
