//! What the report runners share (native only): this machine's GPU, or a clear exit without
//! one, and the shape every report is printed in.

use crate::gpu::GpuContext;

pub fn gpu_or_exit() -> GpuContext {
    match pollster::block_on(GpuContext::acquire()) {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("no GPU: {e}");
            std::process::exit(1);
        }
    }
}

/// Prints a report (see [`report_text`]) for this machine's adapter.
pub fn print_report(kind: &str, ctx: &GpuContext, columns: &[&str], rows: Vec<crate::data::Json>, extra: Vec<(&str, crate::data::Json)>) {
    print!("{}", report_text(kind, crate::data::adapter(&ctx.adapter), columns, rows, extra));
}

/// A report in the shape `data::measured::Table` reads: which report, the adapter, the column
/// names, one row per line, and any `extra` fields after them.
pub fn report_text(kind: &str, adapter: crate::data::Json, columns: &[&str], rows: Vec<crate::data::Json>, extra: Vec<(&str, crate::data::Json)>) -> String {
    use crate::data::Json;
    let mut fields =
        vec![("syncscope", Json::from(kind)), ("adapter", adapter), ("columns", Json::array(columns.iter().copied())), ("rows", Json::Array(rows))];
    fields.extend(extra);
    Json::object(fields).to_pretty()
}

/// A count as a report's whole-number column holds it. Counts here are of invocations, runs and
/// cells of one dispatch, which the lessons' size checks keep within `u32`.
pub fn count(n: impl TryInto<u32>) -> u32 {
    n.try_into().unwrap_or_else(|_| panic!("a count past u32 in a report"))
}
