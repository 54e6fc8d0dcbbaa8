//! The lesson's own tests: its model, and its kernels run natively (Vulkan; lavapipe in CI).

mod cuda_lock;
mod gpu;
mod measured;
mod model;
