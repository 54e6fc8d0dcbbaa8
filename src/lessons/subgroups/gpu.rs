//! The subgroups lesson on the GPU: the add, divergent and butterfly kernels over the input with
//! every invocation's record read back; the neighbour test both ways; then, each in a timed
//! pass of its own repeated `repeats` times, the two compactions and the three reductions.

use crate::gpu::buffers::{per_invocation_bytes, storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::{bind_whole, dispatch_once, submit_and_read};
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError, PassTimer};
use crate::lessons::subgroups::{
    check_divergent, check_sums, gpu_value, kernels, layout, layout_problem, workgroup_sums, CompactRun, NeighbourRun, Record, ReduceRun, ReduceWay, SubgroupsRun, KEEP,
};

/// Why this device cannot run the subgroup kernels, if it cannot: the browser or driver did not
/// give it the `subgroups` feature.
pub fn subgroups_problem(ctx: &GpuContext) -> Option<String> {
    if ctx.adapter.subgroups.is_some() {
        return None;
    }
    Some(format!(
        "{} gives this page no subgroups: its WebGPU has no `subgroups` feature (Chromium and Edge 134 or later have it; Firefox does not yet). The model above still steps every operation.",
        ctx.adapter.name
    ))
}

/// The input every run reads.
pub fn input_values(n: u32) -> Vec<u32> {
    (0..n).map(gpu_value).collect()
}

fn le_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The whole run: records, neighbours, compactions, reductions.
pub async fn run_subgroups(ctx: &GpuContext, params: GpuParams, repeats: u32) -> Result<SubgroupsRun, GpuError> {
    let first = run_records(ctx, params).await?;
    run_rest(ctx, params, repeats, first).await
}

/// What the three record kernels showed: the layout and the sums. Quick: a page shows it while
/// the rest runs.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordsRun {
    pub layout: crate::lessons::subgroups::Layout,
    pub add: crate::lessons::subgroups::SumCheck,
    pub butterfly: crate::lessons::subgroups::SumCheck,
    pub divergent: crate::lessons::subgroups::DivergentCheck,
    /// The first subgroup's records from the add kernel, for the page to draw.
    pub first_records: Vec<Record>,
}

/// The add, divergent and butterfly kernels once over the input, in one submission, each
/// invocation's record read back and checked against the CPU's sums.
pub async fn run_records(ctx: &GpuContext, params: GpuParams) -> Result<RecordsRun, GpuError> {
    ctx.check_alive()?;
    if let Some(problem) = subgroups_problem(ctx) {
        return Err(GpuError::BadParams(problem));
    }
    if let Some(problem) = layout_problem(params) {
        return Err(GpuError::BadParams(problem));
    }
    let n = params.invocations;
    let bytes = 4 * per_invocation_bytes(ctx, n)?;
    if bytes > ctx.adapter.limits.max_storage_buffer_binding_size {
        return Err(GpuError::BadParams(format!("{n} invocations need {bytes}-byte records; this GPU binds at most {} bytes", ctx.adapter.limits.max_storage_buffer_binding_size)));
    }
    let w = params.workgroup_size;
    let ways = [kernels::ADD, kernels::DIVERGENT, kernels::BUTTERFLY];
    let mut pipelines = Vec::new();
    for k in ways {
        pipelines.push(ctx.pipeline(k, w).await?);
    }
    let device = &ctx.device;
    let values = input_values(n);
    let input = storage_buffer_with(device, "input", &le_bytes(&values));
    let uniform = uniform_words(device, &[n]);
    let outputs: Vec<wgpu::Buffer> = ways.iter().map(|_| storage_buffer(device, "records", bytes)).collect();
    let groups: Vec<wgpu::BindGroup> = pipelines.iter().zip(&outputs).map(|(p, out)| bind_whole(device, p, "records", &[&input, out, &uniform])).collect();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("subgroup records"), timestamp_writes: None });
        for (p, g) in pipelines.iter().zip(&groups) {
            pass.set_pipeline(p);
            pass.set_bind_group(0, g, &[]);
            pass.dispatch_workgroups(params.workgroups(), 1, 1);
        }
    }
    let copies: Vec<(&wgpu::Buffer, u64)> = outputs.iter().map(|b| (b, bytes)).collect();
    let read = submit_and_read(ctx, scope, encoder, &copies).await?;
    let records: Vec<Vec<Record>> = read.iter().map(|b| Record::parse(&u32s(b))).collect();
    let add = &records[0];
    let first_size = add.first().map_or(0, |r| r.size as usize);
    Ok(RecordsRun {
        layout: layout(add),
        add: check_sums(&values, add, false),
        butterfly: check_sums(&values, &records[2], true),
        divergent: check_divergent(&values, &records[1]),
        first_records: add.iter().take(first_size.clamp(1, 64)).copied().collect(),
    })
}

/// The neighbour test both ways, the compactions and the reductions, after [`run_records`].
pub async fn run_rest(ctx: &GpuContext, params: GpuParams, repeats: u32, first: RecordsRun) -> Result<SubgroupsRun, GpuError> {
    ctx.check_alive()?;
    let n = params.invocations;
    let w = params.workgroup_size;
    let repeats = repeats.max(1);
    let bytes = per_invocation_bytes(ctx, n)?;
    let device = &ctx.device;
    let values = input_values(n);
    let input = storage_buffer_with(device, "input", &le_bytes(&values));

    // The neighbour test: the next lane of the same subgroup (across = 0), then the same lane of
    // the next subgroup (across = 1).
    let neighbour = ctx.pipeline(kernels::NEIGHBOUR, w).await?;
    let mut neighbours = [NeighbourRun::default(); 2];
    for (across, slot) in neighbours.iter_mut().enumerate() {
        let stats = storage_buffer(device, "stats", 12);
        let uniform = uniform_words(device, &[across as u32]);
        let read = dispatch_once(ctx, &neighbour, "neighbour", &[&stats, &uniform], params.workgroups(), &[(&stats, 12)], false).await?;
        let s = u32s(&read.buffers[0]);
        *slot = NeighbourRun { fresh: s[0], stale: s[1], impossible: s[2] };
    }

    // The compactions, each repeat with a counter of its own so that every one starts at 0
    // and fills the same output.
    let cpu_kept: Vec<u32> = values.iter().copied().filter(|&v| v >= KEEP).collect();
    let ballot = ctx.pipeline(kernels::BALLOT, w).await?;
    let mut compactions = Vec::new();
    for per_value in [0u32, 1] {
        let output = storage_buffer(device, "output", bytes);
        let counts: Vec<wgpu::Buffer> = (0..repeats).map(|_| storage_buffer(device, "counts", 8)).collect();
        let uniform = uniform_words(device, &[n, per_value]);
        let groups: Vec<wgpu::BindGroup> = counts.iter().map(|c| bind_whole(device, &ballot, "compaction", &[&input, &output, c, &uniform])).collect();
        let last = counts.last().expect("at least one repeat");
        let (read, gpu_ns) = timed_pass(ctx, &ballot, "compaction", &groups.iter().collect::<Vec<_>>(), params.workgroups(), &[(&output, bytes), (last, 8)]).await?;
        let c = u32s(&read[1]);
        let (kept, atomics) = (c[0], c[1]);
        let mut got: Vec<u32> = u32s(&read[0]).into_iter().take(kept as usize).collect();
        let mut want = cpu_kept.clone();
        got.sort_unstable();
        want.sort_unstable();
        compactions.push(CompactRun { kept, atomics, same_values: got == want, gpu_ns });
    }

    // The reductions, each repeated inside its own timed pass; every repeat writes the same sums.
    let want = workgroup_sums(&values, w as usize);
    let groups = params.workgroups();
    let sums_bytes = 4 * u64::from(groups);
    let uniform = uniform_words(device, &[n]);
    let mut reductions = Vec::new();
    for way in ReduceWay::ALL {
        let pipeline = ctx.pipeline(way.kernel(), w).await?;
        let sums = storage_buffer(device, "sums", sums_bytes);
        let group = bind_whole(device, &pipeline, way.name(), &[&input, &sums, &uniform]);
        let (read, gpu_ns) = timed_pass(ctx, &pipeline, way.name(), &vec![&group; repeats as usize], groups, &[(&sums, sums_bytes)]).await?;
        let got = u32s(&read[0]);
        let wrong = got.iter().zip(&want).filter(|(g, w)| g != w).count() as u32;
        reductions.push(ReduceRun { way, workgroups: groups, wrong, gpu_ns });
    }

    Ok(SubgroupsRun {
        layout: first.layout,
        add: first.add,
        butterfly: first.butterfly,
        divergent: first.divergent,
        neighbours,
        compactions: [compactions[0], compactions[1]],
        reductions,
        repeats,
        cpu_kept: cpu_kept.len() as u32,
        first_records: first.first_records,
    })
}

/// One timed pass: a dispatch of `workgroups` workgroups of `pipeline` for each bind group in
/// `groups`, in order, then `reads` read back. The GPU time is the whole pass's, where the
/// adapter has timestamp queries.
async fn timed_pass(
    ctx: &GpuContext,
    pipeline: &wgpu::ComputePipeline,
    label: &'static str,
    groups: &[&wgpu::BindGroup],
    workgroups: u32,
    reads: &[(&wgpu::Buffer, u64)],
) -> Result<(Vec<Vec<u8>>, Option<f64>), GpuError> {
    let device = &ctx.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let timer = PassTimer::shared(ctx);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(label), timestamp_writes: timer.as_ref().map(PassTimer::writes) });
        pass.set_pipeline(pipeline);
        for group in groups {
            pass.set_bind_group(0, *group, &[]);
            pass.dispatch_workgroups(workgroups, 1, 1);
        }
    }
    let mut copies = reads.to_vec();
    if let Some(t) = &timer {
        t.resolve(&mut encoder);
        copies.push((t.buffer(), PassTimer::BYTES));
    }
    let mut read = submit_and_read(ctx, scope, encoder, &copies).await?;
    let gpu_ns = match timer {
        Some(_) => read.pop().and_then(|b| PassTimer::nanoseconds(&b, ctx.queue.get_timestamp_period())),
        None => None,
    };
    Ok((read, gpu_ns))
}
