//! JSON in and out, knowing no lesson. Out: results as JSON documents a reader can download and keep: which GPU, which parameters, and
//! the raw numbers read back. Written by hand (a few dozen lines) rather than pulling a
//! serialisation framework into the page; the report runners (each lesson's `report.rs`) write through
//! the same writer, with [`report`]. In: [`measured`] reads the real-GPU figures in `data/` by column name.

mod json;
pub mod measured;
#[cfg(not(target_arch = "wasm32"))]
pub mod report;

pub use json::Json;

use crate::gpu::AdapterSummary;

/// The adapter as every export describes it.
pub fn adapter(a: &AdapterSummary) -> Json {
    let l = &a.limits;
    Json::object([
        ("name", Json::from(a.name.as_str())),
        ("backend", Json::from(a.backend.as_str())),
        ("device_type", Json::from(a.device_type.as_str())),
        ("driver", Json::from(a.driver.as_str())),
        ("timestamp_queries", Json::Bool(a.has_timestamps)),
        (
            "limits",
            Json::object([
                ("max_workgroup_size_x", Json::from(l.max_workgroup_size_x)),
                ("max_invocations_per_workgroup", Json::from(l.max_invocations_per_workgroup)),
                ("max_workgroups_per_dimension", Json::from(l.max_workgroups_per_dimension)),
                ("max_storage_buffer_binding_size", Json::from(l.max_storage_buffer_binding_size)),
            ]),
        ),
    ])
}
