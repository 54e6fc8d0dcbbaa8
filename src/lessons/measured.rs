//! Figures measured on real GPUs (`data/*.json`, written by `examples/gpu_report.rs`), read
//! at compile time so the lessons can show them beside the reader's own results.
//!
//! The report writes one JSON object per line for each row, so a row's fields can be found
//! without a JSON library in the page. The host tests parse every data file in full.

/// One race-kernel row of a report: a size, and how often each final count came up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredRace {
    pub variant: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    /// `(final count, runs that ended there)`, ascending by count.
    pub final_counts: Vec<(u32, u32)>,
}

/// A report: which GPU, and its race rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredReport {
    pub adapter: String,
    pub race: Vec<MeasuredRace>,
}

pub const H100_RACE: &str = include_str!("../../data/h100-race.json");
pub const H100_TICKETS: &str = include_str!("../../data/h100-tickets.json");

fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!("\"{key}\": "))? + key.len() + 4;
    let rest = &line[at..];
    let end = if rest.starts_with('"') {
        rest[1..].find('"')? + 2
    } else if rest.starts_with('{') {
        rest.find('}')? + 1
    } else {
        rest.find([',', '}']).unwrap_or(rest.len())
    };
    Some(rest[..end].trim_matches('"'))
}

/// A plain decimal such as `0.0052`. Read by hand rather than by `str::parse::<f64>`, whose
/// general float parser would otherwise be in the page for this one column.
fn decimal(text: &str) -> Option<f64> {
    let (whole, fraction) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > 9 {
        return None;
    }
    let scale = 10u64.pow(fraction.len() as u32) as f64;
    let fraction = if fraction.is_empty() { 0 } else { fraction.parse::<u64>().ok()? };
    Some(whole.parse::<u64>().ok()? as f64 + fraction as f64 / scale)
}

fn number(line: &str, key: &str) -> Option<u32> {
    field(line, key)?.trim().parse().ok()
}

pub fn parse_report(text: &str) -> Option<MeasuredReport> {
    let adapter_line = text.lines().find(|l| l.trim_start().starts_with("\"adapter\""))?;
    let adapter = field(adapter_line, "name")?.to_owned();
    let mut race = Vec::new();
    for line in text.lines().filter(|l| l.contains("\"final_counts\"")) {
        let counts = field(line, "final_counts")?.trim_matches(['{', '}']);
        let mut final_counts = Vec::new();
        for pair in counts.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = pair.split_once(':')?;
            final_counts.push((k.trim().trim_matches('"').parse().ok()?, v.trim().parse().ok()?));
        }
        final_counts.sort_unstable();
        race.push(MeasuredRace {
            variant: field(line, "variant")?.to_owned(),
            invocations: number(line, "invocations")?,
            workgroup_size: number(line, "workgroup_size")?,
            runs: number(line, "runs")?,
            final_counts,
        });
    }
    Some(MeasuredReport { adapter, race })
}

impl MeasuredRace {
    /// "1 in 100 of 100 runs" or "1 (94 runs), 2 (6 runs)".
    pub fn describe(&self) -> String {
        match self.final_counts.as_slice() {
            [(count, n)] => format!("{count} in {n} of {} runs", self.runs),
            many => many.iter().map(|(c, n)| format!("{c} ({n} runs)")).collect::<Vec<_>>().join(", "),
        }
    }
}

/// One size of a ticket report (`examples/ticket_report.rs`), its numbers in the order of the
/// report's `columns`.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredTickets {
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub exact_permutations: u32,
    pub whole_workgroups: (u32, u32),
    pub workgroups: u32,
    pub lane_order: (u32, u32),
    pub neighbour_pairs: u32,
    pub gpu_ms_median: Option<f64>,
}

/// A report written as `columns` and `rows` (see `examples/*_report.rs`): the adapter's name
/// and each row's cells as written (strings without their quotes), one row per line.
pub fn report_rows(text: &str) -> Option<(String, Vec<Vec<String>>)> {
    let adapter = field(text.lines().find(|l| l.trim_start().starts_with("\"name\""))?, "name")?.to_owned();
    let mut rows = Vec::new();
    let mut in_rows = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("\"rows\"") {
            in_rows = true;
        } else if in_rows && line.starts_with('[') {
            let cells = line.trim_matches(|c| c == '[' || c == ']' || c == ',').split(',');
            rows.push(cells.map(|c| c.trim().trim_matches('"').to_owned()).collect());
        } else if in_rows {
            break;
        }
    }
    (!rows.is_empty()).then_some((adapter, rows))
}

/// Whole numbers of a row from column `from` on; `None` where one is missing or not whole.
fn whole(row: &[String], from: usize, columns: usize) -> Option<Vec<u32>> {
    (from..from + columns).map(|i| row.get(i)?.parse::<u32>().ok()).collect()
}

/// The ticket report (`examples/ticket_report.rs`).
pub fn parse_ticket_report(text: &str) -> Option<(String, Vec<MeasuredTickets>)> {
    let (adapter, rows) = report_rows(text)?;
    let rows = rows
        .iter()
        .map(|row| {
            let n = whole(row, 0, 10)?;
            Some(MeasuredTickets {
                invocations: n[0],
                workgroup_size: n[1],
                runs: n[2],
                exact_permutations: n[3],
                whole_workgroups: (n[4], n[5]),
                workgroups: n[6],
                lane_order: (n[7], n[8]),
                neighbour_pairs: n[9],
                gpu_ms_median: row.get(10).and_then(|x| decimal(x)),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((adapter, rows))
}

/// One size of an append report (`examples/append_report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredAppend {
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub exact: u32,
    pub kept: u32,
    pub slots_changed: (u32, u32),
    pub in_input_order: (u32, u32),
}

pub const H100_APPEND: &str = include_str!("../../data/h100-append.json");

pub fn parse_append_report(text: &str) -> Option<(String, Vec<MeasuredAppend>)> {
    let (adapter, rows) = report_rows(text)?;
    let rows = rows
        .iter()
        .map(|row| {
            let n = whole(row, 0, 9)?;
            Some(MeasuredAppend {
                invocations: n[0],
                workgroup_size: n[1],
                runs: n[2],
                exact: n[3],
                kept: n[4],
                slots_changed: (n[5], n[6]),
                in_input_order: (n[7], n[8]),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((adapter, rows))
}

/// One row of a compare-exchange report (`examples/cas_report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredCas {
    pub inputs: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub exact: u32,
    pub gave_up: u32,
    /// Retries of a whole run: fewest, median, most over the runs.
    pub retries: (u32, u32, u32),
    pub most_by_one: u32,
}

pub const H100_CAS: &str = include_str!("../../data/h100-cas-max.json");

pub fn parse_cas_report(text: &str) -> Option<(String, Vec<MeasuredCas>)> {
    let (adapter, rows) = report_rows(text)?;
    let rows = rows
        .iter()
        .map(|row| {
            let n = whole(row, 1, 9)?;
            Some(MeasuredCas {
                inputs: row.first()?.clone(),
                invocations: n[0],
                workgroup_size: n[1],
                runs: n[2],
                exact: n[3],
                gave_up: n[4],
                retries: (n[5], n[6], n[7]),
                most_by_one: n[8],
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((adapter, rows))
}

/// One op of an atomic-family report (`examples/atomic_ops_report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredAtomicOp {
    pub op: String,
    pub ty: String,
    /// `one-workgroup` or `workgroup-each`.
    pub layout: String,
    pub invocations: u32,
    pub runs: u32,
    pub explained: u32,
    pub distinct_finals: u32,
    pub distinct_returns: u32,
    pub spurious: u32,
}

pub const H100_ATOMIC_OPS: &str = include_str!("../../data/h100-atomic-ops.json");

pub fn parse_atomic_ops_report(text: &str) -> Option<(String, Vec<MeasuredAtomicOp>)> {
    let (adapter, rows) = report_rows(text)?;
    let rows = rows
        .iter()
        .map(|row| {
            let n = whole(row, 3, 6)?;
            Some(MeasuredAtomicOp {
                op: row.first()?.clone(),
                ty: row.get(1)?.clone(),
                layout: row.get(2)?.clone(),
                invocations: n[0],
                runs: n[1],
                explained: n[2],
                distinct_finals: n[3],
                distinct_returns: n[4],
                spurious: n[5],
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((adapter, rows))
}

/// One variant and size of a spinlock report (`examples/spinlock_report.rs`): counts over the
/// runs as `(fewest, most)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredSpinlock {
    pub lock: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub consistent: u32,
    pub excluded: u32,
    pub entered: (u32, u32),
    pub gave_up: (u32, u32),
    pub lost: (u32, u32),
    pub overlaps: (u32, u32),
}

pub const H100_SPINLOCK: &str = include_str!("../../data/h100-spinlock.json");

pub fn parse_spinlock_report(text: &str) -> Option<(String, Vec<MeasuredSpinlock>)> {
    let (adapter, rows) = report_rows(text)?;
    let rows = rows
        .iter()
        .map(|row| {
            let n = whole(row, 1, 13)?;
            Some(MeasuredSpinlock {
                lock: row.first()?.clone(),
                invocations: n[0],
                workgroup_size: n[1],
                runs: n[2],
                consistent: n[3],
                excluded: n[4],
                entered: (n[5], n[6]),
                gave_up: (n[7], n[8]),
                lost: (n[9], n[10]),
                overlaps: (n[11], n[12]),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((adapter, rows))
}

/// One variant and size of a barrier report (`examples/barrier_report.rs`): counts over the
/// runs as `(fewest, most)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredBarrier {
    pub variant: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub sound: u32,
    pub stale: (u32, u32),
    pub stale_within_four: (u32, u32),
    pub ordered_workgroups: (u32, u32),
    pub workgroups: u32,
}

pub const H100_BARRIER: &str = include_str!("../../data/h100-barrier.json");

pub fn parse_barrier_report(text: &str) -> Option<(String, Vec<MeasuredBarrier>)> {
    let (adapter, rows) = report_rows(text)?;
    let rows = rows
        .iter()
        .map(|row| {
            let n = whole(row, 1, 11)?;
            Some(MeasuredBarrier {
                variant: row.first()?.clone(),
                invocations: n[0],
                workgroup_size: n[1],
                runs: n[2],
                sound: n[3],
                stale: (n[4], n[5]),
                stale_within_four: (n[6], n[7]),
                ordered_workgroups: (n[8], n[9]),
                workgroups: n[10],
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((adapter, rows))
}

/// One size of a reduction report (`examples/reduction_report.rs`): median time per sum.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredReduction {
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub right: u32,
    pub levels: u32,
    pub tree_ms: Option<f64>,
    pub atomic_ms: Option<f64>,
}

pub const H100_REDUCTION: &str = include_str!("../../data/h100-reduction.json");

pub fn parse_reduction_report(text: &str) -> Option<(String, Vec<MeasuredReduction>)> {
    let (adapter, rows) = report_rows(text)?;
    let rows = rows
        .iter()
        .map(|row| {
            let n = whole(row, 0, 5)?;
            Some(MeasuredReduction {
                invocations: n[0],
                workgroup_size: n[1],
                runs: n[2],
                right: n[3],
                levels: n[4],
                tree_ms: row.get(5).and_then(|x| decimal(x)),
                atomic_ms: row.get(6).and_then(|x| decimal(x)),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((adapter, rows))
}

/// One variant and size of a tiled-multiply report (`examples/tiled_report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredTiled {
    pub variant: String,
    pub n: u32,
    pub tile: u32,
    pub runs: u32,
    pub runs_wrong: u32,
    /// Wrong cells per run, `(fewest, most)`.
    pub wrong: (u32, u32),
}

pub const H100_TILED: &str = include_str!("../../data/h100-tiled.json");

pub fn parse_tiled_report(text: &str) -> Option<(String, Vec<MeasuredTiled>)> {
    let (adapter, rows) = report_rows(text)?;
    let rows = rows
        .iter()
        .map(|row| {
            let n = whole(row, 1, 6)?;
            Some(MeasuredTiled { variant: row.first()?.clone(), n: n[0], tile: n[1], runs: n[2], runs_wrong: n[3], wrong: (n[4], n[5]) })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((adapter, rows))
}

/// One way and size of the storage-buffer demonstration (`examples/across_report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredAcross {
    pub how: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub runs_stale: u32,
    /// Stale reads per run, `(fewest, most)`.
    pub stale: (u32, u32),
    pub impossible: u32,
}

pub const H100_ACROSS: &str = include_str!("../../data/h100-across.json");

pub fn parse_across_report(text: &str) -> Option<(String, Vec<MeasuredAcross>)> {
    let (adapter, rows) = report_rows(text)?;
    let rows = rows
        .iter()
        .map(|row| {
            let n = whole(row, 1, 7)?;
            Some(MeasuredAcross {
                how: row.first()?.clone(),
                invocations: n[0],
                workgroup_size: n[1],
                runs: n[2],
                runs_stale: n[3],
                stale: (n[4], n[5]),
                impossible: n[6],
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((adapter, rows))
}

/// One way, size and number of bins of a histogram report (`examples/histogram_report.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredHistogram {
    pub variant: String,
    pub values: u32,
    pub workgroup_size: u32,
    pub distinct: u32,
    pub repeats: u32,
    /// Whether every timed pass's bins equalled the CPU's histogram (× repeats).
    pub exact: bool,
    /// Counts lost in the last pass.
    pub lost: u32,
    /// Median milliseconds per dispatch.
    pub ms: Option<f64>,
}

pub const H100_HISTOGRAM: &str = include_str!("../../data/h100-histogram.json");

pub fn parse_histogram_report(text: &str) -> Option<(String, Vec<MeasuredHistogram>)> {
    let (adapter, rows) = report_rows(text)?;
    let rows = rows
        .iter()
        .map(|row| {
            let n = whole(row, 1, 6)?;
            Some(MeasuredHistogram {
                variant: row.first()?.clone(),
                values: n[0],
                workgroup_size: n[1],
                distinct: n[2],
                repeats: n[3],
                exact: n[4] == 1,
                lost: n[5],
                ms: row.get(7).and_then(|x| decimal(x)).map(|us| us / 1000.0),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((adapter, rows))
}

/// One variant and size of the message-passing report (`examples/message_passing_report.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredLitmus {
    pub variant: String,
    pub instances: u32,
    pub workgroup_size: u32,
    pub dispatches: u32,
    /// Outcome counts read back from the kernel, in the order of `Outcome::ALL`: reader
    /// first, writer first, interleaved, weak.
    pub counts: [u64; 4],
    pub per_second: f64,
}

/// The report: its rows, and the throughput comparison run beside them.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredMessagePassing {
    pub adapter: String,
    pub rows: Vec<MeasuredLitmus>,
    pub many_instances: u32,
    pub many_per_second: f64,
    pub smallest_per_second: f64,
}

pub const H100_MESSAGE_PASSING: &str = include_str!("../../data/h100-message-passing.json");

pub fn parse_message_passing_report(text: &str) -> Option<MeasuredMessagePassing> {
    let (adapter, rows) = report_rows(text)?;
    let rows = rows
        .iter()
        .map(|row| {
            let n = whole(row, 1, 7)?;
            Some(MeasuredLitmus {
                variant: row.first()?.clone(),
                instances: n[0],
                workgroup_size: n[1],
                dispatches: n[2],
                counts: [n[3], n[4], n[5], n[6]].map(u64::from),
                per_second: decimal(row.get(8)?)?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(MeasuredMessagePassing {
        adapter,
        rows,
        many_instances: number(text, "throughput_many_instances")?,
        many_per_second: decimal(field(text, "throughput_many_per_second")?)?,
        smallest_per_second: decimal(field(text, "throughput_smallest_per_second")?)?,
    })
}
