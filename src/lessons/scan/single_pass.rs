//! The single-pass scan on the GPU (`shaders/scan/scan_single_pass.wgsl`): one dispatch,
//! tiles of 8,192 values, each tile's sum posted in one atomic word per half with its state, a
//! look-back over a subgroup's width of tiles at a time, and, where a tile stays silent, the
//! fallback that sums it from the input. Three ways: tiles by workgroup id with the fallback,
//! tiles by ticket with the fallback, and tiles by ticket without it. Beside them a `vec4` copy
//! of the same bytes: the speed a scan, which must read and write every value once, is held to.
//!
//! Runs repeat inside one timed pass; each repeat has its own tickets and flags (a slice of one
//! buffer each), so none starts on another's posts.

use crate::gpu::buffers::{clearable_storage_buffer, storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::{bind_whole, run_stride, submit_and_read};
use crate::gpu::readback::u32s;
use crate::gpu::PassTimer;
use crate::gpu::{GpuContext, GpuError, Kernel};
use crate::lessons::scan::{gpu_value, kernels};

/// The workgroup both kernels are compiled with.
pub const WIDTH: u32 = 256;
/// `vec4`s each invocation loads (in both kernels): a tile is `WIDTH × 8 × 4` values.
pub const VECS_PER_INVOCATION: u32 = 8;
pub const TILE: u32 = WIDTH * VECS_PER_INVOCATION * 4;
/// The fewest values the page's single pass scans: 16 tiles, so that tiles look back (a page's
/// own size of 4,096 values would be one tile, and every look-back count 0).
pub const PAGE_VALUES: u32 = 16 * TILE;
/// The smallest tile a kernel timed by `SinglePassBuffers::time_kernel` may take: at 2^27
/// values, 32,768 workgroups, within one dispatch's 65,535.
pub const SMALLEST_PROBED_TILE: u32 = 4096;
/// The look-back's depth, in windows read: `[0]` is tile 0 (none), `[7]` seven or more.
pub const DEPTH_BINS: usize = 8;
/// Looks at the same silent tile before the fallback sums it (or the way without one gives up).
pub const POLLS_BEFORE_FALLBACK: u32 = 64;
/// The way without the fallback waits far longer, but not forever: a tile whose workgroup never
/// runs would hang the whole dispatch. Bounded in time too, not only in count: each look is one
/// read of two words of memory, so 16,384 of them take milliseconds, where a browser calls a
/// device lost after a dispatch has run for seconds. (2^20, as it was, could come near that.)
pub const POLLS_BEFORE_GIVING_UP: u32 = 1 << 14;

/// Which tile a workgroup scans, and whether a silent tile is summed from the input or waited for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LookBack {
    /// The workgroup id names the tile; the fallback sums any tile whose workgroup has not
    /// started, so nothing needs the order a ticket gives.
    WithFallback,
    /// A ticket from an atomic counter names the tile, and the fallback is there too: the cost
    /// of the ticket's round trip, measured.
    TicketsWithFallback,
    /// A ticket names the tile, so a tile only waits on tiles that started; no fallback, and a
    /// wait that gives up after `POLLS_BEFORE_GIVING_UP` looks.
    WithoutFallback,
}

impl LookBack {
    pub const ALL: [LookBack; 3] = [LookBack::WithFallback, LookBack::TicketsWithFallback, LookBack::WithoutFallback];

    pub fn name(self) -> &'static str {
        match self {
            LookBack::WithFallback => "single-pass",
            LookBack::TicketsWithFallback => "single-pass-tickets",
            LookBack::WithoutFallback => "single-pass-no-fallback",
        }
    }

    /// Looks at one silent tile before the fallback sums it, or the way without one gives up.
    pub fn max_polls(self) -> u32 {
        match self {
            LookBack::WithFallback | LookBack::TicketsWithFallback => POLLS_BEFORE_FALLBACK,
            LookBack::WithoutFallback => POLLS_BEFORE_GIVING_UP,
        }
    }

    pub fn falls_back(self) -> bool {
        self != LookBack::WithoutFallback
    }

    pub fn takes_tickets(self) -> bool {
        self != LookBack::WithFallback
    }

    /// The kernel, workgroup size and override this way is compiled with: the `tickets`
    /// override set where tiles go by ticket.
    pub fn pipeline_key(self) -> (Kernel, u32, Option<&'static str>) {
        (kernels::SINGLE_PASS, WIDTH, self.takes_tickets().then_some("tickets"))
    }

    /// The kernel compiled for this way.
    pub async fn pipeline(self, ctx: &GpuContext) -> Result<wgpu::ComputePipeline, GpuError> {
        let (kernel, width, flag) = self.pipeline_key();
        ctx.pipeline_with(kernel, width, flag).await
    }
}

/// What the single-pass scan did: its sums against the CPU's, its time, and its counters.
#[derive(Clone, Debug, PartialEq)]
pub struct SinglePassRun {
    pub way: LookBack,
    pub values: u32,
    pub tiles: u32,
    /// Sums of the last repeat that differ from the CPU's (every repeat writes the same output).
    pub wrong: u32,
    /// The last prefix sum: the total.
    pub total: u32,
    pub repeats: u32,
    /// Nanoseconds per scan, where the adapter has timestamp queries.
    pub gpu_ns: Option<f64>,
    /// Over every repeat: silent tiles summed from the input, look-backs given up, and each
    /// tile's look-back depth.
    pub fallbacks: u32,
    pub give_ups: u32,
    pub depth: [u32; DEPTH_BINS],
}

/// Words of the kernel's `Stats`: the ticket counter, fallbacks, give-ups, the depth histogram.
const STATS_WORDS: usize = 3 + DEPTH_BINS;

/// The values padded with zeros to whole `vec4`s, as bytes; refused where the adapter cannot
/// bind that many.
fn vec4_bytes(ctx: &GpuContext, n: u32) -> Result<u64, GpuError> {
    let bytes = 16 * u64::from(n.div_ceil(4));
    let limit = ctx.adapter.limits.max_storage_buffer_binding_size;
    if n == 0 || bytes > limit {
        return Err(GpuError::BadParams(format!("a scan of {n} values needs a {bytes}-byte buffer; this GPU binds 16 to {limit} bytes")));
    }
    Ok(bytes)
}

/// Tiles of `n` values, refused where one dispatch cannot hold that many workgroups.
fn tiles_of(ctx: &GpuContext, n: u32) -> Result<u32, GpuError> {
    let tiles = n.div_ceil(TILE);
    let most = ctx.adapter.limits.max_workgroups_per_dimension;
    if tiles > most {
        return Err(GpuError::BadParams(format!("{n} values make {tiles} tiles of {TILE}; one dispatch holds at most {most} workgroups")));
    }
    Ok(tiles)
}

/// Why this adapter cannot run the single-pass scan, if it cannot: the kernel scans each tile
/// with subgroup operations.
pub fn single_pass_problem(ctx: &GpuContext) -> Option<String> {
    ctx.adapter.subgroups.is_none().then(|| {
        format!(
            "{} gives this page no subgroups, which the single-pass scan's kernel scans its tiles with (Chromium and Edge 134 or later have them; Firefox does not yet)",
            ctx.adapter.name
        )
    })
}

/// `n` values scanned `repeats` times in one timed pass, each repeat a single dispatch.
pub async fn run_single_pass(ctx: &GpuContext, n: u32, repeats: u32, way: LookBack) -> Result<SinglePassRun, GpuError> {
    run_single_pass_polling(ctx, n, repeats, way, way.max_polls()).await
}

/// The same, with the look-back's patience set: after `max_polls` looks at one silent tile the
/// fallback sums it (or the way without one gives up). With 0 no tile is looked at and the
/// fallback sums every tile before each one: the tests' way to run the fallback on a GPU that
/// never leaves a tile silent.
pub async fn run_single_pass_polling(ctx: &GpuContext, n: u32, repeats: u32, way: LookBack, max_polls: u32) -> Result<SinglePassRun, GpuError> {
    SinglePassBuffers::new(ctx, n, repeats)?.check(ctx, way, max_polls).await
}

/// A pass's time and counters, without its output.
#[derive(Clone, Debug, PartialEq)]
pub struct SinglePassTiming {
    /// Nanoseconds per scan, where the adapter has timestamp queries.
    pub gpu_ns: Option<f64>,
    /// Over every repeat: tickets handed out (one a workgroup where tiles go by ticket, so the
    /// tiles when every repeat began from a cleared counter; none by workgroup id), silent tiles
    /// summed, look-backs given up, their depths.
    pub tickets: u32,
    pub fallbacks: u32,
    pub give_ups: u32,
    pub depth: [u32; DEPTH_BINS],
}

/// One size's buffers, made once: the input uploaded, the flags and counters of every repeat
/// (a slice of one buffer each, so none starts on another's posts) cleared before each pass.
///
/// Passes over them that read back only their timestamps and counters are how the report
/// times the scan: on an H100, a few seconds of large uploads and readbacks between passes left
/// every kernel after them up to 45 % slower (the copy went from 2.9 TB/s to 1.55), whatever
/// buffers it ran on.
pub struct SinglePassBuffers {
    values: Vec<u32>,
    bytes: u64,
    tiles: u32,
    repeats: u32,
    input: wgpu::Buffer,
    output: wgpu::Buffer,
    flags: wgpu::Buffer,
    stats: wgpu::Buffer,
    /// The fair three-pass scan's tile sums, then each tile's exclusive prefix, as whole vec4s.
    tile_sums: wgpu::Buffer,
    flag_stride: u64,
    stats_stride: u64,
}

impl SinglePassBuffers {
    /// Refused with a reason where the adapter has no subgroups or cannot bind `n` values.
    pub fn new(ctx: &GpuContext, n: u32, repeats: u32) -> Result<SinglePassBuffers, GpuError> {
        if let Some(why) = single_pass_problem(ctx) {
            return Err(GpuError::BadParams(why));
        }
        let bytes = vec4_bytes(ctx, n)?;
        let tiles = tiles_of(ctx, n)?;
        let repeats = repeats.max(1);
        ctx.check_alive()?;
        let device = &ctx.device;
        let values: Vec<u32> = (0..n).map(gpu_value).collect();
        let mut padded: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        padded.resize(bytes as usize, 0);
        // Room for the flags of tiles as small as a kernel of the caller's own may take.
        let flag_tiles = n.div_ceil(SMALLEST_PROBED_TILE).max(tiles);
        let (flag_stride, stats_stride) = (run_stride(ctx, 8 * u64::from(flag_tiles)), run_stride(ctx, 4 * STATS_WORDS as u64));
        Ok(SinglePassBuffers {
            values,
            bytes,
            tiles,
            repeats,
            input: storage_buffer_with(device, "input", &padded),
            output: storage_buffer(device, "scan", bytes),
            flags: clearable_storage_buffer(device, "tile flags", flag_stride * u64::from(repeats)),
            stats: clearable_storage_buffer(device, "look-back counters", stats_stride * u64::from(repeats)),
            tile_sums: storage_buffer(device, "tile sums", 16 * u64::from(tiles.div_ceil(4))),
            flag_stride,
            stats_stride,
        })
    }

    /// One timed pass of every repeat, its output read back and checked against the CPU's scan.
    pub async fn check(&self, ctx: &GpuContext, way: LookBack, max_polls: u32) -> Result<SinglePassRun, GpuError> {
        let pipeline = way.pipeline(ctx).await?;
        let (timing, output) = self.pass(ctx, Work::SinglePass { pipeline: &pipeline, fallback: way.falls_back(), max_polls, tiles: self.tiles }, true).await?;
        let got = u32s(output.as_deref().unwrap_or_default());
        let wrong = self.wrong(&got);
        let SinglePassTiming { gpu_ns, fallbacks, give_ups, depth, .. } = timing;
        Ok(SinglePassRun {
            way,
            values: self.values.len() as u32,
            tiles: self.tiles,
            wrong,
            total: got.get(self.values.len() - 1).copied().unwrap_or(0),
            repeats: self.repeats,
            gpu_ns,
            fallbacks,
            give_ups,
            depth,
        })
    }

    /// One timed pass of every repeat of the fair three-pass scan, its output read back and
    /// checked: how many sums differ from the CPU's, and nanoseconds per scan.
    pub async fn check_three_pass(&self, ctx: &GpuContext) -> Result<ThreePassRun, GpuError> {
        let pipelines = three_pass_pipelines(ctx).await?;
        let (timing, output) = self.pass(ctx, Work::ThreePass(&pipelines), true).await?;
        Ok(ThreePassRun { wrong: self.wrong(&u32s(output.as_deref().unwrap_or_default())), gpu_ns: timing.gpu_ns, tiles: self.tiles })
    }

    /// Sums in `got` that differ from the CPU's running sum, missing ones counted: compared as
    /// the sum runs, with no second array of 2^27 sums made for every check.
    fn wrong(&self, got: &[u32]) -> u32 {
        let mut sum = 0u32;
        let mut wrong = 0;
        for (i, &v) in self.values.iter().enumerate() {
            sum = sum.wrapping_add(v);
            wrong += u32::from(got.get(i) != Some(&sum));
        }
        wrong
    }

    /// One timed pass of every repeat of `timed`, reading back only its timestamps and counters.
    pub async fn time(&self, ctx: &GpuContext, timed: Timed) -> Result<SinglePassTiming, GpuError> {
        match timed {
            Timed::SinglePass(way) => {
                let pipeline = way.pipeline(ctx).await?;
                Ok(self.pass(ctx, Work::SinglePass { pipeline: &pipeline, fallback: way.falls_back(), max_polls: way.max_polls(), tiles: self.tiles }, false).await?.0)
            }
            Timed::ThreePass => {
                let pipelines = three_pass_pipelines(ctx).await?;
                Ok(self.pass(ctx, Work::ThreePass(&pipelines), false).await?.0)
            }
            Timed::Copy => {
                let pipeline = ctx.pipeline(kernels::COPY, WIDTH).await?;
                Ok(self.pass(ctx, Work::Copy(&pipeline), false).await?.0)
            }
        }
    }

    /// A single-pass kernel of the caller's own (the same bindings as the lesson's) timed over
    /// these buffers, with tiles of `tile` values (at least the lesson's), its output read back
    /// where `read_output`: how `examples/scan_variants.rs` times a changed kernel beside the
    /// copy. Returns the timing and the sums it got wrong.
    pub async fn time_kernel(&self, ctx: &GpuContext, pipeline: &wgpu::ComputePipeline, tile: u32, read_output: bool) -> Result<(SinglePassTiming, Option<u32>), GpuError> {
        let tiles = (self.values.len() as u32).div_ceil(tile.max(SMALLEST_PROBED_TILE));
        let work = Work::SinglePass { pipeline, fallback: true, max_polls: POLLS_BEFORE_FALLBACK, tiles };
        let (timing, output) = self.pass(ctx, work, read_output).await?;
        Ok((timing, output.map(|o| self.wrong(&u32s(&o)))))
    }

    async fn pass(&self, ctx: &GpuContext, work: Work<'_>, read_output: bool) -> Result<(SinglePassTiming, Option<Vec<u8>>), GpuError> {
        let device = &ctx.device;
        let n = self.values.len() as u32;
        let vecs = n.div_ceil(4);
        let timer = PassTimer::new(ctx);
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&self.flags, 0, None);
        encoder.clear_buffer(&self.stats, 0, None);
        let writes = timer.as_ref().map(PassTimer::writes);
        match work {
            Work::SinglePass { pipeline, fallback, max_polls, tiles } => {
                let params = uniform_words(device, &[vecs, tiles, u32::from(fallback), max_polls]);
                let (flag_bytes, stats_bytes) = (8 * u64::from(tiles), 4 * STATS_WORDS as u64);
                let layout = pipeline.get_bind_group_layout(0);
                let groups: Vec<wgpu::BindGroup> = (0..u64::from(self.repeats))
                    .map(|r| {
                        device.create_bind_group(&wgpu::BindGroupDescriptor {
                            label: Some("single-pass scan"),
                            layout: &layout,
                            entries: &[
                                wgpu::BindGroupEntry { binding: 0, resource: self.input.as_entire_binding() },
                                wgpu::BindGroupEntry { binding: 1, resource: self.output.as_entire_binding() },
                                wgpu::BindGroupEntry { binding: 2, resource: slice(&self.flags, r * self.flag_stride, flag_bytes) },
                                wgpu::BindGroupEntry { binding: 3, resource: slice(&self.stats, r * self.stats_stride, stats_bytes) },
                                wgpu::BindGroupEntry { binding: 4, resource: params.as_entire_binding() },
                            ],
                        })
                    })
                    .collect();
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("single-pass scan"), timestamp_writes: writes });
                pass.set_pipeline(pipeline);
                for group in &groups {
                    pass.set_bind_group(0, group, &[]);
                    pass.dispatch_workgroups(tiles, 1, 1);
                }
            }
            Work::ThreePass([reduce, offsets, scan]) => {
                let (tiled, of_tiles) = (uniform_words(device, &[vecs, self.tiles]), uniform_words(device, &[self.tiles]));
                let groups = [
                    bind_whole(device, reduce, "reduce tiles", &[&self.input, &self.tile_sums, &tiled]),
                    bind_whole(device, offsets, "tile offsets", &[&self.tile_sums, &of_tiles]),
                    bind_whole(device, scan, "scan tiles", &[&self.input, &self.output, &self.tile_sums, &tiled]),
                ];
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("three-pass scan"), timestamp_writes: writes });
                for _ in 0..self.repeats {
                    for (pipeline, group, count) in [(reduce, &groups[0], self.tiles), (offsets, &groups[1], 1), (scan, &groups[2], self.tiles)] {
                        pass.set_pipeline(pipeline);
                        pass.set_bind_group(0, group, &[]);
                        pass.dispatch_workgroups(count, 1, 1);
                    }
                }
            }
            Work::Copy(pipeline) => {
                // Two vec4s an invocation (the kernel's own count), in rows of at most 32,768 workgroups.
                let groups = vecs.div_ceil(WIDTH * 2);
                let (x, y) = (groups.min(32_768), groups.div_ceil(32_768));
                let group = bind_whole(device, pipeline, "copy", &[&self.input, &self.output, &uniform_words(device, &[vecs])]);
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("copy"), timestamp_writes: writes });
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, &group, &[]);
                for _ in 0..self.repeats {
                    pass.dispatch_workgroups(x, y, 1);
                }
            }
        }
        let counters_bytes = self.stats_stride * u64::from(self.repeats);
        let mut copies: Vec<(&wgpu::Buffer, u64)> = vec![(&self.stats, counters_bytes)];
        if read_output {
            copies.push((&self.output, self.bytes));
        }
        if let Some(t) = &timer {
            t.resolve(&mut encoder);
            copies.push((t.buffer(), PassTimer::BYTES));
        }
        let mut read = submit_and_read(ctx, scope, encoder, &copies).await?;
        let gpu_ns = timer.and_then(|_| read.last()).and_then(|b| PassTimer::nanoseconds(b, ctx.queue.get_timestamp_period())).map(|ns| ns / f64::from(self.repeats));
        let counters = u32s(&read[0]);
        let mut timing = SinglePassTiming { gpu_ns, tickets: 0, fallbacks: 0, give_ups: 0, depth: [0; DEPTH_BINS] };
        for r in 0..self.repeats as usize {
            let Some(words) = counters.get(r * self.stats_stride as usize / 4..).and_then(|w| w.get(..STATS_WORDS)) else { break };
            timing.tickets += words[0];
            timing.fallbacks += words[1];
            timing.give_ups += words[2];
            for (bin, count) in timing.depth.iter_mut().zip(&words[3..]) {
                *bin += count;
            }
        }
        Ok((timing, read_output.then(|| read.swap_remove(1))))
    }
}

/// What one timed pass dispatches over a size's buffers.
enum Work<'a> {
    /// `tiles`: the dispatch's workgroups (a kernel of the caller's own may take larger tiles).
    SinglePass { pipeline: &'a wgpu::ComputePipeline, fallback: bool, max_polls: u32, tiles: u32 },
    ThreePass(&'a [wgpu::ComputePipeline; 3]),
    Copy(&'a wgpu::ComputePipeline),
}

/// The fair three-pass scan's kernels: reduce the tiles, scan their sums, scan the tiles again.
async fn three_pass_pipelines(ctx: &GpuContext) -> Result<[wgpu::ComputePipeline; 3], GpuError> {
    Ok([ctx.pipeline(kernels::REDUCE_TILES, WIDTH).await?, ctx.pipeline(kernels::TILE_OFFSETS, WIDTH).await?, ctx.pipeline(kernels::TILES_OFFSET, WIDTH).await?])
}

/// What the fair three-pass scan did: its sums against the CPU's, and its time.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreePassRun {
    pub wrong: u32,
    pub gpu_ns: Option<f64>,
    pub tiles: u32,
}

/// A way timed over one size's buffers: the single pass's three ways, the fair three-pass scan
/// (reduce, scan the tiles' sums, scan again) and the `vec4` copy they are held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Timed {
    Copy,
    SinglePass(LookBack),
    ThreePass,
}

impl Timed {
    /// Every way, in the order a round starts from (each round starts one further on).
    pub const ALL: [Timed; 5] = [Timed::Copy, Timed::SinglePass(LookBack::WithFallback), Timed::SinglePass(LookBack::TicketsWithFallback), Timed::SinglePass(LookBack::WithoutFallback), Timed::ThreePass];

    pub fn name(self) -> &'static str {
        match self {
            Timed::Copy => "copy",
            Timed::SinglePass(way) => way.name(),
            Timed::ThreePass => "reduce-then-scan",
        }
    }
}

/// `size` bytes of `buffer` from `offset`, as a binding.
fn slice(buffer: &wgpu::Buffer, offset: u64, size: u64) -> wgpu::BindingResource<'_> {
    wgpu::BindingResource::Buffer(wgpu::BufferBinding { buffer, offset, size: wgpu::BufferSize::new(size) })
}

/// The page's run of the single pass: the three ways over the same values, the fair three-pass
/// scan, and the copy beside them, all on the same buffers.
#[derive(Clone, Debug, PartialEq)]
pub struct SinglePass {
    pub with: SinglePassRun,
    pub tickets: SinglePassRun,
    pub without: SinglePassRun,
    pub three_pass: ThreePassRun,
    /// Nanoseconds per copy, where the adapter has timestamp queries.
    pub copy_ns: Option<f64>,
}

impl SinglePass {
    /// Whether every promise held: both ways with the fallback exact, and the way without it
    /// exact wherever no look-back gave up.
    pub fn promise_held(&self) -> bool {
        [&self.with, &self.tickets].iter().all(|r| r.wrong == 0 && r.give_ups == 0)
            && (self.without.give_ups > 0 || self.without.wrong == 0)
            && self.three_pass.wrong == 0
    }
}

/// The three ways, the three-pass scan and the copy over `n` values, `repeats` times each in
/// one timed pass, on one set of buffers: the copy first, which touches both large buffers
/// before the ways that are set against it, and timed again last, and the faster of its two
/// taken (what a warm copy does).
pub async fn run_all(ctx: &GpuContext, n: u32, repeats: u32) -> Result<SinglePass, GpuError> {
    let buffers = SinglePassBuffers::new(ctx, n, repeats)?;
    let first_copy = buffers.time(ctx, Timed::Copy).await?.gpu_ns;
    let with = buffers.check(ctx, LookBack::WithFallback, LookBack::WithFallback.max_polls()).await?;
    let tickets = buffers.check(ctx, LookBack::TicketsWithFallback, LookBack::TicketsWithFallback.max_polls()).await?;
    let without = buffers.check(ctx, LookBack::WithoutFallback, LookBack::WithoutFallback.max_polls()).await?;
    let three_pass = buffers.check_three_pass(ctx).await?;
    let last_copy = buffers.time(ctx, Timed::Copy).await?.gpu_ns;
    let copy_ns = match (first_copy, last_copy) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    Ok(SinglePass { with, tickets, without, three_pass, copy_ns })
}
