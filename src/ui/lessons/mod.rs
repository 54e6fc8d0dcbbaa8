//! One page per lesson.

pub mod append;
pub mod race;
pub mod tickets;
