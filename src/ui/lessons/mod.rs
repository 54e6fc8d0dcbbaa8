//! One page per lesson.

pub mod race;
