//! The sizes a reader types for a dispatch, checked against the adapter before anything runs.

use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::gpu::GpuContext;
use crate::site::param::in_range;
use crate::text::Float;
use leptos::prelude::*;

/// The two fields as typed, and the sizes the page opened with (the fallback while a field
/// holds something that is not a number).
#[derive(Clone, Copy)]
pub struct SizeFields {
    pub invocations: RwSignal<String>,
    pub workgroup: RwSignal<String>,
    opened: GpuParams,
}

impl SizeFields {
    pub fn new(opened: GpuParams) -> Self {
        SizeFields { invocations: RwSignal::new(opened.invocations.to_string()), workgroup: RwSignal::new(opened.workgroup_size.to_string()), opened }
    }

    /// The sizes the page opened with: what a warm-up compiles for.
    pub fn opened(self) -> GpuParams {
        self.opened
    }

    /// The sizes for a link: what is typed where it is a number, else what the page opened with.
    pub fn current(self) -> GpuParams {
        GpuParams {
            invocations: self.invocations.with(|v| v.trim().parse().unwrap_or(self.opened.invocations)),
            workgroup_size: self.workgroup.with(|v| v.trim().parse().unwrap_or(self.opened.workgroup_size)),
        }
    }

    /// The sizes to dispatch, or a message naming what this GPU does not allow.
    pub fn checked(self, ctx: &GpuContext) -> Result<GpuParams, String> {
        let limits = ComputeLimits::from(ctx.adapter.limits);
        let n = in_range("invocations", &self.invocations.get_untracked(), 1..=u64::from(u32::MAX))?;
        let w = in_range("workgroup size", &self.workgroup.get_untracked(), 1..=u64::from(u32::MAX))?;
        check_params(GpuParams { invocations: n as u32, workgroup_size: w as u32 }, &limits)
    }
}

#[component]
pub fn SizeInputs(sizes: SizeFields) -> impl IntoView {
    view! {
        <label>"Invocations " <input type="text" inputmode="numeric" prop:value=move || sizes.invocations.get()
            on:input=move |e| sizes.invocations.set(event_target_value(&e)) data-testid="gpu-invocations" /></label>
        <label>"Workgroup size " <input type="text" inputmode="numeric" prop:value=move || sizes.workgroup.get()
            on:input=move |e| sizes.workgroup.set(event_target_value(&e)) data-testid="gpu-workgroup" /></label>
    }
}

/// The messages for parts of the page's link that were refused.
#[component]
pub fn LinkProblems(problems: Vec<String>) -> impl IntoView {
    (!problems.is_empty()).then(|| {
        view! {
            <div class="notice warn" role="alert" data-testid="param-error">
                {problems.into_iter().map(|p| view! { <p>{p}</p> }).collect_view()}
            </div>
        }
    })
}

/// One GPU panel's job: whether it is running, what went wrong, and what came back.
pub struct GpuJob<T: Send + Sync + 'static> {
    pub running: RwSignal<bool>,
    pub error: RwSignal<Option<String>>,
    pub result: RwSignal<Option<T>>,
    /// Milliseconds the last run took, from the click to its results in hand (before the page
    /// shows them): the GPU round trip as this page makes it.
    pub round_trip_ms: RwSignal<Option<f64>>,
    /// Whether `result` is a first look at a run still going on (see [`GpuJob::show_first`]).
    pub partial: RwSignal<bool>,
    /// Milliseconds from the click to the first result in hand, partial or whole.
    pub first_result_ms: RwSignal<Option<f64>>,
    /// Parts done and parts in all, for a run made of parts (a sweep's points).
    pub progress: RwSignal<Option<(usize, usize)>>,
    clicked: StoredValue<f64>,
}

impl<T: Send + Sync + 'static> Clone for GpuJob<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for GpuJob<T> {}

impl<T: Send + Sync + 'static> Default for GpuJob<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Send + Sync + 'static> GpuJob<T> {
    pub fn new() -> Self {
        GpuJob {
            running: RwSignal::new(false),
            error: RwSignal::new(None),
            result: RwSignal::new(None),
            round_trip_ms: RwSignal::new(None),
            partial: RwSignal::new(false),
            first_result_ms: RwSignal::new(None),
            progress: RwSignal::new(None),
            clicked: StoredValue::new(0.0),
        }
    }

    /// Shows the first part of a long run while the rest goes on: the reader sees figures read
    /// back from the GPU within a dispatch or two, and the whole batch replaces them when done.
    pub fn show_first(self, first: T) {
        if self.first_result_ms.get_untracked().is_none() {
            self.first_result_ms.set(Some(super::gpu::now_ms() - self.clicked.get_value()));
        }
        self.partial.set(true);
        self.result.set(Some(first));
    }

    /// Checks the reader's sizes against the adapter, then runs `work`; its error becomes the
    /// panel's message, and a lost device turns the whole page's GPU state.
    pub fn start<Fut>(self, sizes: SizeFields, work: impl FnOnce(std::rc::Rc<GpuContext>, GpuParams) -> Fut + 'static)
    where
        Fut: std::future::Future<Output = Result<T, crate::gpu::GpuError>> + 'static,
    {
        self.launch(move |ctx| sizes.checked(ctx), work);
    }

    /// Runs `work`, for panels whose sizes are fixed by the lesson rather than typed.
    pub fn start_fixed<Fut>(self, work: impl FnOnce(std::rc::Rc<GpuContext>) -> Fut + 'static)
    where
        Fut: std::future::Future<Output = Result<T, crate::gpu::GpuError>> + 'static,
    {
        self.launch(|_| Ok(()), move |ctx, ()| work(ctx));
    }

    fn launch<P: 'static, Fut>(self, check: impl FnOnce(&GpuContext) -> Result<P, String>, work: impl FnOnce(std::rc::Rc<GpuContext>, P) -> Fut + 'static)
    where
        Fut: std::future::Future<Output = Result<T, crate::gpu::GpuError>> + 'static,
    {
        let gpu = expect_context::<super::gpu::GpuHandle>();
        let clicked = super::gpu::now_ms();
        let Some(ctx) = gpu.context() else { return };
        let params = match check(&ctx) {
            Ok(p) => p,
            Err(e) => {
                self.error.set(Some(e));
                return;
            }
        };
        self.clicked.set_value(clicked);
        self.first_result_ms.set(None);
        self.progress.set(None);
        let GpuJob { result, round_trip_ms, partial, first_result_ms, .. } = self;
        // Only this part depends on the result's type; the bookkeeping around it is shared.
        let job = async move {
            let r = work(ctx, params).await?;
            let took = super::gpu::now_ms() - clicked;
            Ok(Box::new(move || {
                round_trip_ms.set(Some(took));
                if first_result_ms.get_untracked().is_none() {
                    first_result_ms.set(Some(took));
                }
                partial.set(false);
                result.set(Some(r));
            }) as Box<dyn FnOnce()>)
        };
        run_job(gpu, self.running, self.error, Box::pin(job));
    }
}

type Publish = Box<dyn FnOnce()>;

/// Runs a GPU job: marks it running, and when it ends publishes its result or its error (a
/// lost device also turns the whole page's GPU state).
fn run_job(
    gpu: super::gpu::GpuHandle,
    running: RwSignal<bool>,
    error: RwSignal<Option<String>>,
    job: std::pin::Pin<Box<dyn std::future::Future<Output = Result<Publish, crate::gpu::GpuError>>>>,
) {
    error.set(None);
    running.set(true);
    leptos::task::spawn_local(async move {
        match job.await {
            Ok(publish) => publish(),
            Err(e) => {
                gpu.report(&e);
                error.set(Some(e.to_string()));
            }
        }
        running.set(false);
    });
}

/// The sizes, the run button and the job's state, as every single-run GPU panel shows them.
#[component]
pub fn RunForm<T: Send + Sync + 'static>(
    /// The invocations and workgroup fields, where the reader chooses them.
    #[prop(optional)]
    sizes: Option<SizeFields>,
    job: GpuJob<T>,
    on_run: Callback<()>,
    /// A second button that runs the kernel 100 times in one go, where the panel offers it.
    #[prop(optional)]
    on_run_100: Option<Callback<()>>,
    /// Prefix of the controls' test ids where a page has more than one form ("gpu" if none).
    #[prop(optional)]
    name: Option<&'static str>,
    /// The run button's words, where "Run on my GPU" would not say which run.
    #[prop(optional)]
    label: Option<&'static str>,
) -> impl IntoView {
    let name = name.unwrap_or("gpu");
    let gpu = expect_context::<super::gpu::GpuHandle>();
    let busy = move || gpu.context().is_none() || job.running.get();
    // Seconds since the click, ticking while the run goes on: past the first second the form
    // shows that it is still working, and how far when the run is made of parts.
    let elapsed = RwSignal::new(0u32);
    Effect::new(move |_| {
        if !job.running.get() {
            return;
        }
        elapsed.set(0);
        let start = super::gpu::now_ms();
        leptos::task::spawn_local(async move {
            while job.running.try_get_untracked() == Some(true) {
                gloo_timers::future::TimeoutFuture::new(250).await;
                elapsed.try_set(((super::gpu::now_ms() - start) / 1000.0) as u32);
            }
        });
    });
    let still_running = move || {
        (job.running.get() && elapsed.get() >= 1).then(|| {
            let parts = job.progress.get();
            let (value, max) = parts.map_or((None, None), |(done, of)| (Some(done.to_string()), Some(of.to_string())));
            let parts = parts.map(|(done, of)| format!("{done} of {of} done, "));
            view! {
                <span class="still-running" data-testid=format!("{name}-elapsed")>
                    <progress value=value max=max aria-label="progress of the run"></progress>
                    {format!("{}{} s", parts.unwrap_or_default(), elapsed.get())}
                </span>
            }
        })
    };
    view! {
        <div class="gpu-form">
            {sizes.map(|sizes| view! { <SizeInputs sizes=sizes /> })}
            <button on:click=move |_| on_run.run(()) disabled=busy data-testid=format!("{name}-run")
                data-round-trip-ms=move || job.round_trip_ms.get().map(|ms| format!("{ms:.3}", ms = Float(ms)))
                data-first-result-ms=move || job.first_result_ms.get().map(|ms| format!("{ms:.3}", ms = Float(ms)))>
                {label.unwrap_or("Run on my GPU")}
            </button>
            {on_run_100.map(|run| view! {
                <button on:click=move |_| run.run(()) disabled=busy data-testid=format!("{name}-run-100")>"Run 100×"</button>
            })}
            <span class="muted" aria-live="polite" data-testid=format!("{name}-progress")>{move || {
                job.running.get().then_some(if job.partial.get() { "first figures below; the rest is running…" } else { "running…" })
            }}</span>
            {still_running}
        </div>
        {move || job.error.get().map(|e| view! { <p class="notice warn" role="alert" data-testid=format!("{name}-error")>{e}</p> })}
    }
}

/// A labelled choice among a few numbers (bins hit, dispatches per run), kept in `value`.
#[component]
pub fn NumberChoice(label: &'static str, choices: &'static [u32], value: RwSignal<u32>, test_id: &'static str) -> impl IntoView {
    view! {
        <label>{label}" "
            <select data-testid=test_id on:change=move |e| {
                if let Ok(v) = event_target_value(&e).parse() { value.set(v) }
            }>
                {choices.iter().map(|&c| view! { <option value=c.to_string() selected=move || value.get() == c>{c.to_string()}</option> }).collect_view()}
            </select>
        </label>
    }
}
