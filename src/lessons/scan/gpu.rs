//! The scan lesson on the GPU, in one submission: each tile kernel once over the input, the
//! three-dispatch large scan repeated inside one timed pass, and the ordered compaction; then
//! `atomicAdd`'s compaction (the append lesson's kernel) on the same input, beside it.

use crate::gpu::buffers::{params_buffer, per_invocation_bytes, storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::{bind_whole, submit_and_read};
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::PassTimer;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::scan::{compact, gpu_value, inclusive_scan, kernels, tile_run, tile_scans, ScanRun, ScanWay, MAX_WIDTH, SHOWN_KEPT, TILE_SUMS_WIDTH};

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

pub async fn run_scan(ctx: &GpuContext, params: GpuParams, repeats: u32) -> Result<ScanRun, GpuError> {
    let (n, w) = (params.invocations, params.workgroup_size);
    check_width(w)?;
    let bytes = per_invocation_bytes(ctx, n)?;
    ctx.check_alive()?;
    let tiles = params.workgroups();
    // As wide as the GPU allows: each invocation of the one workgroup walks its run of tiles
    // one after another, so the wider, the shorter the runs.
    let limits = &ctx.adapter.limits;
    let sums_width = TILE_SUMS_WIDTH.min(limits.max_invocations_per_workgroup).min(limits.max_workgroup_size_x);
    let mut tile_pipelines = Vec::new();
    for way in ScanWay::ALL {
        tile_pipelines.push(ctx.pipeline(way.kernel(), w).await?);
    }
    let sums = ctx.pipeline(kernels::TILE_SUMS, sums_width).await?;
    let add = ctx.pipeline(kernels::ADD_BACK, w).await?;
    let device = &ctx.device;
    let values = input_values(n);
    let input = storage_buffer_with(device, "input", &values.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>());
    let sums_bytes = 4 * u64::from(tiles);
    let (of_values, of_flags, of_tiles) = (uniform_words(device, &[n, 0]), uniform_words(device, &[n, 1]), params_buffer(device, tiles));

    // Each tile kernel once, into outputs of its own.
    let tile_outputs: Vec<wgpu::Buffer> = ScanWay::ALL.iter().map(|_| storage_buffer(device, "tile scan", bytes)).collect();
    let tile_groups: Vec<wgpu::BindGroup> = tile_pipelines
        .iter()
        .zip(&tile_outputs)
        .map(|(p, out)| bind_whole(device, p, "tile scan", &[&input, out, &storage_buffer(device, "tile sums", sums_bytes), &of_values]))
        .collect();

    // The large scan, and the compaction: scan, scan the tiles' sums, add back.
    let kept = storage_buffer(device, "kept", bytes);
    let three = |label: &'static str, mode: &wgpu::Buffer| {
        let (out, tile_sums) = (storage_buffer(device, label, bytes), storage_buffer(device, "tile sums", sums_bytes));
        let groups = [
            bind_whole(device, &tile_pipelines[0], label, &[&input, &out, &tile_sums, mode]),
            bind_whole(device, &sums, label, &[&tile_sums, &of_tiles]),
            bind_whole(device, &add, label, &[&input, &out, &tile_sums, &kept, mode]),
        ];
        (out, groups)
    };
    let (large, large_groups) = three("large scan", &of_values);
    let (flags, flag_groups) = three("compaction", &of_flags);
    let run_three = |pass: &mut wgpu::ComputePass, groups: &[wgpu::BindGroup; 3]| {
        for (pipeline, group, count) in [(&tile_pipelines[0], &groups[0], tiles), (&sums, &groups[1], 1), (&add, &groups[2], tiles)] {
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(count, 1, 1);
        }
    };

    let timer = PassTimer::new(ctx);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("tile scans"), timestamp_writes: None });
        for (pipeline, group) in tile_pipelines.iter().zip(&tile_groups) {
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(tiles, 1, 1);
        }
    }
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
    let mut copies: Vec<(&wgpu::Buffer, u64)> = tile_outputs.iter().map(|b| (b, bytes)).collect();
    copies.extend([(&large, bytes), (&flags, bytes), (&kept, bytes)]);
    if let Some(t) = &timer {
        t.resolve(&mut encoder);
        copies.push((t.buffer(), PassTimer::BYTES));
    }
    let read = submit_and_read(ctx, scope, encoder, &copies).await?;
    let gpu_ns = timer.and_then(|_| read.get(6)).and_then(|b| PassTimer::nanoseconds(b, ctx.queue.get_timestamp_period())).map(|ns| ns / f64::from(repeats.max(1)));

    let want_tiles = tile_scans(&values, w as usize);
    let tile_runs = ScanWay::ALL.iter().zip(&read).map(|(&way, got)| tile_run(way, &u32s(got), &want_tiles, w as usize)).collect();
    let want = inclusive_scan(&values);
    let got = u32s(&read[3]);
    let large_wrong = got.iter().zip(&want).filter(|(a, b)| a != b).count() as u32 + want.len().saturating_sub(got.len()) as u32;
    let kept_count = u32s(&read[4]).last().copied().unwrap_or(0);
    let kept_values = u32s(&read[5]);
    let kept_got = &kept_values[..(kept_count as usize).min(kept_values.len())];
    Ok(ScanRun {
        tiles: tile_runs,
        large_wrong,
        total: got.last().copied().unwrap_or(0),
        repeats: repeats.max(1),
        gpu_ns,
        kept: kept_count,
        kept_in_order: kept_got == compact(&values).as_slice(),
        kept_first: kept_got.iter().take(SHOWN_KEPT).copied().collect(),
    })
}

/// Nanoseconds per copy of `params.invocations` values (each read once and written once),
/// over `repeats` copies in one timed pass; `None` where the adapter has no timestamp queries.
pub async fn time_copy(ctx: &GpuContext, params: GpuParams, repeats: u32) -> Result<Option<f64>, GpuError> {
    let (n, width) = (params.invocations, params.workgroup_size);
    let bytes = per_invocation_bytes(ctx, n)?;
    let pipeline = ctx.pipeline(kernels::COPY, width).await?;
    let device = &ctx.device;
    let (input, output) = (storage_buffer(device, "input", bytes), storage_buffer(device, "output", bytes));
    let group = bind_whole(device, &pipeline, "copy", &[&input, &output, &params_buffer(device, n)]);
    let Some(timer) = PassTimer::new(ctx) else { return Ok(None) };
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("copy"), timestamp_writes: Some(timer.writes()) });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        for _ in 0..repeats.max(1) {
            pass.dispatch_workgroups(n.div_ceil(width), 1, 1);
        }
    }
    timer.resolve(&mut encoder);
    let read = submit_and_read(ctx, scope, encoder, &[(timer.buffer(), PassTimer::BYTES)]).await?;
    Ok(read.first().and_then(|b| PassTimer::nanoseconds(b, ctx.queue.get_timestamp_period())).map(|ns| ns / f64::from(repeats.max(1))))
}

/// `atomicAdd`'s compaction of the same input: the append lesson's kernel.
pub async fn run_append_beside(ctx: &GpuContext, params: GpuParams) -> Result<crate::lessons::scan::AppendBeside, GpuError> {
    let run = crate::lessons::append::gpu::run_append(ctx, params).await?;
    Ok(crate::lessons::scan::append_beside(&run.output, run.count, &compact(&input_values(params.invocations))))
}
