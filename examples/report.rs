//! Runs one report of a lesson on this machine's GPU (native wgpu over Vulkan) and prints it as
//! JSON: the figures a lesson shows as "measured on …" beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- <name> > data/<gpu>-<name>.json
//! ```
//!
//! The reports are the lesson table's (`LessonInfo::reports`); each runner is its lesson's
//! `report.rs`. With no name, or an unknown one, the list of names.

use syncscope::lessons::{LESSONS, REFERENCE};

fn main() {
    let reports: Vec<(&str, fn())> = LESSONS.iter().chain(REFERENCE).flat_map(|l| l.reports.iter().copied()).collect();
    let wanted = std::env::args().nth(1).unwrap_or_default();
    match reports.iter().find(|(name, _)| *name == wanted) {
        Some((_, run)) => run(),
        None => {
            let names: Vec<&str> = reports.iter().map(|(name, _)| *name).collect();
            eprintln!("usage: cargo run --release --example report -- <name>\n  names: {}", names.join(", "));
            std::process::exit(2);
        }
    }
}
