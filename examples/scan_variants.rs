//! Times single-pass scan kernels of your own beside the lesson's copy, on the lesson's
//! buffers: how the figures log's variant lines were made. Each `.wgsl` file in the folder is a
//! changed `shaders/scan/scan_single_pass.wgsl` with the same bindings; a first line
//! `// probe: tile=16384 workgroup=256` gives its tile (values) and workgroup size, else 8,192
//! and 256. `loops=unbounded` compiles that file without the counter wgpu adds to every loop
//! (`ShaderRuntimeChecks::force_loop_bounding`), every other check kept: what the counter costs.
//!
//! ```sh
//! cargo run --release --example scan_variants -- <folder> [log2 sizes, default 24 25 26 27]
//! ```
//!
//! Per size: every kernel and the copy once untimed, then 5 rounds timing each once (each
//! round starting one further on), 20 scans a timed pass; then each kernel once more with its
//! output read back and checked. A line per kernel: its median GB/s (8 bytes a value), the
//! share of the copy's median, each round's figure, the sums it got wrong, its counters.

use syncscope::gpu::GpuContext;
use syncscope::lessons::scan::single_pass::{SinglePassBuffers, Timed, TILE};

const REPEATS: u32 = 20;
const ROUNDS: usize = 5;

struct Variant {
    name: String,
    tile: u32,
    pipeline: wgpu::ComputePipeline,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(folder) = args.first() else {
        eprintln!("usage: cargo run --release --example scan_variants -- <folder of .wgsl> [log2 sizes]");
        std::process::exit(2);
    };
    let sizes: Vec<u32> = if args.len() > 1 {
        args[1..].iter().map(|a| 1u32 << a.parse::<u32>().expect("a log2 size")).collect()
    } else {
        vec![1 << 24, 1 << 25, 1 << 26, 1 << 27]
    };
    let ctx: GpuContext = syncscope::data::report::gpu_or_exit();
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .expect("the folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "wgsl"))
        .collect();
    files.sort();
    let variants: Vec<Variant> = files
        .iter()
        .map(|path| {
            let source = std::fs::read_to_string(path).expect("a kernel");
            let setting = |key: &str, default: u32| {
                source
                    .lines()
                    .next()
                    .and_then(|l| l.strip_prefix("// probe:"))
                    .and_then(|l| l.split_whitespace().find_map(|kv| kv.strip_prefix(key)?.strip_prefix('=')?.parse().ok()))
                    .unwrap_or(default)
            };
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let (tile, width) = (setting("tile", TILE), setting("workgroup", 256));
            let file: &'static str = Box::leak(name.clone().into_boxed_str());
            let unbounded = source.lines().next().is_some_and(|l| l.starts_with("// probe:") && l.contains("loops=unbounded"));
            let pipeline = if unbounded {
                without_loop_bounds(&ctx, file, &source, width)
            } else {
                pollster::block_on(ctx.compile(file, &source, width)).unwrap_or_else(|e| panic!("{name}: {e}"))
            };
            Variant { name, tile, pipeline }
        })
        .collect();
    for n in sizes {
        let buffers = SinglePassBuffers::new(&ctx, n, REPEATS).expect("buffers");
        let gb = |ns: Option<f64>| ns.map_or(0.0, |ns| 8.0 * f64::from(n) / ns);
        let copy = || gb(pollster::block_on(buffers.time(&ctx, Timed::Copy)).expect("copy").gpu_ns);
        let time = |v: &Variant| pollster::block_on(buffers.time_kernel(&ctx, &v.pipeline, v.tile, false)).expect("kernel").0;
        copy();
        for v in &variants {
            time(v);
        }
        let ways = variants.len() + 1;
        let mut figures: Vec<Vec<f64>> = vec![Vec::new(); ways];
        let mut counters: Vec<Vec<u32>> = vec![vec![0; 11]; ways];
        for round in 0..ROUNDS {
            for k in 0..ways {
                let at = (round + k) % ways;
                if at == 0 {
                    figures[0].push(copy());
                } else {
                    let t = time(&variants[at - 1]);
                    figures[at].push(gb(t.gpu_ns));
                    let c = &mut counters[at];
                    c[0] += t.tickets;
                    c[1] += t.fallbacks;
                    c[2] += t.give_ups;
                    for (bin, d) in c[3..].iter_mut().zip(t.depth) {
                        *bin += d;
                    }
                }
            }
        }
        let median = |v: &[f64]| {
            let mut v = v.to_vec();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let copy_gb = median(&figures[0]);
        println!("{n} copy: {copy_gb:.0} GB/s rounds {:?}", figures[0].iter().map(|g| g.round() as u32).collect::<Vec<_>>());
        for (k, v) in variants.iter().enumerate() {
            let wrong = pollster::block_on(buffers.time_kernel(&ctx, &v.pipeline, v.tile, true)).expect("checked").1.unwrap_or(u32::MAX);
            let g = median(&figures[k + 1]);
            println!(
                "{n} {} tile={}: {g:.0} GB/s ({:.1} % of copy {copy_gb:.0}) rounds {:?} wrong {wrong} stats {:?}",
                v.name,
                v.tile,
                100.0 * g / copy_gb,
                figures[k + 1].iter().map(|g| g.round() as u32).collect::<Vec<_>>(),
                counters[k + 1]
            );
        }
    }
}

/// The kernel compiled as `GpuContext::compile` does, but without wgpu's loop counters.
fn without_loop_bounds(ctx: &GpuContext, file: &'static str, source: &str, width: u32) -> wgpu::ComputePipeline {
    let mut checks = wgpu::ShaderRuntimeChecks::checked();
    checks.force_loop_bounding = false;
    let source = syncscope::gpu::native_wgsl(source);
    // SAFETY: every loop in the kernels timed here ends by its own count (`max_polls`, the tile's
    // length); only the counter wgpu adds is left out, every bounds check stays.
    let module = unsafe {
        ctx.device.create_shader_module_trusted(wgpu::ShaderModuleDescriptor { label: Some(file), source: wgpu::ShaderSource::Wgsl(source) }, checks)
    };
    let constants = [("workgroup_size", f64::from(width))];
    ctx.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(file),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() },
        cache: None,
    })
}
