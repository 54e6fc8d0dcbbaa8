//! Browser UI components, knowing no lesson: the player, thread lanes, code view, charts,
//! forms, panels, figures and downloads. Each lesson's page (in its folder under `lessons/`)
//! wires its model, kernels and text into them.

pub mod chart;
pub mod code_view;
pub mod download;
pub mod figures;
pub mod findings;
pub mod gpu;
pub mod gpu_form;
pub mod gpu_half;
pub mod histogram;
pub mod lanes;
pub mod lesson_page;
pub mod matrix;
pub mod measured;
pub mod model_panel;
pub mod moving;
pub mod number;
pub mod panel;
pub mod permalink;
pub mod player;
pub mod prediction;
pub mod scene;
pub mod table;
pub mod ticket_grid;
pub mod timeline;
pub mod token_layer;

pub use gpu::{GpuHandle, GpuState};

/// From this many threads up a scene's lanes are drawn compact (no instruction text, thin rows,
/// in columns of this many), and the timeline's rows with them.
pub const COMPACT_FROM: usize = 16;

use crate::model::{Machine, Program};
use leptos::prelude::*;
use std::sync::Arc;

/// The program a machine runs, changing only when the program does (another variant), not
/// at every step. Compared by identity: every step of one run shares the same Arc, so this is
/// a pointer test, not a walk through every line and memory name of the program.
pub fn program_of(machine: Memo<Machine>) -> Memo<Arc<Program>> {
    Memo::new_with_compare(
        move |_| machine.with(|m| m.program().clone()),
        |old, new| match (old, new) {
            (Some(a), Some(b)) => !Arc::ptr_eq(a, b),
            _ => true,
        },
    )
}

/// A memo of the machine `current` gives, waking its readers only when the state changed. The
/// program is compared by identity (every step of one run shares its Arc; another variant
/// brings another), so the comparison walks threads and memory, never the program's lines and
/// names, and the page carries no code that compares two programs.
pub fn machine_memo(current: impl Fn() -> Machine + Send + Sync + 'static) -> Memo<Machine> {
    Memo::new_with_compare(
        move |_| current(),
        |old, new| match (old, new) {
            (Some(a), Some(b)) => !a.same_state(b),
            _ => true,
        },
    )
}

/// Sets what `element` says to `text` (callers have found it changed). Where it holds one text
/// node already, that node takes the new text: replacing it (as `textContent` does) took a
/// layout object away and made a new one, sixteen times a lockstep step of the scene.
pub(crate) fn set_text(element: &web_sys::Node, text: &str) {
    match element.first_child() {
        Some(node) if node.node_type() == web_sys::Node::TEXT_NODE && node.next_sibling().is_none() => node.set_node_value(Some(text)),
        _ => element.set_text_content(Some(text)),
    }
}
