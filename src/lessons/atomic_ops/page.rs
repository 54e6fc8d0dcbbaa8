//! The atomic family page: the reader picks an op, a type, the cell's starting value and each
//! invocation's operand; the model and the real kernel both apply it from every invocation.

use crate::text::Float;
use crate::gpu::AdapterSummary;
use crate::lessons::atomic_ops::gpu::run_atomic_ops;
use crate::lessons::atomic_ops::{explain, parse_operands, parse_value, show, tally, AtomicOp, AtomicRun, AtomicSetup, Placement, CELL};
use crate::model::{IntType, Machine};
use crate::ui::download::DownloadJson;
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, RunForm};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::model_panel::ModelState;
use crate::ui::table::TextTable;
use leptos::prelude::*;
use super::words;

#[component]
pub fn AtomicOpsLesson() -> impl IntoView {
    let (model, _, problems) = open_lesson::<AtomicSetup>("atomic-ops");
    view! {
        <LessonPage id="atomic-ops" title="The whole family of atomics" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <SetupForm model=model /> }
            start="Start: every thread is about to apply the same atomic to the cell, each with its own operand."
            outcome=model_outcome
            kernel=Signal::derive(AtomicSetup::kernel) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, model) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|model: ModelState<AtomicSetup>| view! { <GpuAtomicOps model=model /> <MeasuredElsewhere /> <GpuWrap /> })
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    // The kernel has a cell of each type; a model of an i32 setup writes its values signed.
    let signed = m.program().lowered.as_ref().is_some_and(|l| !l.signed.is_empty());
    let cell = if signed { CELL + 1 } else { CELL };
    let held = m.memory.get(cell).map_or_else(String::new, |&v| m.program().cell_text(cell, v));
    format!("Finished: the cell holds {held}. Each thread's olds[t] is what its atomic returned: the cell just before its turn.")
}

/// CUDA's atomics return the old value the same way; compare-exchange is atomicCAS.
const CUDA: &str = "__global__ void apply(unsigned *cell, const unsigned *operands, unsigned *olds,\n                      unsigned *swapped, unsigned expected, int op) {\n    unsigned i = threadIdx.x, v = operands[i];\n    switch (op) {\n        case 2: olds[i] = atomicAdd(cell, v); break;\n        case 3: olds[i] = atomicSub(cell, v); break;\n        case 4: olds[i] = atomicMax(cell, v); break;   // int overloads compare signed\n        case 6: olds[i] = atomicAnd(cell, v); break;\n        case 9: olds[i] = atomicExch(cell, v); break;\n        case 10: {\n            unsigned old = atomicCAS(cell, expected, v);  // never fails spuriously\n            olds[i] = old;\n            swapped[i] = old == expected;\n        }\n    }\n}";

/// The op, type, values and operands, applied to the model as soon as they are valid.
#[component]
fn SetupForm(model: ModelState<AtomicSetup>) -> impl IntoView {
    let ModelState { variant, threads, .. } = model;
    let problem = RwSignal::new(None::<String>);
    let apply = move |change: Result<(AtomicSetup, Option<usize>), String>| match change {
        Ok((setup, n)) => {
            problem.set(None);
            variant.set(setup);
            if let Some(n) = n {
                threads.set(n);
            }
            model.rebuild();
        }
        Err(e) => problem.set(Some(e)),
    };
    let setup = move || variant.get_untracked();
    let value_field = move |key: &'static str, read: fn(&AtomicSetup) -> i64, write: fn(&mut AtomicSetup, i64)| {
        view! {
            <input type="text" inputmode="numeric" size="11" data-testid=format!("atomic-{key}")
                prop:value=move || read(&variant.get()).to_string()
                on:change=move |e| {
                    let mut s = setup();
                    apply(parse_value(key, &event_target_value(&e), s.ty).map(|v| {
                        write(&mut s, v);
                        (s, None)
                    }));
                } />
        }
    };
    view! {
        <div class="atomic-setup model-controls">
            <label>"Op "
                <select data-testid="atomic-op" on:change=move |e| {
                    let name = event_target_value(&e);
                    if let Some(i) = AtomicOp::NAMES.iter().position(|n| *n == name) {
                        apply(Ok((AtomicSetup { op: AtomicOp::ALL[i], ..setup() }, None)));
                    }
                }>
                    {AtomicOp::ALL.iter().map(|&op| view! {
                        <option value=op.name() selected=move || variant.get().op == op>{op.function()}</option>
                    }).collect_view()}
                </select>
            </label>
            <label>"Type "
                <select data-testid="atomic-type" on:change=move |e| {
                    let ty = if event_target_value(&e) == "i32" { IntType::I32 } else { IntType::U32 };
                    apply(Ok((setup().with_type(ty), None)));
                }>
                    {[IntType::U32, IntType::I32].map(|ty| view! {
                        <option value=ty.name() selected=move || variant.get().ty == ty>{ty.name()}</option>
                    }).collect_view()}
                </select>
            </label>
            <label>"Initial value " {value_field("initial", |s| s.initial, |s, v| s.initial = v)}</label>
            <Show when=move || variant.get().op == AtomicOp::CompareExchangeWeak>
                <label>"Expected " {value_field("compare", |s| s.compare, |s, v| s.compare = v)}</label>
            </Show>
            <label>"Operands, one per thread "
                <input type="text" size="24" data-testid="atomic-operands"
                    prop:value=move || variant.with(|s| s.operands[..threads.get()].iter().map(i64::to_string).collect::<Vec<_>>().join(","))
                    on:change=move |e| {
                        let mut s = setup();
                        apply(parse_operands(&event_target_value(&e), s.ty).map(|o| {
                            s.operands[..o.len()].copy_from_slice(&o);
                            (s, Some(o.len()))
                        }));
                    } />
            </label>
        </div>
        {move || problem.get().map(|p| view! { <p class="notice warn" role="alert" data-testid="atomic-setup-error">{p}</p> })}
    }
}

#[derive(Clone)]
struct OpsResult {
    adapter: AdapterSummary,
    setup: AtomicSetup,
    placement: Placement,
    runs: Vec<AtomicRun>,
    wall_ms: f64,
}

#[component]
fn GpuAtomicOps(model: ModelState<AtomicSetup>) -> impl IntoView {
    let job = GpuJob::<OpsResult>::new();
    let spread = RwSignal::new(false);
    crate::ui::gpu::warm(move || {
        let placement = if spread.get() { Placement::WorkgroupEach } else { Placement::OneWorkgroup };
        vec![(AtomicSetup::kernel(), placement.sizes(model.threads.get() as u32).0)]
    });
    let launch = move |times: usize| {
        let (setup, threads) = (model.variant.get_untracked(), model.threads.get_untracked());
        let placement = if spread.get_untracked() { Placement::WorkgroupEach } else { Placement::OneWorkgroup };
        job.start_fixed(move |ctx| async move {
            let t0 = now_ms();
            let runs = run_atomic_ops(&ctx, setup, threads, placement, times as u32).await?;
            Ok(OpsResult { adapter: ctx.adapter.clone(), setup, placement, runs, wall_ms: now_ms() - t0 })
        })
    };
    view! {
        <p class="muted">"The kernel runs the model's setup: one invocation per operand. In one workgroup they are lanes \
            of one group and often go in lane order; one workgroup each lets them run on different cores."</p>
        <label class="check"><input type="checkbox" data-testid="atomic-spread" prop:checked=spread
            on:change=move |e| spread.set(event_target_checked(&e)) />" One workgroup per invocation"</label>
        <RunForm job=job on_run=Callback::new(move |()| launch(1)) on_run_100=Callback::new(move |()| launch(100)) />
        {move || job.result.get().map(|r| view! { <OpsReport result=r /> })}
    }
}

#[component]
fn OpsReport(result: OpsResult) -> impl IntoView {
    let OpsResult { adapter, setup, placement, runs, wall_ms } = result;
    let Some(last) = runs.last().cloned() else { return ().into_any() };
    let t = tally(setup, &runs);
    let e = explain(setup, &last);
    let ty = setup.ty;
    let ok = t.unexplained == 0;
    let verdict = match (&e.order, runs.len()) {
        (Some(order), 1) => format!(
            "Explained: one at a time in the order {} gives exactly these values.",
            order.iter().map(|i| format!("t{i}")).collect::<Vec<_>>().join(" → ")
        ),
        _ if ok => format!("All {} runs are explained by some one-at-a-time order.", runs.len()),
        _ => format!("{} of {} runs match no one-at-a-time order: this GPU broke the atomics' promise.", t.unexplained, runs.len()),
    };
    let finals = t.finals.iter().map(|(v, n)| format!("{} ×{n}", show(setup, *v))).collect::<Vec<_>>().join(", ");
    let cas = setup.op == AtomicOp::CompareExchangeWeak;
    let export = {
        let (adapter, runs) = (adapter.clone(), runs.clone());
        move || {
            let json = crate::lessons::atomic_ops::export::runs(&adapter, setup, placement, &runs, wall_ms);
            (format!("syncscope-atomic-{}-{}.json", setup.op.name(), ty.name()), json.to_pretty())
        }
    };
    let rows = last
        .olds
        .iter()
        .enumerate()
        .map(|(i, &old)| {
            let returned = if setup.op.returns_old() { show(setup, ty.from_bits(old)) } else { "—".into() };
            let operand = if setup.op.takes_operand() { show(setup, setup.operands[i]) } else { "—".into() };
            let turn = e.order.as_ref().and_then(|o| o.iter().position(|&j| j == i)).map_or("—".into(), |p| (p + 1).to_string());
            let mut row = vec![format!("t{i}"), operand, returned];
            if cas {
                row.push(if last.exchanged[i] != 0 { "yes" } else { "no" }.to_owned());
            }
            row.push(turn);
            row
        })
        .collect();
    let mut headers: Vec<String> = ["invocation", "operand", "returned"].map(String::from).to_vec();
    if cas {
        headers.push("exchanged".into());
    }
    headers.push("turn in that order".into());
    let caption = if runs.len() > 1 { "The last run, invocation by invocation" } else { "Invocation by invocation" };
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Op", format!("{} on {}", setup.op.function(), ty.name())),
                figure("Invocations", match placement {
                    Placement::OneWorkgroup => format!("{} in one workgroup", last.olds.len()),
                    Placement::WorkgroupEach => format!("{} in a workgroup each", last.olds.len()),
                }),
                figure("Initial value", show(setup, setup.initial)),
                figure("Final value (GPU)", show(setup, e.final_value)).id("gpu-final").raw(e.final_value.to_string()),
                figure("Runs", runs.len().to_string()).id("gpu-runs"),
                figure("Final values seen", finals).id("gpu-finals"),
                figure("Different sets of returned values", t.distinct_returns.to_string()).id("gpu-patterns"),
                figure("Spurious compare-exchange failures", t.spurious.to_string()).id("gpu-spurious"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock, all runs in one submission", wall_ms = Float(wall_ms))).timed_on(&adapter),
                figure("Runs per second", format!("{:.0}", Float(runs.len() as f64 / (wall_ms / 1000.0).max(1e-6)))).id("gpu-runs-per-second").timed_on(&adapter),
            ] />
            <p class=if ok { "verdict ok" } else { "verdict bad" } data-testid="gpu-verdict" data-ok=ok.to_string()>{verdict}</p>
            <TextTable headers=headers rows=rows caption=caption.to_owned() />
            <p class="muted">{format!("Adapter: {}.", crate::ui::figures::timed_adapter(&adapter))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
    .into_any()
}

/// The same kernel on a data-centre GPU, from `data/h100-atomic-ops.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::atomic_ops::measured::{parse_atomic_ops_report, H100_ATOMIC_OPS};
    use crate::ui::measured::MeasuredTable;
    parse_atomic_ops_report(H100_ATOMIC_OPS).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    format!("{} on {}", r.op, r.ty),
                    format!("{} ({})", r.invocations, r.layout.replace('-', " ")),
                    format!("{} of {}", r.explained, r.runs),
                    r.distinct_finals.to_string(),
                    r.distinct_returns.to_string(),
                    r.spurious.to_string(),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["op", "invocations", "runs explained", "final values", "sets of returned values", "spurious failures"]
                note="100 runs of each op with this page's default operands, in one workgroup and in a workgroup each, the same kernels run natively on that GPU." />
        }
    })
}

/// CUDA's wrapping increment and decrement, built from a compare-exchange loop, run from
/// [`INVOCATIONS`](crate::lessons::atomic_ops::inc_dec::INVOCATIONS) invocations each and
/// checked against the cell's walk.
#[component]
fn GpuWrap() -> impl IntoView {
    use crate::lessons::atomic_ops::inc_dec::{run_wrap, Wrap, WrapRun, INVOCATIONS, LIMIT};
    let job = GpuJob::<(AdapterSummary, Vec<WrapRun>)>::new();
    crate::ui::gpu::warm(|| vec![(crate::lessons::atomic_ops::kernels::INC_DEC, 64)]);
    let run = Callback::new(move |()| {
        job.start_fixed(move |ctx| async move {
            let mut runs = Vec::new();
            for way in Wrap::BOTH {
                runs.push(run_wrap(&ctx, way, INVOCATIONS, 0, LIMIT).await?);
            }
            Ok((ctx.adapter.clone(), runs))
        })
    });
    view! {
        <h3>"atomicInc and atomicDec, built"</h3>
        <p class="muted">{format!("{INVOCATIONS} invocations apply CUDA's atomicInc(&cell, {LIMIT}), then {INVOCATIONS} its atomicDec, each from a compare-exchange loop on a cell that starts at 0.")}</p>
        <pre class="code-snippet" data-testid="wrap-cuda">{WRAP_CUDA}</pre>
        <p class="muted">{format!(
            "The WGSL both runs execute: {} as it is compiled, less its opening comment. Its loop stops after MAX_TRIES failed tries, and an invocation that stops there is counted under “gave up”.",
            crate::lessons::atomic_ops::kernels::INC_DEC.file_name()
        )}</p>
        <pre class="code-snippet" data-testid="wrap-wgsl">{wrap_kernel_source()}</pre>
        <RunForm job=job on_run=run name="wrap" label="Run both on my GPU" />
        {move || job.result.get().map(|(adapter, runs)| {
            let ok = runs.iter().all(|r| r.promise_held(0, LIMIT));
            let rows: Vec<Vec<String>> = runs
                .iter()
                .map(|r| {
                    let counts = r.counts(LIMIT).iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
                    vec![format!("{}(&cell, {LIMIT})", r.way.cuda()), r.final_value.to_string(), counts, r.gave_up.to_string()]
                })
                .collect();
            view! {
                <TextTable headers=vec!["op".to_owned(), "cell after".to_owned(), format!("how many got 0, 1 … {LIMIT} back"), "gave up".to_owned()] rows=rows test_id="wrap-table" />
                <p class=if ok { "verdict ok" } else { "verdict bad" } data-testid="wrap-verdict" data-ok=ok.to_string()>
                    {if ok {
                        format!("Both walks came back whole: every value from 0 to {LIMIT} was returned {} times each way, and the cell ended where the walk does. Which invocation got which value is the order your GPU served them.", INVOCATIONS / (LIMIT + 1))
                    } else {
                        "A walk came back wrong: some value returned too often or too rarely, or the cell ended elsewhere. Compare-exchange promised otherwise.".to_owned()
                    }}
                </p>
                <p class="muted">{format!("Adapter: {}.", adapter.name)}</p>
            }
        })}
    }
}

/// CUDA's own, built in; the WGSL that stands in for it is the kernel's file itself (see
/// [`wrap_kernel_source`]).
const WRAP_CUDA: &str = "// CUDA: built in, on unsigned int.\nunsigned old = atomicInc(&cell, 9);   // ((old >= 9) ? 0 : old + 1)\nunsigned back = atomicDec(&cell, 9);  // ((old == 0 || old > 9) ? 9 : old - 1)";

/// The inc/dec kernel's WGSL exactly as the page compiles and runs it, from its first
/// declaration on: shown from the file itself, so the code on the page cannot drift from the
/// code run (its bound on tries included). The opening comment says what the text above it does.
fn wrap_kernel_source() -> &'static str {
    let mut rest = crate::lessons::atomic_ops::kernels::INC_DEC.source();
    while rest.starts_with("//") || rest.starts_with('\n') {
        rest = rest.split_once('\n').map_or("", |(_, after)| after);
    }
    rest
}
