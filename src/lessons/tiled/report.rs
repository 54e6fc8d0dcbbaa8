//! Runs the tiled multiply with both barriers and without either on this machine's GPU
//! (native wgpu over Vulkan) and prints, as JSON, how many runs had wrong cells and how many:
//! the figures the tiled lesson shows beside the reader's.
//!
//! ```sh
//! cargo run --release --example report -- tiled > data/<gpu>-tiled.json
//! ```
//!
//! Every cell is compared with the product computed on the CPU.

use crate::lessons::tiled::gpu::run_tiled;
use crate::lessons::tiled::{product, wrong_cells, TiledSize, TiledVariant};
use crate::site::settings::LessonVariant;

use crate::data::measured::names;
use super::measured::TiledColumns;
use crate::data::report::count;

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
            rows.push(TiledColumns {
                variant: variant.name().to_string(),
                n: count(n),
                tile: count(tile),
                runs: count(RUNS),
                runs_wrong: count(wrong.iter().filter(|&&w| w > 0).count()),
                wrong_min: count(wrong.iter().copied().min().unwrap_or(0)),
                wrong_max: count(wrong.iter().copied().max().unwrap_or(0)),
            }
            .to_json());
        }
    }
    crate::data::report::print_report("tiled/report", &ctx, &names(TiledColumns::SCHEMA), rows, vec![]);
}
