#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    syncscope::app::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("syncscope runs in the browser: `scripts/serve.sh` builds and serves it.");
    eprintln!("Natively, `cargo run --release --example race_report` runs the kernels on this GPU.");
}
