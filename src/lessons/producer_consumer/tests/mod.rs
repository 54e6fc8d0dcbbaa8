//! The lesson's own tests: its model, CUDA's methods in two memory models, and its kernels run
//! natively (Vulkan; lavapipe in CI).

mod gpu;
mod measured;
mod methods;
mod model;
