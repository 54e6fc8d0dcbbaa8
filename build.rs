//! The split build (feature `split`, wasm only) keeps the linker's relocations in each lesson
//! page's wasm: the splitter (scripts/split-pages.mjs) reads them to tell which code a chunk
//! needs. Only the pages' binaries (`src/bin/`): the index (`src/main.rs`) is built with the
//! same feature, so that it shares the pages' build of the library, but is never split, and
//! with its relocations kept wasm-opt could not shrink it (1,560 KB against 339 KB).
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/bin");
    let split = std::env::var_os("CARGO_FEATURE_SPLIT").is_some();
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32");
    if !(split && wasm) {
        return;
    }
    let Ok(pages) = std::fs::read_dir("src/bin") else { return };
    for page in pages.flatten() {
        let name = page.file_name();
        if let Some(bin) = name.to_str().and_then(|n| n.strip_suffix(".rs")) {
            println!("cargo:rustc-link-arg-bin={bin}=--emit-relocs");
        }
    }
}
