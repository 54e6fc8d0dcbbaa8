//! One page per lesson.

pub mod append;
pub mod atomic_ops;
pub mod barrier;
pub mod cas_max;
pub mod histogram;
pub mod message_passing;
pub mod race;
pub mod reduction;
pub mod spinlock;
pub mod tickets;
pub mod tiled;
