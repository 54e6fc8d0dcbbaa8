//! The append lesson page: a few model threads filtering and claiming output slots beside the
//! real kernel doing it for thousands, run after run, with the slots that moved marked.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::append::gpu::{run_append, AppendRun};
use crate::lessons::append::{check, slots_changed, Append, COUNT, LIMIT};
use crate::model::Machine;
use crate::ui::download::DownloadJson;
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, RunForm, SizeFields};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::measured::{range, MeasuredTable};
use leptos::prelude::*;
use super::words;

#[component]
pub fn AppendLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<Append>("append");
    view! {
        <LessonPage id="append" title="Appending in parallel" model=model problems=problems lead=words::LEAD words=words::TEXT
            start="Start: count is 0; each thread is about to read its own input." outcome=model_outcome
            kernel=Signal::derive(Append::kernel) cuda=cuda() fill=fill_limit
            gpu=gpu_half!(Part::Panel, sizes) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|sizes: SizeFields| view! { <GpuAppend sizes=sizes /> <MeasuredElsewhere /> })
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len();
    let count = m.memory[COUNT];
    let out = Append::output_base(n);
    let values: Vec<String> = m.memory[out..out + count.max(0) as usize].iter().map(i64::to_string).collect();
    format!("Finished: {count} of {n} values were below {LIMIT} and were appended, in this order: [{}].", values.join(", "))
}

/// The folded words with the kernel's limit where they name it.
fn fill_limit(words: &str) -> String {
    words.replace("{LIMIT}", &LIMIT.to_string())
}

/// The same kernel in CUDA.
fn cuda() -> String {
    format!("__global__ void append(const unsigned *input, unsigned *output,\n                       unsigned *count, unsigned n) {{\n    unsigned id = blockIdx.x * blockDim.x + threadIdx.x;\n    if (id >= n) return;\n    unsigned value = input[id];\n    if (!(value < {LIMIT}u)) return;\n    unsigned slot = atomicAdd(count, 1u);  // claim a slot\n    output[slot] = value;\n}}")
}

#[derive(Clone)]
struct AppendResult {
    adapter: AdapterSummary,
    params: GpuParams,
    run: AppendRun,
    wall_ms: f64,
    /// The run before this one with the same sizes, to compare the order with.
    previous: Option<AppendRun>,
}

/// Slots drawn in the strip: enough to see the shuffling.
const STRIP: usize = 48;

#[component]
fn GpuAppend(sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<AppendResult>::new();
    crate::ui::gpu::warm(move || vec![(Append::kernel(), sizes.opened().workgroup_size)]);
    let run = Callback::new(move |()| {
        let last = job.result.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let run = run_append(&ctx, params).await?;
            let previous = last.filter(|l| l.params == params).map(|l| l.run);
            Ok(AppendResult { adapter: ctx.adapter.clone(), params, run, wall_ms: now_ms() - t0, previous })
        })
    });
    view! {
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| view! { <AppendReport result=r /> })}
    }
}

#[component]
fn AppendReport(result: AppendResult) -> impl IntoView {
    let AppendResult { adapter, params, run, wall_ms, previous } = result;
    let c = check(&run.output, run.count, params);
    let verdict = if c.is_permutation {
        format!("The count is exactly {}, and the filled slots hold exactly the kept values.", c.expected)
    } else {
        format!(
            "Expected {} kept values in slots 0..{}, got count {} and {}: this GPU broke atomicAdd's promise.",
            c.expected,
            c.expected,
            run.count,
            if run.count == c.expected { "different values" } else { "a wrong count" }
        )
    };
    let changed = previous.as_ref().map(|p| slots_changed(&p.output, &run.output, run.count));
    let order_text = match changed {
        None => "Run again to compare the order with this run.".to_owned(),
        Some(0) => "The same order as the previous run, slot for slot.".to_owned(),
        Some(k) => format!("{k} of {} slots hold a different value than in the previous run.", run.count),
    };
    let strip = run
        .output
        .iter()
        .take((run.count as usize).min(STRIP))
        .enumerate()
        .map(|(i, v)| {
            let moved = previous.as_ref().is_some_and(|p| p.output.get(i) != Some(v));
            view! { <li class:moved=moved><span class="slot">{i.to_string()}</span><span class="value">{v.to_string()}</span></li> }
        })
        .collect_view();
    let export = {
        let (adapter, run) = (adapter.clone(), run.clone());
        move || {
            let json = crate::lessons::append::export::run(&adapter, params, &run, wall_ms);
            (format!("syncscope-append-{}.json", params.invocations), json.to_pretty())
        }
    };
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Invocations × workgroup", format!("{} in {} workgroups of {}", params.invocations, params.workgroups(), params.workgroup_size)),
                figure(format!("Inputs below {LIMIT} (expected count)"), c.expected.to_string()).id("gpu-expected"),
                figure("Observed count", run.count.to_string()).id("gpu-observed"),
                figure("Slots in input order", format!("{} of {}", c.in_input_order, run.count)).id("gpu-input-order"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock", wall_ms = Float(wall_ms))).timed_on(&adapter),
            ] />
            <p class=if c.is_permutation { "verdict ok" } else { "verdict bad" } data-testid="gpu-verdict" data-ok=c.is_permutation.to_string()>{verdict}</p>
            <p data-testid="gpu-order-change" data-changed=changed.map(|k| k.to_string())>{order_text}</p>
            <figure class="slot-strip">
                <ol aria-label=format!("the first {} output slots", (run.count as usize).min(STRIP))>{strip}</ol>
                <figcaption class="muted">{format!(
                    "The first {} of {} filled slots{}. Adapter: {}.",
                    (run.count as usize).min(STRIP), run.count,
                    if previous.is_some() { "; a marked slot changed since the previous run" } else { "" },
                    adapter.name)}</figcaption>
            </figure>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
            <pre class="raw" hidden data-testid="gpu-output">{run.output.iter().take(run.count as usize).map(u32::to_string).collect::<Vec<_>>().join(",")}</pre>
        </div>
    }
}

/// The same kernel on a data-centre GPU, from `data/h100-append.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::append::measured::{parse_append_report, H100_APPEND};
    parse_append_report(H100_APPEND).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    r.invocations.to_string(),
                    r.workgroup_size.to_string(),
                    format!("{} of {}", r.exact, r.runs),
                    r.kept.to_string(),
                    range(r.slots_changed),
                    range(r.in_input_order),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["invocations", "workgroup", "exact runs", "kept", "slots changed since the run before", "slots in input order"]
                note="Ten runs per size after a warm-up, the same kernels run natively on that GPU." />
        }
    })
}
