//! One module per lesson: its model program, its kernels, its allowed outcomes and its text.
//! The pure parts live here and are host-tested; each lesson's page is in `crate::ui`.

pub mod append;
pub mod atomic_ops;
pub mod barrier;
pub mod cas_max;
pub mod cuda_map;
pub mod dispatch;
pub mod histogram;
pub mod measured;
pub mod message_passing;
pub mod param;
pub mod permalink;
pub mod race;
pub mod reduction;
pub mod spinlock;
pub mod settings;
pub mod tickets;
pub mod tiled;

/// Every lesson the site knows, in the order the index lists them.
pub const LESSONS: &[LessonInfo] = &[race::INFO, tickets::INFO, append::INFO, cas_max::INFO, atomic_ops::INFO, spinlock::INFO, barrier::INFO, reduction::INFO, tiled::INFO, histogram::INFO, message_passing::INFO];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonInfo {
    /// The value of `?lesson=` that opens it.
    pub id: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
}

/// Reference pages: opened by `?lesson=` like a lesson, but with no model and no kernel.
pub const REFERENCE: &[LessonInfo] = &[cuda_map::INFO];

/// The lesson or reference page `id` names.
pub fn find(id: &str) -> Option<&'static LessonInfo> {
    LESSONS.iter().chain(REFERENCE).find(|l| l.id == id)
}
