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

/// Prints a report in the shape `data::measured::Table` reads: which report, the
/// adapter, the column names, one row of numbers per line, and any `extra` fields after them.
pub fn print_report(kind: &str, ctx: &GpuContext, columns: &[&str], rows: Vec<crate::data::Json>, extra: Vec<(&str, crate::data::Json)>) {
    use crate::data::{adapter, Json};
    let mut fields = vec![
        ("syncscope", Json::from(kind)),
        ("adapter", adapter(&ctx.adapter)),
        ("columns", Json::array(columns.iter().copied())),
        ("rows", Json::Array(rows)),
    ];
    fields.extend(extra);
    print!("{}", Json::object(fields).to_pretty());
}
