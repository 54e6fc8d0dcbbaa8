//! Steps a WGSL compute kernel invocation by invocation, and finds its races.
//!
//! - [`ir`]: the lowered program, a kernel flattened into small instructions, each with its line.
//! - [`lower`] (feature `wgsl`): WGSL to a program, through naga's parser and validator.
//! - [`run`]: the interpreter, and the findings it makes as it goes (races, barriers not all
//!   reach, indices out of bounds, spins).
//! - [`rust`] (feature `wgsl`): a program as Rust source, for programs lowered at build time.
//!
//! Nothing here knows of the site: the site's build script lowers the lessons' kernels, and the
//! pages step them with [`run::Run`].

pub mod ir;
#[cfg(feature = "wgsl")]
pub mod lower;
pub mod run;
#[cfg(feature = "wgsl")]
pub mod rust;

pub use ir::Program;
pub use run::{Finding, Run, Setup};
