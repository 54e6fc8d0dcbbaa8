//! Three jobs.
//!
//! Every build: every kernel under `shaders/` is lowered for the stepper (`crates/stepper`) into
//! `$OUT_DIR/stepped.rs`, a `static` program per kernel (see `src/stepped.rs`), so that no page
//! carries naga.
//!
//! Every build: each lesson's words (`src/lessons/<id>/words.html`, see `docs/words.md`) become
//! Rust constants, one per section, in `$OUT_DIR/words_<id>.rs`, which the lesson's `mod.rs`
//! includes. The pages hold the same strings as if they were written in Rust: nothing is read or
//! parsed when a page runs.
//!
//! The split build (feature `split`, wasm only) keeps the linker's relocations in each lesson
//! page's wasm: the splitter (scripts/split-pages.mjs) reads them to tell which code a chunk
//! needs. Only the pages' binaries (`src/bin/`): the index (`src/main.rs`) is built with the
//! same feature, so that it shares the pages' build of the library, but is never split, and
//! with its relocations kept wasm-opt could not shrink it (1,560 KB against 339 KB).
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/bin");
    words();
    stepped();
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

/// Writes `stepped.rs`: for each kernel file `shaders/<folder>/…/<name>.wgsl`, the program
/// `pub static <NAME>: Program` lowered from it, `ALL` listing them by path, and `NOT_STEPPED`
/// with each kernel the lowering refused and why. A refusal does not stop the build: the host
/// tests hold every refusal to the list in `docs/stepper.md`.
fn stepped() {
    println!("cargo:rerun-if-changed=shaders");
    println!("cargo:rerun-if-changed=crates/stepper/src");
    let mut files = Vec::new();
    let mut folders = vec![std::path::PathBuf::from("shaders")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display())).flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|x| x == "wgsl") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut rust = String::from("// Made by build.rs from the kernels under shaders/: not to be edited.\n\n");
    let (mut all, mut refused) = (String::new(), String::new());
    for path in &files {
        let shown = path.to_str().expect("a kernel's path is UTF-8").replace('\\', "/");
        let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{shown}: {e}"));
        let name = path.file_stem().and_then(|n| n.to_str()).expect("a kernel's name is UTF-8").to_uppercase().replace('-', "_");
        match stepper::lower::lower(&source) {
            Ok(program) => {
                rust.push_str(&format!("/// `{shown}`, lowered.\npub static {name}: Program = {};\n\n", stepper::rust::to_rust(&program)));
                all.push_str(&format!("    ({shown:?}, &{name}),\n"));
            }
            Err(refusal) => refused.push_str(&format!("    ({shown:?}, {:?}),\n", refusal.to_string())),
        }
    }
    rust.push_str(&format!("/// Every kernel lowered, by its path.\npub static ALL: &[(&str, &Program)] = &[\n{all}];\n\n"));
    rust.push_str(&format!("/// Every kernel the lowering refused, with its reason.\npub static NOT_STEPPED: &[(&str, &str)] = &[\n{refused}];\n"));
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("stepped.rs");
    if std::fs::read_to_string(&out).ok().as_deref() != Some(rust.as_str()) {
        std::fs::write(&out, rust).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    }
}

/// Writes `words_<id>.rs` for every lesson folder with a `words.html`. A mistake in a words file
/// stops the build with its file and line.
fn words() {
    // The folder, not each file: a lesson's new words file is seen too.
    println!("cargo:rerun-if-changed=src/lessons");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut folders: Vec<_> = std::fs::read_dir("src/lessons").expect("src/lessons").flatten().map(|e| e.path()).collect();
    folders.sort();
    for folder in folders {
        let file = folder.join("words.html");
        if !file.is_file() {
            continue;
        }
        let id = folder.file_name().and_then(|n| n.to_str()).expect("a lesson folder's name is UTF-8");
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let sections = sections(&text).unwrap_or_else(|e| panic!("{}:{e}", file.display()));
        let rust = rust(&file, &sections);
        let target = out.join(format!("words_{id}.rs"));
        // Written only when changed, so that an unchanged file rebuilds nothing.
        if std::fs::read_to_string(&target).ok().as_deref() != Some(rust.as_str()) {
            std::fs::write(&target, rust).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
        }
    }
}

/// A section: its marker's name (`lead`, `try: racy`) and its words as the page gets them.
struct Section {
    name: String,
    words: String,
}

/// Splits a words file at its markers (`<!-- lead -->`, `<!-- try: racy -->`: a comment holding
/// a name of lower-case letters, digits and hyphens, `try: ` before it for a try-this line).
/// Every other comment is left out; before the first marker there may be comments only.
/// On an error, the line it is on and what is wrong.
fn sections(text: &str) -> Result<Vec<Section>, String> {
    let line = |at: usize| text[..at].matches('\n').count() + 1;
    let mut sections: Vec<(String, usize, String)> = Vec::new();
    let mut at = 0;
    loop {
        let next = text[at..].find("<!--").map_or(text.len(), |i| at + i);
        let words = &text[at..next];
        match sections.last_mut() {
            Some((_, _, body)) => body.push_str(words),
            None if words.trim().is_empty() => {}
            None => {
                return Err(format!("{}: words before the first section's marker, such as <!-- lead -->", line(at + words.len() - words.trim_start().len())))
            }
        }
        if next == text.len() {
            break;
        }
        let end = text[next..].find("-->").map(|i| next + i).ok_or_else(|| format!("{}: a comment that never ends (no -->)", line(next)))?;
        let inner = text[next + 4..end].trim();
        if is_marker(inner) {
            if sections.iter().any(|(name, _, _)| name == inner) {
                return Err(format!("{}: a second <!-- {inner} --> section", line(next)));
            }
            sections.push((inner.to_owned(), line(next), String::new()));
        }
        at = end + 3;
    }
    if sections.is_empty() {
        return Err("1: no section: a words file starts its first with a marker such as <!-- lead -->".into());
    }
    sections
        .into_iter()
        .map(|(name, at, body)| {
            let words = join_lines(&body);
            if words.is_empty() {
                return Err(format!("{at}: the <!-- {name} --> section is empty"));
            }
            if name.starts_with("try") && words.contains(['<', '&']) {
                return Err(format!("{at}: a try-this line is plain text, shown as written: no tags and no entities such as &amp;"));
            }
            Ok(Section { name, words })
        })
        .collect()
}

/// `lead`, `h100`, `try`, `try: no-lock`.
fn is_marker(inner: &str) -> bool {
    let name = inner.strip_prefix("try: ").unwrap_or(inner);
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A section's lines, trimmed, as one line: a line break is a space, as in HTML, except beside a
/// block's tag (`<p>`, `</div>`), where HTML shows none, so that none is kept.
fn join_lines(body: &str) -> String {
    let mut out = String::new();
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if !(out.is_empty() || ends_with_block_tag(&out) || starts_with_block_tag(line)) {
            out.push(' ');
        }
        out.push_str(line);
    }
    out
}

/// Elements whose edges HTML shows no space at.
const BLOCKS: &[&str] = &[
    "p",
    "div",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "blockquote",
    "figure",
    "figcaption",
    "details",
    "summary",
    "section",
    "aside",
    "hr",
];

fn is_block_tag(tag: &str) -> bool {
    let name = tag.trim_start_matches('<').trim_start_matches('/');
    let name = name.split(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/').next().unwrap_or("");
    BLOCKS.contains(&name.to_ascii_lowercase().as_str())
}

fn starts_with_block_tag(line: &str) -> bool {
    line.starts_with('<') && is_block_tag(line)
}

fn ends_with_block_tag(text: &str) -> bool {
    text.ends_with('>') && text.rfind('<').is_some_and(|at| is_block_tag(&text[at..]))
}

/// The constants: `LEAD` for `<!-- lead -->`, `TRY_NO_LOCK` for `<!-- try: no-lock -->`.
fn rust(file: &Path, sections: &[Section]) -> String {
    let file = file.display().to_string().replace('\\', "/");
    let mut out = format!("// Made by build.rs from {file}: change that file, not this one.\n");
    for Section { name, words } in sections {
        let constant = name.replace(": ", "_").replace('-', "_").to_ascii_uppercase();
        out.push_str(&format!("\n/// The `<!-- {name} -->` section of `{file}`.\npub const {constant}: &str = {words:?};\n"));
    }
    out
}
