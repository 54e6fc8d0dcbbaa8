//! One page per lesson.

pub mod race;
pub mod tickets;
