//! The lessons: one folder each, and [`LESSONS`], the one table that names them.
//!
//! A lesson's folder holds its pure part in `mod.rs` (info, variants, model program, allowed
//! outcomes and checks, and its kernels), its GPU runner (`gpu.rs`), its page (`page.rs`,
//! browser only), its words (`words.html`, made into constants by `build.rs`: see
//! `docs/words.md`), its download (`export.rs`), its measured-data schema (`measured.rs`), the
//! runner that measured that data (`report.rs`, native only) and its tests (`tests/`). Its
//! kernels are under `shaders/<id>/`. Adding a lesson is one folder and one line in the table
//! below, besides its kernels, its browser test and its page's binary (`src/bin/<id>.rs`, two
//! lines, which the layout test asks for): the router, the index, the kernel list, the marker
//! test, the report runner, the data tests, the browser tests' lesson lists and the benchmark
//! all read the table.

use crate::gpu::Kernel;
#[cfg(not(target_arch = "wasm32"))]
use crate::model::Program;

/// Declares each page's module and lists it in [`LESSONS`] or [`REFERENCE`], in the order given.
macro_rules! pages {
    (course: [$($lesson:ident),* $(,)?], reference: [$($page:ident),* $(,)?] $(,)?) => {
        $(pub mod $lesson;)*
        $(pub mod $page;)*

        /// Every lesson the site knows, in the order of the course: chapter by chapter, and
        /// within a chapter in the order a reader should take them (each lesson's "next" is the
        /// one after it).
        pub const LESSONS: &[LessonInfo] = &[$($lesson::INFO),*];

        /// Pages outside the course, opened by `?lesson=` like a lesson: the litmus lab, whose
        /// kernels are written from the reader's test, and the reference, with no model and no
        /// kernel.
        pub const REFERENCE: &[LessonInfo] = &[$($page::INFO),*];
    };
}

// The table. A new lesson is its folder (`src/lessons/<id>/`, whose `INFO` says the rest) and
// its name here, where the course should take it.
pages! {
    course: [
        race,
        atomic_counter,
        append,
        cas_max,
        atomic_ops,
        barrier,
        reduction,
        subgroups,
        tiled,
        histogram,
        spinlock,
        message_passing,
        producer_consumer,
        scopes,
        arrive_wait,
        semaphore,
        scan,
        grid_barrier,
    ],
    reference: [litmus, cuda_map, playground],
}

/// The parts of the course, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chapter {
    Atomics,
    Barriers,
    Contention,
    MemoryOrder,
    /// Handing work and data between invocations: what CUDA's synchronisation objects promise,
    /// and what WGSL can build instead.
    Visibility,
    /// Synchronising more than one workgroup: what WGSL promises across them, and what hangs.
    BeyondWorkgroup,
    /// The litmus lab, outside the course: the reader's own tests.
    Lab,
    /// Reference pages, outside the course.
    Reference,
    /// The playground: the reader's own kernel, stepped and checked.
    Playground,
}

impl Chapter {
    pub const COURSE: [Chapter; 6] =
        [Chapter::Atomics, Chapter::Barriers, Chapter::Contention, Chapter::MemoryOrder, Chapter::Visibility, Chapter::BeyondWorkgroup];

    pub fn title(self) -> &'static str {
        match self {
            Chapter::Atomics => "Atomics",
            Chapter::Barriers => "Barriers",
            Chapter::Contention => "Contention",
            Chapter::MemoryOrder => "Memory order",
            Chapter::Visibility => "Memory visibility",
            Chapter::BeyondWorkgroup => "Beyond one workgroup",
            Chapter::Lab => "Lab",
            Chapter::Reference => "Reference",
            Chapter::Playground => "Your own kernel",
        }
    }

    pub fn lede(self) -> &'static str {
        match self {
            Chapter::Atomics => "Many threads, one counter: what goes wrong without atomics, and what each atomic hands back.",
            Chapter::Barriers => "Threads of one workgroup waiting for each other, and what breaks when one barrier is missing.",
            Chapter::Contention => "What it costs when many invocations want the same address, and why a lock is no way out.",
            Chapter::MemoryOrder => "What one invocation may see of another's writes, and in which order.",
            Chapter::Visibility => "Handing data over with a flag, CUDA's fences, latches and semaphores, and what WGSL can build from atomics instead.",
            Chapter::BeyondWorkgroup => {
                "Prefix sums across many workgroups, and making the whole grid wait: what WGSL promises across workgroups, and what deadlocks."
            }
            Chapter::Lab => "Write your own test, see what the memory model allows, and run it on your GPU.",
            Chapter::Reference => "",
            Chapter::Playground => "Write a kernel, step it invocation by invocation, and see each race it has named with both its lines.",
        }
    }
}

/// A lesson's model a few steps in, in lockstep with four threads (or its own fixed count):
/// what its thumbnail on the index draws.
pub fn preview<V: crate::site::settings::LessonVariant>() -> crate::model::Machine {
    let threads = (*V::THREADS.start()).max(4.min(*V::THREADS.end()));
    let mut s = crate::model::Session::new(V::DEFAULT.machine(threads), crate::model::Schedule::Lockstep);
    s.seek(3);
    s.current().clone()
}

/// One row of the table: what the router, the index and the tests need to know of a lesson.
#[derive(Clone, Copy, Debug)]
pub struct LessonInfo {
    /// The value of `?lesson=` that opens it; also its folder under `shaders/`.
    pub id: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    /// Where it stands in the course.
    pub chapter: Chapter,
    /// Every kernel it dispatches, each a file under `shaders/<id>/`.
    pub kernels: &'static [Kernel],
    /// Every model program it steps, paired with the kernel whose lines the program's markers
    /// name (`// step: <marker>`), so one test checks them all. Host only: the page has no
    /// use for it, and its code would be downloaded by every reader.
    #[cfg(not(target_arch = "wasm32"))]
    pub models: fn() -> Vec<(Program, Kernel)>,
    /// Its report runners, by name: each runs its kernels on this machine's GPU and prints the
    /// figures `data/<gpu>-<name>.json` holds (`cargo run --release --example report -- <name>`).
    /// Host only, like `models`.
    #[cfg(not(target_arch = "wasm32"))]
    pub reports: &'static [(&'static str, fn())],
    /// Its files in `data/`, each with the schema it is read by. Host only: the tests check
    /// every file against its schema, and that `data/` holds no file no lesson reads.
    #[cfg(not(target_arch = "wasm32"))]
    pub measured: &'static [crate::data::measured::MeasuredFile],
    /// Its model a few steps in, for the index's thumbnail (none for a reference page).
    pub preview: Option<fn() -> crate::model::Machine>,
    /// Its page.
    #[cfg(target_arch = "wasm32")]
    pub page: fn() -> leptos::prelude::AnyView,
}

impl PartialEq for LessonInfo {
    fn eq(&self, other: &LessonInfo) -> bool {
        self.id == other.id
    }
}

/// The lesson or reference page `id` names. Reading the whole table at run time brings every
/// page into the wasm: the built site's pages name each other through [`LINKS`] instead.
pub fn find(id: &str) -> Option<&'static LessonInfo> {
    LESSONS.iter().chain(REFERENCE).find(|l| l.id == id)
}

/// What a page needs to name another: copied out of the tables at compile time, so a link to a
/// lesson never brings that lesson's page, kernels or model into the wasm of the page linking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    pub id: &'static str,
    pub title: &'static str,
    pub chapter: Chapter,
}

const PAGE_COUNT: usize = LESSONS.len() + REFERENCE.len();

/// Every page as a link: the course in order, then the reference pages.
pub static LINKS: [Link; PAGE_COUNT] = links();

/// Page `i` of the course followed by the reference pages: the one walk over both tables that
/// the compile-time copies below share.
const fn page_at(i: usize) -> &'static LessonInfo {
    if i < LESSONS.len() {
        &LESSONS[i]
    } else {
        &REFERENCE[i - LESSONS.len()]
    }
}

const fn links() -> [Link; PAGE_COUNT] {
    let mut out = [Link { id: "", title: "", chapter: Chapter::Reference }; PAGE_COUNT];
    let mut i = 0;
    while i < PAGE_COUNT {
        let l = page_at(i);
        out[i] = Link { id: l.id, title: l.title, chapter: l.chapter };
        i += 1;
    }
    out
}

/// Every page's summary, in the order of [`LINKS`]: a table of its own, which only the index
/// reads, so that a lesson page naming its neighbours carries no other page's summary.
pub static SUMMARIES: [&str; PAGE_COUNT] = summaries();

const fn summaries() -> [&'static str; PAGE_COUNT] {
    let mut out = [""; PAGE_COUNT];
    let mut i = 0;
    while i < PAGE_COUNT {
        out[i] = page_at(i).summary;
        i += 1;
    }
    out
}

/// The index's stills: each course lesson's model a few steps in, in the table's order.
pub static PREVIEWS: [Option<fn() -> crate::model::Machine>; LESSONS.len()] = previews();

const fn previews() -> [Option<fn() -> crate::model::Machine>; LESSONS.len()] {
    let mut out = [None; LESSONS.len()];
    let mut i = 0;
    while i < LESSONS.len() {
        out[i] = LESSONS[i].preview;
        i += 1;
    }
    out
}

/// The page `id` names, as a link.
pub fn link(id: &str) -> Option<&'static Link> {
    LINKS.iter().find(|l| l.id == id)
}

/// The pages before and after `id`: the course in order, then the lab and the reference, so
/// the last lesson leads on to the lab and every page has a way on.
pub fn neighbours(id: &str) -> (Option<&'static Link>, Option<&'static Link>) {
    let Some(i) = LINKS.iter().position(|l| l.id == id) else { return (None, None) };
    (i.checked_sub(1).map(|p| &LINKS[p]), LINKS.get(i + 1))
}

/// The table's entry for `id`, found at compile time (a missing id fails the build): how one
/// page of the built site takes its own page and nothing else from the table.
pub const fn entry(id: &str) -> &'static LessonInfo {
    let mut i = 0;
    while i < PAGE_COUNT {
        let l = page_at(i);
        if same(l.id, id) {
            return l;
        }
        i += 1;
    }
    panic!("no lesson or reference page has this id")
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Every kernel of every page, in the table's order.
pub fn all_kernels() -> impl Iterator<Item = Kernel> {
    LESSONS.iter().chain(REFERENCE).flat_map(|l| l.kernels.iter().copied())
}
