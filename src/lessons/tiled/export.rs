//! The tiled multiply's GPU panel as JSON: every run's product as read back. The last run's
//! product is written whole; every run, the last included, lists the cells that differ from
//! the product computed on the CPU (`tiled::product`), with the value the GPU wrote there —
//! every other cell of that run equals the CPU's product — so a hundred runs of a 512-wide
//! product stay a file a reader can open.

use crate::data::{adapter, Json};
use crate::gpu::AdapterSummary;
use crate::lessons::tiled::{product, wrong_cells, TiledSize, TiledVariant};
use crate::site::settings::LessonVariant;

pub fn runs(gpu: &AdapterSummary, variant: TiledVariant, size: TiledSize, products: &[Vec<u32>], wall_ms: f64) -> Json {
    let want = product(size.n);
    let each = products.iter().map(|c| {
        let wrong = wrong_cells(&want, c);
        let cells = wrong.iter().map(|&i| Json::array([Json::from(i), Json::from(c.get(i).copied())]));
        Json::object([("wrong_cell_count", Json::from(wrong.len())), ("wrong_cells", Json::Array(cells.collect()))])
    });
    let runs_wrong = products.iter().filter(|c| !wrong_cells(&want, c).is_empty()).count();
    Json::object([
        ("syncscope", Json::from("tiled/runs")),
        ("adapter", adapter(gpu)),
        ("variant", Json::from(variant.name())),
        ("kernel", Json::from(variant.kernel().file_name())),
        (
            "parameters",
            Json::object([
                ("matrix_width", Json::from(size.n)),
                ("tile_width", Json::from(size.tile)),
                ("workgroups", Json::from(size.workgroups())),
                ("invocations_per_workgroup", Json::from(size.lanes())),
                ("runs", Json::from(products.len())),
            ]),
        ),
        ("runs_with_wrong_cells", Json::from(runs_wrong)),
        // Each run's wrong cells as [index, value], index = row × matrix_width + column.
        ("runs", Json::Array(each.collect())),
        ("last_product", Json::array(products.last().into_iter().flatten().copied())),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
