//! The kernels under `shaders/` lowered for the stepper, one `static` [`Program`] each, named
//! after its file (`shaders/race/race_racy.wgsl` is [`RACE_RACY`]), made by `build.rs` as the
//! site is built: a page that steps a kernel carries its program and the interpreter, never
//! naga. What the lowering takes, and the kernels it refuses, are in `docs/stepper.md`.

#![allow(clippy::all, clippy::pedantic)]

use std::borrow::Cow;
use stepper::ir::*;

include!(concat!(env!("OUT_DIR"), "/stepped.rs"));
