//! The lesson's own tests: its model, and its kernels run natively (Vulkan; lavapipe in CI).

mod gpu;
mod inc_dec;
mod measured;
mod model;
