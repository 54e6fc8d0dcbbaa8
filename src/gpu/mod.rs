//! The GPU engine, knowing no lesson: device and limits, buffers, pipelines, dispatch,
//! read-back, timing and errors — the same code natively (wgpu over Vulkan, for tests and the
//! real-GPU reports) and in the browser (wgpu over WebGPU). Each lesson's runner, in its own
//! folder under `lessons/`, is built from these parts.

pub mod buffers;
mod context;
pub mod dispatch;
mod error;
mod kernel;
pub mod params;
pub mod readback;
mod timing;

pub use context::{compiler_messages, native_wgsl, AdapterSummary, ComputeLimitsSummary, GpuContext, SubgroupSizes};
pub use error::GpuError;
pub use kernel::Kernel;
pub use timing::PassTimer;
