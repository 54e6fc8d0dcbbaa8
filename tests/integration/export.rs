//! Exported results are well-formed JSON that carries the raw numbers as read back.

use syncscope::data::Json;
use syncscope::gpu::{AdapterSummary, ComputeLimitsSummary};
use syncscope::lessons::race::export as race;
use syncscope::lessons::race::gpu::{RaceBatch, ReplayRun};
use syncscope::lessons::race::{GpuParams, Variant};
use syncscope::model::AccessRecord;

fn adapter() -> AdapterSummary {
    AdapterSummary {
        name: "Test \"GPU\"\n\\ rev 2".into(),
        backend: "Vulkan".into(),
        device_type: "Cpu".into(),
        is_cpu: true,
        driver: String::new(),
        has_timestamps: false,
        limits: ComputeLimitsSummary {
            max_workgroup_size_x: 256,
            max_invocations_per_workgroup: 256,
            max_workgroups_per_dimension: 65535,
            max_storage_buffer_binding_size: 1 << 27,
            min_storage_buffer_offset_alignment: 256,
        },
        subgroups: None,
    }
}

#[test]
fn strings_are_escaped_and_numbers_are_plain() {
    let doc = Json::object([
        ("s", Json::from("a\"b\\c\n\u{1}é")),
        ("x", Json::from(1.25f64)),
        ("whole", Json::from(3.0f64)),
        ("nan", Json::from(f64::NAN)),
        ("none", Json::from(None::<u32>)),
        ("list", Json::array([1u32, 2, 3])),
        ("empty", Json::Array(vec![])),
    ]);
    assert_eq!(
        doc.to_pretty(),
        "{\n  \"s\": \"a\\\"b\\\\c\\n\\u0001é\",\n  \"x\": 1.25,\n  \"whole\": 3,\n  \"nan\": null,\n  \"none\": null,\n  \"list\": [1, 2, 3],\n  \"empty\": []\n}\n"
    );
}

#[test]
fn a_batch_of_runs_keeps_every_final_count_in_order() {
    let batch = RaceBatch { finals: vec![256, 255, 256], gpu_ns: Some(1_500_000.0) };
    let params = GpuParams { invocations: 1024, workgroup_size: 64 };
    let text = race::runs(&adapter(), Variant::Racy, params, &batch, 12.5).to_pretty();
    for needle in [
        "\"name\": \"Test \\\"GPU\\\"\\n\\\\ rev 2\"",
        "\"kernel\": \"race_racy.wgsl\"",
        "\"workgroups\": 16",
        "\"runs\": 3",
        "\"allowed_final_counts\": [1, 1024]",
        "\"final_counts\": [256, 255, 256]",
        "\"gpu_ms\": 1.5",
        "\"wall_ms\": 12.5",
    ] {
        assert!(text.contains(needle), "{needle} not in\n{text}");
    }
}

#[test]
fn a_replay_keeps_each_invocations_record() {
    let run = ReplayRun {
        records: vec![
            AccessRecord { loaded: 0, stored: 1, load_ticket: 0, store_ticket: 2 },
            AccessRecord { loaded: 0, stored: 1, load_ticket: 1, store_ticket: 3 },
        ],
        final_count: 1,
    };
    let text = race::replay(&adapter(), Variant::Racy, &run).to_pretty();
    assert!(text.contains("\"final_count\": 1"), "{text}");
    assert!(text.contains("\"invocation\": 1,\n      \"loaded\": 0,\n      \"stored\": 1,\n      \"load_ticket\": 1,\n      \"store_ticket\": 3"), "{text}");
}
