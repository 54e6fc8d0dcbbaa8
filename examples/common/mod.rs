//! What the report runners share: this machine's GPU, or a clear exit without one.

use syncscope::gpu::GpuContext;

pub fn gpu_or_exit() -> GpuContext {
    match pollster::block_on(GpuContext::acquire()) {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("no GPU: {e}");
            std::process::exit(1);
        }
    }
}
