//! Dispatching the append kernel and reading back the count and the output slots.

use crate::gpu::buffers::{params_buffer, per_invocation_bytes, storage_buffer, storage_buffer_with};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::append::{input_value, Append};

/// One run: where `count` ended, and every output slot (the first `count` were written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppendRun {
    pub count: u32,
    pub output: Vec<u32>,
}

pub async fn run_append(ctx: &GpuContext, params: GpuParams) -> Result<AppendRun, GpuError> {
    let bytes = per_invocation_bytes(ctx, params.invocations)?;
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(Append::kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let values: Vec<u8> = (0..params.invocations).flat_map(|i| input_value(i).to_le_bytes()).collect();
    let input = storage_buffer_with(device, "input", &values);
    let count = storage_buffer(device, "count", 4);
    let output = storage_buffer(device, "output", bytes);
    let uniform = params_buffer(device, params.invocations);
    let read =
        dispatch_once(ctx, &pipeline, "append", &[&count, &input, &output, &uniform], params.workgroups(), &[(&count, 4), (&output, bytes)], false).await?;
    Ok(AppendRun { count: u32s(&read.buffers[0])[0], output: u32s(&read.buffers[1]) })
}
