//! The claim register (each lesson's `claims.md`, read as `data/claims.md` says): every claim a lesson makes about GPUs, compilers or
//! the specifications is still said where the register says, and its evidence still holds —
//! the tests it names exist, and the measured files still show what it says they show.

use std::collections::BTreeSet;
use std::path::Path;
use syncscope::data::measured::{Row, Table};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[derive(Debug)]
struct Claim {
    lesson: String,
    phrase: String,
    file: String,
    evidence: Vec<(String, String)>,
}

/// Each page's part of the register: its id, the file, and the file's text.
fn parts() -> Vec<(&'static str, String, String)> {
    let pages = syncscope::lessons::LESSONS.iter().chain(syncscope::lessons::REFERENCE);
    pages
        .map(|l| {
            let file = format!("src/lessons/{}/claims.md", l.id.replace('-', "_"));
            let text = std::fs::read_to_string(Path::new(ROOT).join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            (l.id, file, text)
        })
        .collect()
}

fn register() -> Vec<Claim> {
    let mut claims: Vec<Claim> = Vec::new();
    for (lesson, file, text) in parts() {
        claims.extend(claims_in(lesson, &file, &text));
    }
    claims
}

fn claims_in(lesson: &str, file: &str, text: &str) -> Vec<Claim> {
    let lesson = lesson.to_owned();
    let mut claims: Vec<Claim> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = || format!("{file}:{}", n + 1);
        if line.starts_with("- not: ") {
            continue;
        } else if let Some(rest) = line.strip_prefix("- **") {
            let phrase = rest.strip_suffix("**").unwrap_or_else(|| panic!("{}: a claim ends with **", at()));
            claims.push(Claim { lesson: lesson.clone(), phrase: phrase.to_owned(), file: String::new(), evidence: Vec::new() });
        } else if let Some(rest) = line.strip_prefix("  in `") {
            let claim = claims.last_mut().unwrap_or_else(|| panic!("{}: `in` before any claim", at()));
            claim.file = rest.trim_end_matches('`').to_owned();
        } else if let Some(rest) = line.strip_prefix("  - ") {
            let (kind, what) = rest.split_once(": ").unwrap_or_else(|| panic!("{}: evidence is `kind: what`", at()));
            let claim = claims.last_mut().unwrap_or_else(|| panic!("{}: evidence before any claim", at()));
            claim.evidence.push((kind.to_owned(), what.to_owned()));
        }
    }
    claims
}

#[test]
fn every_claim_is_said_once_where_the_register_says() {
    for c in register() {
        let text = std::fs::read_to_string(Path::new(ROOT).join(&c.file)).unwrap_or_else(|e| panic!("{}: {e}", c.file));
        assert_eq!(text.matches(&c.phrase).count(), 1, "{:?} in {}", c.phrase, c.file);
        assert!(!c.evidence.is_empty(), "{:?} has no evidence", c.phrase);
        for (kind, _) in &c.evidence {
            assert!(["spec", "seed", "test", "data", "source"].contains(&kind.as_str()), "{kind}: {:?}", c.phrase);
        }
    }
}

#[test]
fn no_retired_wording_comes_back() {
    let text = std::fs::read_to_string(Path::new(ROOT).join("data/claims.md")).unwrap();
    let retired: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("- not: ")).collect();
    assert!(retired.len() >= 10);
    let mut files = Vec::new();
    for dir in ["src", "shaders"] {
        walk(&Path::new(ROOT).join(dir), &mut files);
    }
    for file in files {
        let body = std::fs::read_to_string(&file).unwrap();
        for wording in &retired {
            assert!(!body.contains(wording), "{wording:?} is back in {file:?}");
        }
    }
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn every_lesson_and_reference_page_has_claims() {
    let claims = register();
    let listed: BTreeSet<&str> = claims.iter().map(|c| c.lesson.as_str()).collect();
    for lesson in syncscope::lessons::LESSONS.iter().chain(syncscope::lessons::REFERENCE) {
        assert!(listed.contains(lesson.id), "no claim registered for {}", lesson.id);
        let folder = format!("src/lessons/{}/", lesson.id.replace('-', "_"));
        for c in claims.iter().filter(|c| c.lesson == lesson.id) {
            assert!(c.file.starts_with(&folder) || c.file.starts_with(&format!("shaders/{}/", lesson.id)), "{} claim in {}", lesson.id, c.file);
        }
    }
}

#[test]
fn every_test_named_as_evidence_exists() {
    for c in register() {
        for (kind, what) in &c.evidence {
            if kind != "test" {
                continue;
            }
            let name = what.split_whitespace().next().unwrap();
            let (file, function) = name.split_once("::").unwrap_or_else(|| panic!("{name}: <file>.rs::<test>"));
            let text = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            let at = text.find(&format!("fn {function}(")).unwrap_or_else(|| panic!("{name} is gone ({:?})", c.phrase));
            assert!(text[..at].trim_end().ends_with("#[test]"), "{name} is not a #[test]");
        }
    }
}

#[test]
fn every_data_line_still_holds() {
    let mut checked = 0;
    for c in register() {
        for (kind, what) in &c.evidence {
            if kind == "data" {
                if let Err(why) = check_data(what) {
                    panic!("data: {what}\n  for {:?}: {why}", c.phrase);
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "{checked}");
}

#[test]
fn a_data_line_that_no_longer_holds_fails() {
    // The checker above must be able to say no.
    assert!(check_data("h100-message-passing.json [variant=relaxed] sum(weak) = 3926").is_ok());
    assert!(check_data("h100-message-passing.json [variant=relaxed] sum(weak) = 3927").is_err());
    assert!(check_data("h100-barrier.json [variant=with] max(stale_max) > 0").is_err());
    assert!(check_data("h100-barrier.json [variant=nowhere] max(stale_max) = 0").is_err(), "no row picked");
    assert!(check_data("h100-barrier.json [variant=with] stale_sideways = 0").is_err(), "no such column");
    assert!(check_data("h100-race.json contains \"final_counts\": {\"1024\": 99}").is_err());
}

/// Checks one `data:` line (see the head of `data/claims.md` for its forms).
fn check_data(line: &str) -> Result<(), String> {
    let (file, rest) = line.split_once(' ').ok_or("no file")?;
    let text = std::fs::read_to_string(Path::new(ROOT).join("data").join(file)).map_err(|e| format!("{file}: {e}"))?;
    if let Some(needle) = rest.strip_prefix("contains ") {
        return if text.contains(needle) { Ok(()) } else { Err(format!("{file} does not contain it")) };
    }
    let table = Table::parse(&text).ok_or(format!("{file} has no table"))?;
    let (filter, test) = match rest.strip_prefix('[') {
        Some(r) => r.split_once("] ").ok_or("unclosed [")?,
        None => ("", rest),
    };
    let picks: Vec<(&str, &str)> =
        filter.split(", ").filter(|p| !p.is_empty()).map(|p| p.split_once('=').ok_or(format!("{p}: column=value"))).collect::<Result<_, _>>()?;
    for (column, _) in &picks {
        if !table.columns.iter().any(|c| c == column) {
            return Err(format!("{file} has no column {column}"));
        }
    }
    let rows: Vec<Row> = table.rows().filter(|r| picks.iter().all(|(c, v)| r.text(c) == Some(*v))).collect();
    if rows.is_empty() {
        return Err("no row picked".into());
    }
    let parts: Vec<&str> = test.split_whitespace().collect();
    let [left, op, right] = parts[..] else { return Err(format!("{test}: `left op right`")) };
    let number = |row: &Row, column: &str| -> Result<f64, String> {
        if !table.columns.iter().any(|c| c == column) {
            return Err(format!("{file} has no column {column}"));
        }
        row.decimal(column).ok_or(format!("{column} is not a number"))
    };
    let compare = |a: f64, b: f64| match op {
        "=" => Ok(a == b),
        "<" => Ok(a < b),
        ">" => Ok(a > b),
        "<=" => Ok(a <= b),
        ">=" => Ok(a >= b),
        _ => Err(format!("{op}: one of = < > <= >=")),
    };
    if let Some((agg, column)) = left.strip_suffix(')').and_then(|l| l.split_once('(')) {
        let values: Vec<f64> = rows.iter().map(|r| number(r, column)).collect::<Result<_, _>>()?;
        let value = match agg {
            "sum" => values.iter().sum(),
            "min" => values.iter().copied().fold(f64::INFINITY, f64::min),
            "max" => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            "count" => values.len() as f64,
            _ => return Err(format!("{agg}: sum, min, max or count")),
        };
        let want: f64 = right.parse().map_err(|_| format!("{right} is not a number"))?;
        return if compare(value, want)? { Ok(()) } else { Err(format!("{agg}({column}) is {value}")) };
    }
    for row in &rows {
        let a = number(row, left)?;
        let b = match right.parse::<f64>() {
            Ok(b) => b,
            Err(_) => number(row, right)?,
        };
        if !compare(a, b)? {
            return Err(format!("a row has {left} = {a} against {b}"));
        }
    }
    Ok(())
}
