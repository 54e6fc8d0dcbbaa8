//! `?lesson=tiled`: a matrix multiply that stages tiles of both inputs in workgroup memory.
//! Each tile takes two barriers: one after loading (nobody multiplies before the tile is
//! whole) and one after using it (nobody loads the next tile over cells still being read).
//! Removing either one gives a different kernel, and the GPU's wrong cells show what it did.

pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_tiled.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::params::ComputeLimits;
use crate::gpu::Kernel;
use crate::model::kernel::{self, Show};
use crate::model::{Machine, MemoryGrid};
use std::ops::RangeInclusive;

/// This lesson's kernels, each a file under `shaders/tiled/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const BOTH_BARRIERS: Kernel = crate::kernel!("tiled", "tiled.wgsl");
    pub const WITHOUT_FIRST: Kernel = crate::kernel!("tiled", "tiled_without_first.wgsl");
    pub const WITHOUT_SECOND: Kernel = crate::kernel!("tiled", "tiled_without_second.wgsl");

    /// Every kernel of the lesson that compiles everywhere.
    pub const ALL: &[Kernel] = &[BOTH_BARRIERS, WITHOUT_FIRST, WITHOUT_SECOND];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "tiled",
    title: "Tiles and two barriers",
    summary: "Matrix multiply through workgroup memory: load a tile, wait, multiply, wait. Take out either barrier and see which cells go wrong.",
    chapter: super::Chapter::Barriers,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<TiledVariant>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::TiledLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("tiled", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-tiled.json", text: measured::H100_TILED, schema: Some(measured::SCHEMA) }],
};

/// The model: one workgroup of `TILE × TILE` threads computing the top-left tile of an
/// `N × N` product, walking along `N / TILE` tiles.
pub const TILE: usize = 4;
pub const N: usize = 8;
pub const MODEL_THREADS: usize = TILE * TILE;

/// Where the model draws each array: the two inputs, the two tiles, then the output (all of
/// it: the workgroup fills its top-left tile, see [`c_cell`]).
pub const A: usize = 0;
pub const B: usize = A + N * N;
pub const TILE_A: usize = B + N * N;
pub const TILE_B: usize = TILE_A + TILE * TILE;
pub const C: usize = TILE_B + TILE * TILE;

/// The model's cell of `c` for cell `i` of the workgroup's tile (row by row).
pub fn c_cell(i: usize) -> usize {
    C + (i / TILE) * N + i % TILE
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TiledVariant {
    /// Both barriers: the kernel as it should be.
    Both,
    /// No barrier between loading a tile and multiplying with it.
    WithoutFirst,
    /// No barrier between multiplying with a tile and loading the next one over it.
    WithoutSecond,
}

impl TiledVariant {
    pub const ALL: [TiledVariant; 3] = [TiledVariant::Both, TiledVariant::WithoutFirst, TiledVariant::WithoutSecond];

    pub fn kernel(self) -> Kernel {
        match self {
            TiledVariant::Both => kernels::BOTH_BARRIERS,
            TiledVariant::WithoutFirst => kernels::WITHOUT_FIRST,
            TiledVariant::WithoutSecond => kernels::WITHOUT_SECOND,
        }
    }

    /// The kernel's own program, lowered from its WGSL when the site was built.
    pub fn lowered(self) -> &'static stepper::Program {
        match self {
            TiledVariant::Both => &crate::stepped::TILED,
            TiledVariant::WithoutFirst => &crate::stepped::TILED_WITHOUT_FIRST,
            TiledVariant::WithoutSecond => &crate::stepped::TILED_WITHOUT_SECOND,
        }
    }

    /// The kernel itself: the workgroup of `TILE × TILE` invocations that computes the
    /// top-left tile of the `N × N` product, the matrices drawn as grids.
    pub fn machine(self) -> Machine {
        let square = |m: Matrix| (0..N * N).map(|i| input(m, (i / N) as u32, (i % N) as u32)).collect();
        let buffers = vec![((0, 0), square(Matrix::A)), ((0, 1), square(Matrix::B)), ((0, 2), vec![0; N * N]), ((0, 3), vec![N as u32, TILE as u32])];
        let setup = kernel::one_workgroup(MODEL_THREADS, buffers);
        let show = Show { memory: &["a", "b", "tile_a", "tile_b", "c"], workgroup_words: TILE * TILE, values: &["acc", "m", "k"], ..Show::default() };
        kernel::machine_or_empty(self.lowered(), self.kernel().source(), &setup, show).with_program(|p| {
            p.grids = vec![
                MemoryGrid { name: "a", start: A, rows: N, cols: N },
                MemoryGrid { name: "b", start: B, rows: N, cols: N },
                MemoryGrid { name: "tile_a", start: TILE_A, rows: TILE, cols: TILE },
                MemoryGrid { name: "tile_b", start: TILE_B, rows: TILE, cols: TILE },
                MemoryGrid { name: "c (this workgroup fills its top-left tile)", start: C, rows: N, cols: N },
            ];
        })
    }
}

impl crate::site::settings::LessonVariant for TiledVariant {
    fn try_this(self) -> &'static str {
        match self.name() {
            "both" => words::TRY_BOTH,
            "without-first" => words::TRY_WITHOUT_FIRST,
            "without-second" => words::TRY_WITHOUT_SECOND,
            _ => "",
        }
    }

    const NAMES: &'static [&'static str] = &["both", "without-first", "without-second"];
    const DEFAULT: TiledVariant = TiledVariant::Both;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS..=MODEL_THREADS;
    const DEFAULT_THREADS: usize = MODEL_THREADS;
    /// The GPU panel offers matrix and tile widths of its own rather than invocations.
    const GPU_SIZES: bool = false;

    fn name(self) -> &'static str {
        match self {
            TiledVariant::Both => "both",
            TiledVariant::WithoutFirst => "without-first",
            TiledVariant::WithoutSecond => "without-second",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }

    fn machine(self, _threads: usize) -> Machine {
        TiledVariant::machine(self)
    }
}

pub type TiledSettings = crate::site::settings::LessonSettings<TiledVariant>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matrix {
    A,
    B,
}

/// The inputs: small whole numbers (1 to 5), so every product is exact and a wrong cell is
/// wrong by a whole number, never by rounding.
pub fn input(matrix: Matrix, row: u32, col: u32) -> u32 {
    match matrix {
        Matrix::A => (row * 3 + col) % 5 + 1,
        Matrix::B => (row + col * 2) % 4 + 1,
    }
}

/// One input matrix of width `n`, row by row.
pub fn matrix(matrix: Matrix, n: u32) -> Vec<u32> {
    (0..n * n).map(|i| input(matrix, i / n, i % n)).collect()
}

/// `A × B` computed on the CPU: the answer every cell the GPU writes is held to. Row by row,
/// adding a multiple of each row of `b` in turn, so the inner loop walks memory in order
/// (n³ steps: compute it once per size, not once per run).
pub fn product(n: u32) -> Vec<u32> {
    let (a, b) = (matrix(Matrix::A, n), matrix(Matrix::B, n));
    let n = n as usize;
    let mut c = vec![0u32; n * n];
    for (row, out) in c.chunks_exact_mut(n).enumerate() {
        for k in 0..n {
            let x = a[row * n + k];
            for (cell, &y) in out.iter_mut().zip(&b[k * n..(k + 1) * n]) {
                *cell += x * y;
            }
        }
    }
    c
}

/// The sizes of a GPU run: matrices of `n × n`, workgroups of `tile × tile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TiledSize {
    pub n: u32,
    pub tile: u32,
}

impl TiledSize {
    pub const DEFAULT: TiledSize = TiledSize { n: N as u32, tile: TILE as u32 };
    /// What the page offers. The kernel's tiles hold at most 16 × 16 cells.
    pub const TILES: [u32; 4] = [2, 4, 8, 16];
    /// Up to 512: a megabyte a matrix, and a CPU product (n³ steps) the page checks in moments.
    pub const WIDTHS: [u32; 7] = [8, 16, 32, 64, 128, 256, 512];

    pub fn workgroups(self) -> u32 {
        (self.n / self.tile).pow(2)
    }

    pub fn lanes(self) -> u32 {
        self.tile * self.tile
    }

    /// The size if the kernel can run it on a GPU with `limits`, else why not.
    pub fn check(self, limits: &ComputeLimits) -> Result<TiledSize, String> {
        let TiledSize { n, tile } = self;
        if !Self::WIDTHS.contains(&n) {
            return Err(format!("matrix width {n}: the page offers {:?}", Self::WIDTHS));
        }
        if !Self::TILES.contains(&tile) {
            return Err(format!("tile width {tile}: the kernel takes 2, 4, 8 or 16"));
        }
        if n < tile {
            return Err(format!("matrix width {n} is narrower than one {tile}-wide tile"));
        }
        if self.lanes() > limits.max_invocations_per_workgroup || self.lanes() > limits.max_workgroup_size_x {
            return Err(format!(
                "a {tile} × {tile} tile needs {} invocations per workgroup; this GPU allows {}",
                self.lanes(),
                limits.max_invocations_per_workgroup.min(limits.max_workgroup_size_x)
            ));
        }
        if self.workgroups() > limits.max_workgroups_per_dimension {
            return Err(format!("{} workgroups in one dispatch; this GPU allows {}", self.workgroups(), limits.max_workgroups_per_dimension));
        }
        Ok(self)
    }
}

/// The cells of `c` (a product read back) that differ from `want` (from [`product`]); a cell
/// missing from `c` counts as wrong.
pub fn wrong_cells(want: &[u32], c: &[u32]) -> Vec<usize> {
    (0..want.len()).filter(|&i| c.get(i) != Some(&want[i])).collect()
}

/// What the model's tile of `c` should hold: the top-left `TILE × TILE` of the product.
pub fn model_tile_expected() -> Vec<i64> {
    let full = product(N as u32);
    (0..TILE * TILE).map(|i| i64::from(full[(i / TILE) * N + i % TILE])).collect()
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(crate::model::Program, Kernel)> {
    TiledVariant::ALL.into_iter().map(|v| (v.machine().program().as_ref().clone(), v.kernel())).collect()
}
