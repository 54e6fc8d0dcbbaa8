//! The lessons: one folder each, and [`LESSONS`], the one table that names them.
//!
//! A lesson's folder holds its pure part in `mod.rs` (info, variants, model program, allowed
//! outcomes and checks, and its kernels), its GPU runner (`gpu.rs`), its page (`page.rs`,
//! browser only), its download (`export.rs`) and its measured-data schema (`measured.rs`). Its
//! kernels are under `shaders/<id>/`. Adding a lesson is one folder, one line in [`LESSONS`],
//! and its tests: the router, the index, the kernel list, the marker test, the browser tests'
//! lesson lists and the benchmark all read the table.

pub mod append;
pub mod atomic_counter;
pub mod atomic_ops;
pub mod barrier;
pub mod cas_max;
pub mod cuda_map;
pub mod histogram;
pub mod message_passing;
pub mod race;
pub mod reduction;
pub mod spinlock;
pub mod tiled;

use crate::gpu::Kernel;
use crate::model::Program;

/// Every lesson the site knows, in the order the index lists them.
pub const LESSONS: &[LessonInfo] = &[
    race::INFO,
    atomic_counter::INFO,
    append::INFO,
    cas_max::INFO,
    atomic_ops::INFO,
    spinlock::INFO,
    barrier::INFO,
    reduction::INFO,
    tiled::INFO,
    histogram::INFO,
    message_passing::INFO,
];

/// Reference pages: opened by `?lesson=` like a lesson, but with no model and no kernel.
pub const REFERENCE: &[LessonInfo] = &[cuda_map::INFO];

/// One row of the table: what the router, the index and the tests need to know of a lesson.
#[derive(Clone, Copy, Debug)]
pub struct LessonInfo {
    /// The value of `?lesson=` that opens it; also its folder under `shaders/`.
    pub id: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    /// Every kernel it dispatches, each a file under `shaders/<id>/`.
    pub kernels: &'static [Kernel],
    /// Every model program it steps, paired with the kernel whose lines the program's markers
    /// name (`// step: <marker>`), so one test checks them all.
    pub models: fn() -> Vec<(Program, Kernel)>,
    /// Its page.
    #[cfg(target_arch = "wasm32")]
    pub page: fn() -> leptos::prelude::AnyView,
}

impl PartialEq for LessonInfo {
    fn eq(&self, other: &LessonInfo) -> bool {
        self.id == other.id
    }
}

/// The lesson or reference page `id` names.
pub fn find(id: &str) -> Option<&'static LessonInfo> {
    LESSONS.iter().chain(REFERENCE).find(|l| l.id == id)
}

/// Every kernel of every lesson, in the table's order.
pub fn all_kernels() -> impl Iterator<Item = Kernel> {
    LESSONS.iter().flat_map(|l| l.kernels.iter().copied())
}
