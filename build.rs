//! The split build (feature `split`, wasm only) keeps the linker's relocations in each page's
//! wasm: the splitter (scripts/split-pages.mjs) reads them to tell which code a chunk needs.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let split = std::env::var_os("CARGO_FEATURE_SPLIT").is_some();
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32");
    if split && wasm {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
}
