//! The GPU layer: the same code natively (wgpu over Vulkan, for tests and the real-GPU
//! report) and in the browser (wgpu over WebGPU).

pub mod across;
pub mod append;
pub mod atomic_ops;
pub mod barrier;
mod buffers;
pub mod cas_max;
mod context;
mod dispatch;
mod error;
pub mod histogram;
pub mod kernels;
pub mod message_passing;
pub mod race;
pub mod reduction;
pub mod spinlock;
pub mod tickets;
pub mod tiled;
mod readback;
mod timing;

pub use context::{AdapterSummary, ComputeLimitsSummary, GpuContext};
pub use error::GpuError;
pub use timing::PassTimer;
