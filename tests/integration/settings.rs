//! Lesson settings read from a URL: good values are taken, bad ones refused with a reason,
//! never a panic.

use std::collections::HashMap;
use syncscope::lessons::race::{RaceSettings, Variant};
use syncscope::model::{splitmix64, Schedule};

fn parse(query: &[(&str, &str)]) -> (RaceSettings, Vec<String>) {
    let map: HashMap<String, String> = query.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    RaceSettings::parse(|k| map.get(k).cloned())
}

#[test]
fn good_values_are_taken() {
    let (s, problems) =
        parse(&[("variant", "atomic"), ("threads", "6"), ("schedule", "random"), ("seed", "42"), ("step", "3"), ("invocations", "2048"), ("workgroup", "128")]);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(s.variant, Variant::Atomic);
    assert_eq!(s.threads, 6);
    assert_eq!(s.schedule, Schedule::Random { seed: 42 });
    assert_eq!((s.step, s.gpu.invocations, s.gpu.workgroup_size), (3, 2048, 128));
}

#[test]
fn bad_values_fall_back_with_a_message_each() {
    let (s, problems) =
        parse(&[("variant", "<script>"), ("threads", "99"), ("schedule", "fastest"), ("invocations", "-1"), ("workgroup", "0"), ("step", "1e9")]);
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
        let value: String = (0..len).map(|j| char::from_u32((splitmix64(r + j as u64) % 0x2FFF) as u32).unwrap_or('x')).collect();
        let key = keys[(r % keys.len() as u64) as usize];
        let (_, problems) = parse(&[(key, value.as_str())]);
        for p in problems {
            assert!(p.chars().count() < 120, "{p}");
        }
    }
}

#[test]
fn the_cuda_map_links_only_to_lessons_that_exist_and_covers_the_constructs() {
    use syncscope::lessons::cuda_map::ROWS;
    use syncscope::lessons::{find, LESSONS};
    for row in ROWS {
        let id = row.lesson.expect("every row links to a lesson");
        assert!(LESSONS.iter().any(|l| l.id == id), "{id} is not a lesson");
        assert!(!row.wgsl.is_empty() && !row.instead.is_empty(), "{row:?}");
    }
    let cuda: String = ROWS.iter().map(|r| r.cuda).collect::<Vec<_>>().join(" ");
    for construct in [
        "thread_scope_block",
        "thread_scope_device",
        "_system",
        "__syncthreads",
        "__syncwarp",
        "__threadfence_block",
        "__threadfence()",
        "__threadfence_system",
        "volatile",
        "memory_order",
        "arrive",
        "latch",
        "semaphore",
        "grid.sync",
    ] {
        assert!(cuda.contains(construct) || cuda.contains(&construct.replace("thread_scope_", "_")), "{construct} has no row");
    }
    assert_eq!(find("cuda-map").map(|l| l.id), Some("cuda-map"));
}
