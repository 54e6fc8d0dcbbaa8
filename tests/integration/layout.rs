//! The source tree's architecture, checked: the engine (model, gpu, data, site, ui) knows no
//! lesson, no two top-level modules import each other in a cycle, and every lesson in the
//! table has its folder, its kernels' folder and its page's binary.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ENGINE: [&str; 5] = ["model", "gpu", "data", "site", "ui"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Top-level module → the top-level modules its files name as `crate::<module>`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        let Some(first) = relative.components().next() else { continue };
        let module = first.as_os_str().to_str().unwrap().trim_end_matches(".rs").to_owned();
        if module == "lib" || module == "main" || module == "bin" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let uses = graph.entry(module.clone()).or_default();
        for (at, _) in text.match_indices("crate::") {
            let name: String = text[at + 7..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
            if !name.is_empty() && name != module {
                uses.insert(name);
            }
        }
    }
    // `crate::kernel!` and the like name macros, not modules.
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for uses in graph.values_mut() {
        uses.retain(|u| modules.contains(u));
    }
    graph
}

#[test]
fn the_engine_knows_no_lesson() {
    let graph = imports();
    for module in ENGINE {
        let uses = &graph[module];
        assert!(!uses.contains("lessons") && !uses.contains("app"), "{module} imports {uses:?}");
    }
}

/// A cycle in `graph` as `a -> b -> a`, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<String> {
    // Depth-first search; a module met again while still on the path closes a cycle.
    fn visit<'a>(m: &'a str, g: &'a BTreeMap<String, BTreeSet<String>>, path: &mut Vec<&'a str>, done: &mut BTreeSet<&'a str>) -> Option<String> {
        if let Some(i) = path.iter().position(|p| *p == m) {
            return Some(format!("{} -> {m}", path[i..].join(" -> ")));
        }
        if !done.insert(m) {
            return None;
        }
        path.push(m);
        for next in g.get(m).into_iter().flatten() {
            if let Some(cycle) = visit(next, g, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| visit(m, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_cycles_between_top_level_modules() {
    let graph = imports();
    println!("crate:: imports between top-level modules:");
    for (module, uses) in &graph {
        println!("  {module:8} -> {}", uses.iter().cloned().collect::<Vec<_>>().join(", "));
    }
    assert_eq!(find_cycle(&graph), None);
}

/// The code of a file without its comments (a doc link is no import).
fn code_of(text: &str) -> String {
    text.lines().map(|l| l.split_once("//").map_or(l, |(code, _)| code)).collect::<Vec<_>>().join("\n")
}

/// Module of `top` → the modules of `top` it names (`crate::ui::scene`, `super::scene`);
/// `top` itself stands for its `mod.rs`.
fn imports_within(top: &str) -> BTreeMap<String, BTreeSet<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(top);
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let module_of = |file: &Path| -> String {
        let first = file.strip_prefix(&dir).unwrap().components().next().unwrap().as_os_str().to_str().unwrap().trim_end_matches(".rs").to_owned();
        if first == "mod" {
            top.to_owned()
        } else {
            first
        }
    };
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(f)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file);
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let uses = graph.entry(module.clone()).or_default();
        let crate_path = format!("crate::{top}::");
        let mut named = Vec::new();
        for (at, _) in code.match_indices(&crate_path) {
            named.push(&code[at + crate_path.len()..]);
        }
        for (at, _) in code.match_indices("crate::") {
            // `crate::ui::GpuHandle`, `crate::ui::program_of`: an item of `mod.rs`.
            if code[at + 7..].starts_with(&format!("{top}::")) {
                let rest = &code[at + crate_path.len()..];
                let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if !modules.contains(&name) && name != module {
                    uses.insert(top.to_owned());
                }
            }
        }
        if module != top {
            for (at, _) in code.match_indices("super::") {
                named.push(&code[at + 7..]);
            }
        }
        for rest in named {
            let name: String = rest.chars().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_').collect();
            if modules.contains(&name) && name != module {
                uses.insert(name);
            }
        }
        if module == top {
            // `pub use gpu::GpuHandle;` in mod.rs names its own child.
            for line in code.lines().map(str::trim).filter(|l| l.starts_with("pub use ") || l.starts_with("use ")) {
                let name: String =
                    line.trim_start_matches("pub ").trim_start_matches("use ").chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
                if modules.contains(&name) && name != top {
                    uses.insert(name);
                }
            }
        }
    }
    graph
}

/// The UI reads top to bottom: no two of its modules name each other, however indirectly.
#[test]
fn no_cycles_among_the_ui_modules() {
    let graph = imports_within("ui");
    println!("imports among ui's modules:");
    for (module, uses) in &graph {
        println!("  {module:12} -> {}", uses.iter().cloned().collect::<Vec<_>>().join(", "));
    }
    assert!(graph.len() > 10 && graph["lesson_page"].contains("model_panel"), "the graph is read: {graph:?}");
    assert_eq!(find_cycle(&graph), None);
}

#[test]
fn the_cycle_check_can_find_a_cycle() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("gpu".into()).or_default().insert("lessons".into());
    g.entry("lessons".into()).or_default().insert("model".into());
    g.entry("model".into()).or_default();
    assert_eq!(find_cycle(&g), None);
    g.entry("lessons".into()).or_default().insert("gpu".into());
    assert_eq!(find_cycle(&g).as_deref(), Some("gpu -> lessons -> gpu"));
}

#[test]
fn every_lesson_in_the_table_has_its_folder_and_its_kernels_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut ids = BTreeSet::new();
    for lesson in syncscope::lessons::LESSONS.iter().chain(syncscope::lessons::REFERENCE) {
        assert!(ids.insert(lesson.id), "{} listed twice", lesson.id);
        let folder = root.join("src/lessons").join(lesson.id.replace('-', "_"));
        assert!(folder.join("mod.rs").is_file(), "{folder:?}/mod.rs");
        if !lesson.kernels.is_empty() {
            assert!(folder.join("page.rs").is_file() && folder.join("gpu.rs").is_file(), "{folder:?}");
            assert!(root.join("shaders").join(lesson.id).is_dir(), "shaders/{}/", lesson.id);
        }
    }
    // And no lesson folder the table forgets.
    for entry in std::fs::read_dir(root.join("src/lessons")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let id = path.file_name().unwrap().to_str().unwrap().replace('_', "-");
            assert!(ids.contains(id.as_str()), "src/lessons/{id} is not in the lesson table");
        }
    }
}

/// The built site gives every page a wasm of its own: one binary per page in `src/bin/`, named
/// by its id and starting that page (with its own module's GPU half, where it has one), and
/// none for a page the table does not have.
#[test]
fn every_page_in_the_table_has_its_binary() {
    let bins = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin");
    let mut expected = BTreeSet::new();
    for lesson in syncscope::lessons::LESSONS.iter().chain(syncscope::lessons::REFERENCE) {
        let file = bins.join(format!("{}.rs", lesson.id));
        let module = lesson.id.replace('-', "_");
        let text = std::fs::read_to_string(&file).unwrap_or_else(|_| {
            let line = if lesson.kernels.is_empty() {
                format!("syncscope::page_main!(\"{}\");", lesson.id)
            } else {
                format!("syncscope::page_main!(\"{}\", {module});", lesson.id)
            };
            panic!("{file:?} is missing: the page's entry point is that file, holding the line\n    {line}")
        });
        let own = [format!("syncscope::page_main!(\"{}\");", lesson.id), format!("syncscope::page_main!(\"{}\", {module});", lesson.id)];
        assert!(own.iter().any(|line| text.contains(line.as_str())), "{file:?} starts another page");
        expected.insert(format!("{}.rs", lesson.id));
    }
    for entry in std::fs::read_dir(&bins).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(expected.contains(&name), "src/bin/{name} is no page of the table");
    }
}
