//! The host's tests of the engine and the site as a whole, in one binary (each lesson's own tests
//! are in its folder, `src/lessons/<id>/tests/`, run with the library's unit tests).

mod claims;
mod export;
mod gpu_readback;
mod kernels_match_model;
mod layout;
mod measured;
mod model_addressing;
mod model_barrier;
mod model_switch;
mod model_trace;
mod permalink;
mod replay;
mod settings;
mod stepped;
