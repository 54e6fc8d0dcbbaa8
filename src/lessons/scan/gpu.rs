//! The scan lesson on the GPU, in two submissions: each tile kernel once over the input; then
//! the three-dispatch large scan repeated inside one timed pass, and the ordered compaction.
//! Then `atomicAdd`'s compaction (the append lesson's kernel) on the same input, beside it.

use crate::gpu::buffers::{params_buffer, per_invocation_bytes, storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::{bind_whole, submit_and_read};
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::PassTimer;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::scan::{compact, gpu_value, inclusive_scan, kernels, tile_run, tile_scans, ScanRun, ScanWay, TileRun, MAX_WIDTH, TILE_SUMS_WIDTH};

/// Refuses a workgroup the kernels cannot scan, with a message saying why.
pub fn check_width(width: u32) -> Result<(), GpuError> {
    if !(2..=MAX_WIDTH).contains(&width) || !width.is_power_of_two() {
        return Err(GpuError::BadParams(format!("a scan's tile is one workgroup, a power of two from 2 to {MAX_WIDTH}, not {width}")));
    }
    Ok(())
}

/// The input every run scans.
pub fn input_values(n: u32) -> Vec<u32> {
    (0..n).map(gpu_value).collect()
}

/// The whole run: the tile kernels, then the rest ([`run_tiles`], then [`run_large`]).
pub async fn run_scan(ctx: &GpuContext, params: GpuParams, repeats: u32) -> Result<ScanRun, GpuError> {
    let tiles = run_tiles(ctx, params).await?;
    run_large(ctx, params, repeats, tiles).await
}

/// Each tile kernel once over the whole input, into outputs of its own, in one submission:
/// how each came out against the CPU's tiles. Quick, so a page shows it while the rest runs.
pub async fn run_tiles(ctx: &GpuContext, params: GpuParams) -> Result<Vec<TileRun>, GpuError> {
    let (n, w) = (params.invocations, params.workgroup_size);
    check_width(w)?;
    let bytes = per_invocation_bytes(ctx, n)?;
    ctx.check_alive()?;
    let tiles = params.workgroups();
    let mut pipelines = Vec::new();
    for way in ScanWay::TILE_WAYS {
        pipelines.push(ctx.pipeline(way.kernel(), w).await?);
    }
    let device = &ctx.device;
    let values = input_values(n);
    let input = storage_buffer_with(device, "input", &le_bytes(&values));
    let of_values = uniform_words(device, &[n, 0]);
    let outputs: Vec<wgpu::Buffer> = ScanWay::TILE_WAYS.iter().map(|_| storage_buffer(device, "tile scan", bytes)).collect();
    let groups: Vec<wgpu::BindGroup> = pipelines
        .iter()
        .zip(&outputs)
        .map(|(p, out)| bind_whole(device, p, "tile scan", &[&input, out, &storage_buffer(device, "tile sums", 4 * u64::from(tiles)), &of_values]))
        .collect();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("tile scans"), timestamp_writes: None });
        for (pipeline, group) in pipelines.iter().zip(&groups) {
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(tiles, 1, 1);
        }
    }
    let copies: Vec<(&wgpu::Buffer, u64)> = outputs.iter().map(|b| (b, bytes)).collect();
    let read = submit_and_read(ctx, scope, encoder, &copies).await?;
    let want = tile_scans(&values, w as usize);
    Ok(ScanWay::TILE_WAYS.iter().zip(&read).map(|(&way, got)| tile_run(way, &u32s(got), &want, w as usize)).collect())
}

/// The large scan in three dispatches (scan each tile, scan the tiles' sums, add back),
/// repeated `repeats` times inside one timed pass, then the ordered compaction, in one
/// submission; `tiles` is what [`run_tiles`] found, carried into the result.
pub async fn run_large(ctx: &GpuContext, params: GpuParams, repeats: u32, tiles: Vec<TileRun>) -> Result<ScanRun, GpuError> {
    let (n, w) = (params.invocations, params.workgroup_size);
    check_width(w)?;
    let bytes = per_invocation_bytes(ctx, n)?;
    ctx.check_alive()?;
    let groups_of_tiles = params.workgroups();
    let scan = ctx.pipeline(kernels::HILLIS_STEELE, w).await?;
    let sums = ctx.pipeline(kernels::TILE_SUMS, TILE_SUMS_WIDTH).await?;
    let add = ctx.pipeline(kernels::ADD_BACK, w).await?;
    let device = &ctx.device;
    let values = input_values(n);
    let input = storage_buffer_with(device, "input", &le_bytes(&values));
    let sums_bytes = 4 * u64::from(groups_of_tiles);
    let (of_values, of_flags, of_tiles) = (uniform_words(device, &[n, 0]), uniform_words(device, &[n, 1]), params_buffer(device, groups_of_tiles));
    let kept = storage_buffer(device, "kept", bytes);
    let three = |label: &'static str, mode: &wgpu::Buffer| {
        let (out, tile_sums) = (storage_buffer(device, label, bytes), storage_buffer(device, "tile sums", sums_bytes));
        let groups = [
            bind_whole(device, &scan, label, &[&input, &out, &tile_sums, mode]),
            bind_whole(device, &sums, label, &[&tile_sums, &of_tiles]),
            bind_whole(device, &add, label, &[&input, &out, &tile_sums, &kept, mode]),
        ];
        (out, groups)
    };
    let (large, large_groups) = three("large scan", &of_values);
    let (flags, flag_groups) = three("compaction", &of_flags);
    let run_three = |pass: &mut wgpu::ComputePass, groups: &[wgpu::BindGroup; 3]| {
        for (pipeline, group, count) in [(&scan, &groups[0], groups_of_tiles), (&sums, &groups[1], 1), (&add, &groups[2], groups_of_tiles)] {
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(count, 1, 1);
        }
    };
    let timer = PassTimer::new(ctx);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        // Every repeat starts again from the input, so each leaves the same sums.
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("large scan"), timestamp_writes: timer.as_ref().map(PassTimer::writes) });
        for _ in 0..repeats.max(1) {
            run_three(&mut pass, &large_groups);
        }
    }
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("compaction"), timestamp_writes: None });
        run_three(&mut pass, &flag_groups);
    }
    let mut copies: Vec<(&wgpu::Buffer, u64)> = vec![(&large, bytes), (&flags, bytes), (&kept, bytes)];
    if let Some(t) = &timer {
        t.resolve(&mut encoder);
        copies.push((t.buffer(), PassTimer::BYTES));
    }
    let read = submit_and_read(ctx, scope, encoder, &copies).await?;
    let gpu_ns = timer.and_then(|_| read.get(3)).and_then(|b| PassTimer::nanoseconds(b, ctx.queue.get_timestamp_period())).map(|ns| ns / f64::from(repeats.max(1)));

    let want = inclusive_scan(&values);
    let got = u32s(&read[0]);
    let large_wrong = got.iter().zip(&want).filter(|(a, b)| a != b).count() as u32 + want.len().saturating_sub(got.len()) as u32;
    let kept_count = u32s(&read[1]).last().copied().unwrap_or(0);
    let kept_values = u32s(&read[2]);
    let kept_got = &kept_values[..(kept_count as usize).min(kept_values.len())];
    Ok(ScanRun {
        tiles,
        large_wrong,
        total: got.last().copied().unwrap_or(0),
        repeats: repeats.max(1),
        gpu_ns,
        kept: kept_count,
        kept_in_order: kept_got == compact(&values).as_slice(),
        kept_values: kept_got.to_vec(),
    })
}

fn le_bytes(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// `atomicAdd`'s compaction of the same input: the append lesson's kernel.
pub async fn run_append_beside(ctx: &GpuContext, params: GpuParams) -> Result<crate::lessons::scan::AppendBeside, GpuError> {
    let run = crate::lessons::append::gpu::run_append(ctx, params).await?;
    Ok(crate::lessons::scan::append_beside(&run.output, run.count, &compact(&input_values(params.invocations))))
}
