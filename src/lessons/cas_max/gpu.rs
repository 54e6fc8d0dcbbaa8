//! Dispatching the compare-exchange maximum and reading back the result and every retry count.

use crate::gpu::buffers::{params_buffer, per_invocation_bytes, storage_buffer, storage_buffer_with};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::cas_max::CasInputs;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CasRun {
    /// The bits of the f32 left in `best`.
    pub best_bits: u32,
    /// Failed compare-exchanges of each invocation.
    pub retries: Vec<u32>,
    /// Invocations that stopped at the kernel's bound on tries.
    pub gave_up: u32,
}

pub async fn run_cas_max(ctx: &GpuContext, inputs: CasInputs, params: GpuParams) -> Result<CasRun, GpuError> {
    let bytes = per_invocation_bytes(ctx, params.invocations)?;
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(CasInputs::kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let best = storage_buffer_with(device, "best", &f32::NEG_INFINITY.to_bits().to_le_bytes());
    let values: Vec<u8> = (0..params.invocations).flat_map(|i| inputs.value(i).to_le_bytes()).collect();
    let input = storage_buffer_with(device, "input", &values);
    let retries = storage_buffer(device, "retries", bytes);
    let gave_up = storage_buffer(device, "gave_up", 4);
    let uniform = params_buffer(device, params.invocations);
    let read = dispatch_once(
        ctx,
        &pipeline,
        "cas max",
        &[&best, &input, &retries, &gave_up, &uniform],
        params.workgroups(),
        &[(&best, 4), (&retries, bytes), (&gave_up, 4)],
        false,
    )
    .await?;
    let [best, retries, gave_up] = &read.buffers[..] else {
        return Err(GpuError::Run("the read-back came back short".into()));
    };
    Ok(CasRun { best_bits: u32s(best)[0], retries: u32s(retries), gave_up: u32s(gave_up)[0] })
}
