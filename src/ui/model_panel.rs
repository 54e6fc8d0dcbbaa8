//! The model half of a lesson page: its state, the controls that set threads and schedule,
//! the player with lanes and narration, and the kernel with the model's lines marked.

use crate::gpu::params::GpuParams;
use crate::gpu::Kernel;
use crate::model::Trace;
use crate::model::{Machine, Schedule, Session};
use crate::site::settings::{LessonSettings, LessonVariant};
use crate::ui::code_view::CodeView;
use crate::ui::moving::{self, Moving, TextLanes, TimelineParts};
use crate::ui::player::Player;
use crate::ui::scene::Scene;
use leptos::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a lesson page keeps of its model: the program choice, how many threads, the
/// schedule, and the run so far with its history.
pub struct ModelState<V: LessonVariant + Send + Sync> {
    pub variant: RwSignal<V>,
    pub threads: RwSignal<usize>,
    pub schedule: RwSignal<Schedule>,
    pub session: RwSignal<Session>,
}

impl<V: LessonVariant + Send + Sync> Clone for ModelState<V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: LessonVariant + Send + Sync> Copy for ModelState<V> {}

impl<V: LessonVariant + Send + Sync> ModelState<V> {
    /// The model a link describes, and a message for each part of the link not followed.
    pub fn open(settings: &LessonSettings<V>) -> (Self, Vec<String>) {
        let (session, problems) = settings.session();
        let model = ModelState {
            variant: RwSignal::new(settings.variant),
            threads: RwSignal::new(settings.threads),
            schedule: RwSignal::new(settings.schedule),
            session: RwSignal::new(session),
        };
        (model, problems)
    }

    /// The run the controls now name, after the program or thread count changed: the new
    /// machine under the schedule in force, at the step the reader was on (or the run's end,
    /// if it is shorter). Nothing of the old run's order is kept but the reader's own picks
    /// under the manual schedule, so the page shows what a fresh load of its link shows.
    pub fn rebuild(self) {
        let (variant, threads) = (self.variant.get_untracked(), self.threads.get_untracked());
        self.session.update(|s| *s = LessonSettings::after_switch(variant, threads, s));
    }

    /// The link settings for where the model stands now (tracked: use inside an effect).
    pub fn capture(self, gpu: GpuParams) -> LessonSettings<V> {
        let variant = self.variant.get();
        self.session.with(|s| LessonSettings::capture(variant, s, gpu))
    }
}

/// Threads, schedule and seed.
#[component]
pub fn ModelControls<V: LessonVariant + Send + Sync>(model: ModelState<V>) -> impl IntoView {
    let ModelState { threads, schedule, session, .. } = model;
    let range = V::THREADS;
    let seed = move || match schedule.get() {
        Schedule::Random { seed } => seed,
        _ => 1,
    };
    let set_schedule = move |name: String, seed: u64| {
        if let Some(s) = Schedule::from_name(&name, seed) {
            schedule.set(s);
            session.update(|sess| {
                sess.set_schedule(s);
                sess.run_to_end();
            });
        }
    };
    view! {
        <div class="model-controls">
            <label>
                "Threads "
                <input type="number" min=*range.start() max=*range.end()
                    prop:value=move || threads.get().to_string() data-testid="model-threads"
                    on:change=move |e| {
                        let n = event_target_value(&e).parse::<usize>().unwrap_or(V::DEFAULT_THREADS)
                            .clamp(*range.start(), *range.end());
                        threads.set(n);
                        model.rebuild();
                    } />
            </label>
            <label>
                "Schedule "
                <select data-testid="schedule" on:change=move |e| set_schedule(event_target_value(&e), seed())>
                    {Schedule::NAMES.iter().map(|n| view! {
                        <option value=*n selected=move || schedule.get().name() == *n>{*n}</option>
                    }).collect_view()}
                </select>
            </label>
            <Show when=move || matches!(schedule.get(), Schedule::Random { .. })>
                <label>
                    "Seed "
                    <input type="number" min="0" prop:value=move || seed().to_string() data-testid="seed"
                        on:change=move |e| set_schedule("random".into(), event_target_value(&e).parse().unwrap_or(1)) />
                </label>
            </Show>
        </div>
    }
}

/// The player, the lanes, the shared memory, the narration and the outcome.
#[component]
pub fn ModelView(
    session: RwSignal<Session>,
    /// What the narration says before the first step.
    start: &'static str,
    /// The lesson's verdict on the current state (empty while it says nothing).
    outcome: fn(&Machine) -> String,
) -> impl IntoView {
    let cursor = Signal::derive(move || session.with(|s| s.cursor()));
    let total = Signal::derive(move || session.with(|s| s.known_ticks()));
    let seek = Callback::new(move |i: usize| {
        session.update(|s| {
            // Back at the start (Reset, Home, Play from the end, the scrub bar at 0), the run
            // is the one the schedule menu names: an earlier schedule's order is not replayed.
            if i == 0 {
                s.reset_to_schedule();
                return;
            }
            let reached = s.seek(i);
            // By hand, a step past the ticks taken moves the lowest-numbered thread that can move:
            // Step is never a dead control, and the lanes stay the way to choose.
            if reached + 1 == i && s.schedule() == Schedule::Manual {
                let next = s.current().ready_threads().next();
                if let Some(t) = next {
                    let _ = s.step_thread(t);
                }
            }
        })
    });
    let machine = crate::ui::machine_memo(move || session.with(|s| s.current().clone()));
    // The whole run's trace, worked out again only when its known steps change.
    let revision = Memo::new(move |_| session.with(|s| s.revision()));
    let trace = Memo::new(move |_| {
        revision.track();
        session.with_untracked(|s| Arc::new(Trace::of(s.ticks())))
    });
    let threads = Memo::new(move |_| machine.with(|m| m.threads.len()));
    let speed = RwSignal::new(2.0f64);
    let as_text = RwSignal::new(false);
    let step_ms = crate::ui::scene::step_ms_at(speed);
    let moved_threads = Memo::new(move |_| session.with(|s| s.last_events().iter().map(|e| e.thread).collect::<Vec<_>>()));
    // The timeline comes with the run's first step (its code is a chunk of its own: see
    // `ui::moving`); until then a frame as tall holds its place.
    let moved = moving::latch(move || cursor.get() > 0);
    // What the run has found: nothing before its first step, but for a kernel that spins
    // before its first access.
    let found_any = moving::latch(move || cursor.get() > 0 || machine.with(|m| !m.findings().is_empty()));
    let manual = Signal::derive(move || session.with(|s| s.schedule() == Schedule::Manual));
    let step_thread = Callback::new(move |t: usize| {
        session.update(|s| {
            let _ = s.step_thread(t);
        })
    });
    let narration = move || {
        session.with(|s| {
            let events = s.last_events();
            if events.is_empty() {
                start.to_owned()
            } else {
                let m = s.current();
                // A wide lockstep tick would read out dozens of sentences: say a few, count the rest.
                let all = events.len();
                let mut said = if all > 4 { format!("{all} threads move together: ") } else { String::new() };
                for (i, e) in events.iter().take(if all > 4 { 3 } else { all }).enumerate() {
                    if i > 0 {
                        said.push_str("; ");
                    }
                    said.push_str(&m.narrate(e));
                }
                if all > 4 {
                    said.push_str(&format!("; and {} more", all - 3));
                }
                said
            }
        })
    };
    let outcome = move || session.with(|s| outcome(s.current()));
    let fault = move || session.with(|s| s.fault().map(|e| format!("The model stopped: {e}.")));
    // Keys 1–8 step that thread when the reader schedules by hand.
    let handle = window_event_listener(leptos::ev::keydown, move |e| {
        if !manual.get_untracked() || e.ctrl_key() || e.meta_key() || e.alt_key() || crate::ui::player::typing_into_a_field(&e) {
            return;
        }
        if let Ok(n) = e.key().parse::<usize>() {
            if (1..=8).contains(&n) {
                step_thread.run(n - 1);
                e.prevent_default();
            }
        }
    });
    on_cleanup(move || handle.remove());

    view! {
        <Player cursor=cursor total=total seek=seek name="model" keyboard=true step_index_id="step-index" speed=speed />
        <Scene machine=machine trace=trace cursor=cursor total=total step_ms=step_ms can_pick=manual on_step_thread=step_thread />
        {move || if moved.get() {
            moving::part(
                Moving::Timeline(TimelineParts { trace, revision: revision.into(), threads: threads.into(), cursor, seek }),
                move || crate::ui::timeline::placeholder(threads.get_untracked(), true),
            )
        } else {
            crate::ui::timeline::placeholder(threads.get(), false)
        }}
        <Show when=move || manual.get()>
            <p class="hint" data-testid="manual-hint">"Manual schedule: click the lane of the thread that moves next (or keys 1–8); Step moves the lowest-numbered thread that can. Reset keeps your picks; another lane replaces them."</p>
        </Show>
        {move || kept_order(session).map(|kept| view! {
            <p class="hint" data-testid="kept-order">"Steps 1 to " {kept} " came from an earlier schedule; Reset starts a run of this one."</p>
        })}
        <p class="narration" aria-live="polite" data-testid="narration">{narration}</p>
        <p class="outcome" data-testid="model-outcome">{outcome}</p>
        {move || found_any.get().then(|| moving::part(Moving::Findings(machine), || view! { <span data-pending="findings" hidden></span> }.into_any()))}
        // Built only while open: closed, it would cost every step as much as the scene.
        <details class="as-text" on:toggle=move |e| {
            use wasm_bindgen::JsCast;
            let open = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()).is_some_and(|d| d.open());
            as_text.set(open);
        }>
            <summary>"The same state as text"</summary>
            <Show when=move || as_text.get()>
                {move || moving::part(Moving::TextLanes(TextLanes { machine, moved: moved_threads, on_step_thread: step_thread }), || {
                    view! { <p class="muted" data-pending="lanes">"Loading…"</p> }.into_any()
                })}
            </Show>
        </details>
        {move || fault().map(|f| view! { <p class="notice warn" role="alert" data-testid="model-fault">{f}</p> })}
        <p class="keys muted">"Keys: → or L step · ← or H back · Space play/pause · R reset · End jump to the end"</p>
    }
}

/// How many steps from the start the run on screen holds that an earlier schedule chose, when
/// it holds any: a run is never taken for the one the menu names when it is not. (Under the
/// manual schedule every step is a pick, kept by Reset, as its hint says.)
fn kept_order(session: RwSignal<Session>) -> Option<usize> {
    session.with(|s| Some(s.chosen_until()).filter(|&kept| kept > 0 && s.schedule() != Schedule::Manual))
}

/// The kernel's WGSL with the line each model thread stands on marked.
#[component]
pub fn KernelCode(#[prop(into)] kernel: Signal<Kernel>, session: RwSignal<Session>) -> impl IntoView {
    let marks = Memo::new(move |_| {
        let source = kernel.get().source();
        session.with(|s| {
            let m = s.current();
            // Threads share a handful of program counters: each is looked up in the source once.
            // Threads are taken in order, so each line's list comes out sorted.
            let mut line_of_pc: Vec<(usize, Option<usize>)> = Vec::new();
            let mut lines: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
            for (t, th) in m.threads.iter().enumerate() {
                let line = match line_of_pc.iter().find(|(pc, _)| *pc == th.pc) {
                    Some(&(_, line)) => line,
                    None => {
                        let line = m.program().source_line(th.pc, source);
                        line_of_pc.push((th.pc, line));
                        line
                    }
                };
                if let Some(line) = line {
                    lines.entry(line).or_default().push(t);
                }
            }
            lines.into_iter().collect::<Vec<_>>()
        })
    });
    // The same kernel in the playground, which opens it as its own `// playground:` line says.
    // The kernel after the `#`, which no server receives: a kernel's text can pass the 8 KB
    // that many servers take in a request line.
    let playground = move || format!("?lesson=playground#wgsl={}", crate::site::permalink::encode(kernel.get().source()));
    view! {
        <CodeView file=Signal::derive(move || kernel.get().file_name()) source=Signal::derive(move || kernel.get().source()) marks=marks />
        <p class="muted">
            "Marked lines: the next instruction of each model thread (t0, t1, …). "
            <a href=playground target=crate::site::embed::requested().then_some("_blank")>"Change it in the playground"</a>
        </p>
    }
}

/// The lesson's program choices as a group of radio buttons; choosing one restarts the model.
#[component]
pub fn VariantToggle<V: LessonVariant + Send + Sync>(
    model: ModelState<V>,
    /// Each choice and its label.
    choices: &'static [(V, &'static str)],
) -> impl IntoView {
    let variant = model.variant;
    view! {
        <div class="variant-toggle" role="radiogroup" aria-label="kernel variant">
            {choices.iter().map(|&(v, label)| view! {
                <button role="radio" aria-checked=move || (variant.get() == v).to_string()
                    data-testid=format!("variant-{}", v.name())
                    on:click=move |_| {
                        if variant.get_untracked() != v {
                            variant.set(v);
                            model.rebuild();
                        }
                    }>
                    {label}
                </button>
            }).collect_view()}
        </div>
    }
}
