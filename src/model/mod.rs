//! The deterministic model: a few threads stepping through a tiny program over shared
//! memory. Pure Rust, no web or GPU types, so every rule here is tested on the host.

mod atomics;
pub mod kernel;
pub mod litmus;
pub mod lowered;
mod machine;
mod program;
mod replay;
mod schedule;
mod session;
mod trace;

pub use atomics::{IntType, RmwOp};
pub use machine::{Effect, Event, KernelRun, Machine, StepError, ThreadState, ThreadStatus};
pub use program::{
    above, bits_of, f32_of, float_text, mask_text, pack, posted_text, unpack, Addr, Instr, Line, MemoryGrid, Program, Reg, Space, Span, AGGREGATE, INCLUSIVE,
};
pub use replay::{AccessRecord, ReplayAccess, ReplayError, ReplayLane, ReplayStep, ReplayTimeline};
pub use schedule::{splitmix64, Schedule};
pub use session::{Session, MAX_TICKS};
pub use trace::{Access, AccessKind, Mark, Trace};
