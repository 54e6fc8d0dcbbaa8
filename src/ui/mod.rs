//! Browser UI components, knowing no lesson: the player, thread lanes, code view, charts,
//! forms, panels, figures and downloads. Each lesson's page (in its folder under `lessons/`)
//! wires its model, kernels and text into them.

pub mod chart;
pub mod code_view;
pub mod download;
pub mod figures;
pub mod gpu;
pub mod gpu_form;
pub mod histogram;
pub mod lanes;
pub mod lesson_page;
pub mod matrix;
pub mod measured;
pub mod model_panel;
pub mod panel;
pub mod permalink;
pub mod player;
pub mod scene;
pub mod table;
pub mod ticket_grid;
pub mod timeline;

pub use gpu::{GpuHandle, GpuState};
