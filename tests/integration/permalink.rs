//! A link made from any state of the race lesson reopens exactly that state: the same
//! machine (registers, program counters, memory), the same step, the same future.

use std::collections::HashMap;
use syncscope::lessons::race::{GpuParams, RaceSettings, Variant};
use syncscope::model::{splitmix64, Schedule, Session};
use syncscope::site::permalink::{href, parse_ticks, query};

/// Parses a query string the way a browser's `URLSearchParams` would for our links.
fn reopen(q: &str) -> (RaceSettings, Vec<String>) {
    let map: HashMap<String, String> = q.split('&').filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.to_owned(), percent_decode(v))).collect();
    RaceSettings::parse(|k| map.get(k).cloned())
}

fn percent_decode(v: &str) -> String {
    let bytes = v.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(u8::from_str_radix(&v[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn link(variant: Variant, session: &Session) -> String {
    let gpu = GpuParams { invocations: 4096, workgroup_size: 128 };
    query("race", &RaceSettings::capture(variant, session, gpu).to_pairs())
}

fn assert_reopens(variant: Variant, session: &Session) {
    let q = link(variant, session);
    let (settings, problems) = reopen(&q);
    assert!(problems.is_empty(), "{q}: {problems:?}");
    let (mut again, problems) = settings.session();
    assert!(problems.is_empty(), "{q}: {problems:?}");
    assert_eq!(again.cursor(), session.cursor(), "{q}");
    assert_eq!(again.current(), session.current(), "{q}");
    assert_eq!(settings.gpu, GpuParams { invocations: 4096, workgroup_size: 128 });
    // The future the schedule would take from here is the same too.
    let mut original = session.clone();
    assert_eq!(again.run_to_end(), original.run_to_end(), "{q}");
}

#[test]
fn every_step_of_every_automatic_schedule_reopens() {
    for variant in [Variant::Racy, Variant::Atomic] {
        for schedule in [Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial, Schedule::Random { seed: 7 }] {
            let mut s = Session::new(variant.machine(5), schedule);
            s.run_to_end();
            for step in 0..=s.known_ticks() {
                s.seek(step);
                assert_reopens(variant, &s);
            }
        }
    }
}

#[test]
fn hand_chosen_and_mixed_histories_reopen() {
    for case in 0..300u64 {
        let r = splitmix64(case);
        let threads = 2 + (r % 7) as usize; // 2 to 8
        let mut s = Session::new(Variant::Racy.machine(threads), Schedule::Manual);
        // Some ticks by hand, maybe a switch to an automatic schedule, maybe a step back.
        for i in 0..(r >> 8) % 12 {
            let ready: Vec<usize> = s.current().ready_threads().collect();
            if ready.is_empty() {
                break;
            }
            s.step_thread(ready[(splitmix64(r + i) % ready.len() as u64) as usize]).unwrap();
        }
        if (r >> 16) % 2 == 0 {
            s.set_schedule(Schedule::Random { seed: r >> 20 });
            s.run_to_end();
            s.seek(s.cursor() + ((r >> 24) % 4) as usize);
        }
        if (r >> 28) % 3 == 0 {
            s.back();
        }
        assert_reopens(Variant::Racy, &s);
    }
}

#[test]
fn a_link_to_an_automatic_run_carries_no_tick_list() {
    let mut s = Session::new(Variant::Racy.machine(4), Schedule::Lockstep);
    s.seek(2);
    let q = link(Variant::Racy, &s);
    assert_eq!(q, "lesson=race&variant=racy&threads=4&schedule=lockstep&step=2&invocations=4096&workgroup=128");
}

#[test]
fn bad_tick_lists_are_refused_with_a_reason() {
    for (value, why) in [("0,x", "tick 2"), ("0_0", "thread 0 twice"), ("4", "from 0 to 3"), ("", ""), ("0,,1", "tick 2")] {
        match parse_ticks(value, 4) {
            Ok(t) => assert!(why.is_empty() && t.is_empty(), "{value}: {t:?}"),
            Err(e) => assert!(e.contains(why), "{value}: {e}"),
        }
    }
    assert!(parse_ticks(&"0,".repeat(20_000), 4).unwrap_err().contains("longer than"));
    // A tick list that names a finished thread stops the history there, with a message.
    // (The racy kernel takes two steps: its load and its store.)
    let (settings, problems) = reopen("lesson=race&threads=2&schedule=manual&ticks=0,0,0&step=3");
    assert!(problems.is_empty());
    let (s, problems) = settings.session();
    assert_eq!(s.cursor(), 2);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("tick 3") && problems[0].contains("thread 0 has finished"), "{problems:?}");
    assert!(problems[1].contains("step=3 is past the end"), "{problems:?}");
}

/// A kernel's text too long for a server's request line travels after the `#`; a short link
/// stays all query, and either way every pair comes back.
#[test]
fn a_long_value_travels_after_the_hash_and_a_short_one_in_the_query() {
    let short = href("playground", &[("wgsl", "fn main() {}".to_owned()), ("workgroups", "2".to_owned())]);
    assert!(short.starts_with("?lesson=playground&wgsl=") && !short.contains('#'), "{short}");
    let kernel = "// a comment that makes the kernel long\n".repeat(100);
    let long = href("playground", &[("wgsl", kernel.clone()), ("workgroups", "2".to_owned())]);
    let (query_part, fragment) = long.split_once('#').unwrap_or_else(|| panic!("{long}"));
    assert_eq!(query_part, "?lesson=playground&workgroups=2");
    let value = fragment.strip_prefix("wgsl=").unwrap();
    assert_eq!(percent_decode(value), kernel);
    assert!(query_part.len() < 100);
}
