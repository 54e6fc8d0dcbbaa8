//! Lesson settings read from a URL: good values are taken, bad ones refused with a reason,
//! never a panic.

use std::collections::HashMap;
use syncscope::lessons::race::{RaceSettings, Variant};
use syncscope::model::{splitmix64, Schedule};

fn parse(query: &[(&str, &str)]) -> (RaceSettings, Vec<String>) {
    let map: HashMap<String, String> =
        query.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    RaceSettings::parse(|k| map.get(k).cloned())
}

#[test]
fn good_values_are_taken() {
    let (s, problems) = parse(&[
        ("variant", "atomic"),
        ("threads", "6"),
        ("schedule", "random"),
        ("seed", "42"),
        ("step", "3"),
        ("invocations", "2048"),
        ("workgroup", "128"),
    ]);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(s.variant, Variant::Atomic);
    assert_eq!(s.threads, 6);
    assert_eq!(s.schedule, Schedule::Random { seed: 42 });
    assert_eq!((s.step, s.gpu.invocations, s.gpu.workgroup_size), (3, 2048, 128));
}

#[test]
fn bad_values_fall_back_with_a_message_each() {
    let (s, problems) = parse(&[
        ("variant", "<script>"),
        ("threads", "99"),
        ("schedule", "fastest"),
        ("invocations", "-1"),
        ("workgroup", "0"),
        ("step", "1e9"),
    ]);
    assert_eq!(s, RaceSettings::default());
    assert_eq!(problems.len(), 6, "{problems:?}");
    assert!(problems[1].contains("threads=\"99\"") && problems[1].contains("2 to 64"));
}

#[test]
fn arbitrary_input_never_panics_and_long_values_are_cut_short() {
    let keys = ["variant", "threads", "schedule", "seed", "step", "invocations", "workgroup"];
    for i in 0..5000u64 {
        let r = splitmix64(i);
        let len = (r % 40) as usize;
        let value: String = (0..len)
            .map(|j| char::from_u32((splitmix64(r + j as u64) % 0x2FFF) as u32).unwrap_or('x'))
            .collect();
        let key = keys[(r % keys.len() as u64) as usize];
        let (_, problems) = parse(&[(key, value.as_str())]);
        for p in problems {
            assert!(p.chars().count() < 120, "{p}");
        }
    }
}
