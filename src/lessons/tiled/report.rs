//! Runs the tiled multiply with both barriers and without either on this machine's GPU
//! (native wgpu over Vulkan) and prints, as JSON, how many runs had wrong cells and how many:
//! the figures the tiled lesson shows beside the reader's.
//!
//! ```sh
//! cargo run --release --example report -- tiled > data/<gpu>-tiled.json
//! ```
//!
//! Every cell is compared with the product computed on the CPU.

use crate::data::Json;
use crate::lessons::tiled::gpu::run_tiled;
use crate::lessons::tiled::{product, wrong_cells, TiledSize, TiledVariant};
use crate::site::settings::LessonVariant;

use crate::data::measured::names;
use crate::lessons::tiled;

const RUNS: u32 = 100;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let mut rows = Vec::new();
    for variant in TiledVariant::ALL {
        for (n, tile) in [(8, 4), (64, 8), (64, 16), (256, 16), (512, 16)] {
            let size = TiledSize { n, tile };
            let want = product(n);
            let products = pollster::block_on(run_tiled(&ctx, variant, size, RUNS)).expect("run");
            let wrong: Vec<u32> = products.iter().map(|c| wrong_cells(&want, c).len() as u32).collect();
            rows.push(Json::Array(vec![
                Json::from(variant.name()),
                Json::from(n),
                Json::from(tile),
                Json::from(RUNS),
                Json::from(wrong.iter().filter(|&&w| w > 0).count()),
                Json::from(wrong.iter().copied().min().unwrap_or(0)),
                Json::from(wrong.iter().copied().max().unwrap_or(0)),
            ]));
        }
    }
    crate::data::report::print_report("tiled/report", &ctx, &names(tiled::measured::SCHEMA), rows, vec![]);
}
