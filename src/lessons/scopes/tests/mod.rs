//! The lesson's own tests: its model, the scope cases in two memory models, and its kernels
//! run natively (Vulkan; lavapipe in CI).

mod cases;
mod gpu;
mod measured;
mod model;
