//! The lesson's own tests: its model, and its kernels run natively (Vulkan; lavapipe in CI).

mod herd;
mod lab;
mod model;
mod scoped;
mod scoped_herd;
mod verdicts;
