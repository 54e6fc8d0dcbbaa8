//! The reader's kernel on the GPU: its own bindings, laid out and filled as the model's are,
//! dispatched again and again on fresh buffers, and every final memory read back.

use super::{Buffer, Opened};
use crate::gpu::dispatch::submit_and_read;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use std::collections::BTreeMap;
use wgpu::util::DeviceExt;

/// Most dispatches one press runs.
pub const MAX_RUNS: u32 = 1000;
/// Most bytes of buffers the runs of one press may hold together.
const MAX_BYTES: u64 = 64 << 20;

/// What the runs left: each distinct final memory (the storage buffers' words, in the order of
/// [`Opened::buffers`], uniforms left out) and how many runs ended with it, most common first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcomes {
    pub runs: u32,
    pub distinct: Vec<(Vec<Vec<u32>>, u32)>,
}

/// The kernel compiled by the device's own compiler (the browser's, on the web), with an
/// explicit layout of every binding the kernel declares. A refusal comes back with each of the
/// compiler's messages as `line:column: kind: text`.
pub async fn compile(ctx: &GpuContext, opened: &Opened) -> Result<(wgpu::ComputePipeline, Vec<wgpu::BindGroupLayout>), GpuError> {
    ctx.check_alive()?;
    let device = &ctx.device;
    let groups = opened.buffers.iter().map(|b| b.binding.0 + 1).max().unwrap_or(0);
    if groups > device.limits().max_bind_groups {
        return Err(GpuError::BadParams(format!("the kernel binds {groups} groups: this device takes {}", device.limits().max_bind_groups)));
    }
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let source = crate::gpu::native_wgsl(opened.source);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor { label: Some("your kernel"), source: wgpu::ShaderSource::Wgsl(source) });
    let layouts: Vec<wgpu::BindGroupLayout> = (0..groups)
        .map(|g| {
            let entries: Vec<wgpu::BindGroupLayoutEntry> = opened
                .buffers
                .iter()
                .filter(|b| b.binding.0 == g)
                .map(|b| wgpu::BindGroupLayoutEntry {
                    binding: b.binding.1,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: if b.uniform { wgpu::BufferBindingType::Uniform } else { wgpu::BufferBindingType::Storage { read_only: b.read_only } },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                })
                .collect();
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some("your kernel"), entries: &entries })
        })
        .collect();
    // The overrides the kernel's `// playground:` line sets, as the pipeline takes them.
    let constants: Vec<(&str, f64)> = opened
        .setup
        .overrides
        .iter()
        .map(|(name, bits)| {
            let ty = opened.program.overrides.iter().find(|o| o.name == name.as_str()).map(|o| o.ty);
            let value = match ty {
                Some(stepper::ir::Scalar::I32) => f64::from(*bits as i32),
                Some(stepper::ir::Scalar::F32) => f64::from(f32::from_bits(*bits)),
                _ => f64::from(*bits),
            };
            (name.as_str(), value)
        })
        .collect();
    let layout_refs: Vec<Option<&wgpu::BindGroupLayout>> = layouts.iter().map(Some).collect();
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor { label: Some("your kernel"), bind_group_layouts: &layout_refs, immediate_size: 0 });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("your kernel"),
        layout: Some(&layout),
        module: &module,
        entry_point: Some(&opened.program.entry),
        compilation_options: wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() },
        cache: None,
    });
    let Some(error) = scope.pop().await else { return Ok((pipeline, layouts)) };
    Err(GpuError::Shader { file: "your kernel", message: crate::gpu::compiler_messages(&module, &error, "").await })
}

/// Runs the kernel `runs` times, each dispatch on buffers of its own filled as the model's
/// are, in one submission, and counts the final memories.
pub async fn run(ctx: &GpuContext, opened: &Opened, runs: u32) -> Result<Outcomes, GpuError> {
    let runs = runs.clamp(1, MAX_RUNS);
    let max_binding = ctx.device.limits().max_storage_buffer_binding_size;
    for b in &opened.buffers {
        if bytes(b) > max_binding {
            return Err(GpuError::BadParams(format!("`{}` is {} bytes: this device binds at most {max_binding}", b.name, bytes(b))));
        }
    }
    let per_run: u64 = opened.buffers.iter().map(bytes).sum();
    if per_run.saturating_mul(u64::from(runs)) > MAX_BYTES {
        return Err(GpuError::BadParams(format!("{runs} runs of {per_run} bytes of buffers each: at most {} MB together", MAX_BYTES >> 20)));
    }
    let (pipeline, layouts) = compile(ctx, opened).await?;
    let device = &ctx.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    let mut kept = Vec::new();
    for _ in 0..runs {
        let buffers: Vec<wgpu::Buffer> = opened.buffers.iter().zip(&opened.setup.buffers).map(|(b, (_, words))| buffer(device, b, words)).collect();
        let groups: Vec<wgpu::BindGroup> = layouts
            .iter()
            .enumerate()
            .map(|(g, layout)| {
                let entries: Vec<wgpu::BindGroupEntry> = opened
                    .buffers
                    .iter()
                    .zip(&buffers)
                    .filter(|(b, _)| b.binding.0 == g as u32)
                    .map(|(b, buffer)| wgpu::BindGroupEntry { binding: b.binding.1, resource: buffer.as_entire_binding() })
                    .collect();
                device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some("your kernel"), layout, entries: &entries })
            })
            .collect();
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("your kernel"), timestamp_writes: None });
            pass.set_pipeline(&pipeline);
            for (g, group) in groups.iter().enumerate() {
                pass.set_bind_group(g as u32, group, &[]);
            }
            pass.dispatch_workgroups(opened.setup.workgroups, 1, 1);
        }
        kept.push(buffers);
    }
    let copies: Vec<(&wgpu::Buffer, u64)> = kept
        .iter()
        .flat_map(|buffers| opened.buffers.iter().zip(buffers).filter(|(b, _)| !b.uniform).map(|(b, buffer)| (buffer, u64::from(b.words) * 4)))
        .collect();
    let read = submit_and_read(ctx, scope, encoder, &copies).await?;
    let stored = opened.buffers.iter().filter(|b| !b.uniform).count().max(1);
    let mut counts: BTreeMap<Vec<Vec<u32>>, u32> = BTreeMap::new();
    for memory in read.chunks(stored) {
        *counts.entry(memory.iter().map(|bytes| u32s(bytes)).collect()).or_default() += 1;
    }
    let mut distinct: Vec<(Vec<Vec<u32>>, u32)> = counts.into_iter().collect();
    distinct.sort_by_key(|d| std::cmp::Reverse(d.1));
    Ok(Outcomes { runs, distinct })
}

/// A buffer's size as bound: a uniform is a multiple of 16 bytes, and nothing is bound empty.
fn bytes(b: &Buffer) -> u64 {
    let raw = (u64::from(b.words) * 4).max(4);
    if b.uniform {
        raw.div_ceil(16) * 16
    } else {
        raw
    }
}

fn buffer(device: &wgpu::Device, b: &Buffer, words: &[u32]) -> wgpu::Buffer {
    let mut contents: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    contents.resize(bytes(b) as usize, 0);
    let usage = if b.uniform { wgpu::BufferUsages::UNIFORM } else { wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC };
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some("your kernel's buffer"), contents: &contents, usage })
}
