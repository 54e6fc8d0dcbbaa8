#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    syncscope::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("syncscope runs in the browser: `scripts/serve.sh` builds and serves it.");
    eprintln!("Natively, `cargo run --release --example gpu_report` runs the kernels on this GPU.");
}
