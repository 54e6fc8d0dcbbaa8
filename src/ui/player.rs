//! Step, back, play, pause, speed, reset and scrub over any timeline: the model's run or a
//! replay of what the GPU recorded. The timeline is a cursor, a length and a way to seek.

use crate::ui::number::Num;
use gloo_timers::callback::Interval;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Steps per second the speed control offers.
const SPEEDS: [f64; 5] = [0.5, 1.0, 2.0, 4.0, 8.0];

#[component]
pub fn Player(
    /// Ticks taken so far.
    #[prop(into)]
    cursor: Signal<usize>,
    /// Ticks known: the whole run for an automatic schedule, what the reader did for manual.
    #[prop(into)]
    total: Signal<usize>,
    /// Move the cursor; the owner clamps and may take new steps.
    seek: Callback<usize>,
    /// Identifies this player's controls for tests and labels (e.g. "model", "replay").
    name: &'static str,
    /// Whether the page-wide keyboard shortcuts drive this player.
    #[prop(default = false)]
    keyboard: bool,
    /// The `data-testid` of the "step i / n" readout, if not `<name>-step-index`.
    #[prop(optional)]
    step_index_id: Option<&'static str>,
    /// Steps per second, when the owner wants to follow it (a scene times its motion by it).
    #[prop(optional)]
    speed: Option<RwSignal<f64>>,
) -> impl IntoView {
    let step_index_id = step_index_id.map_or_else(|| format!("{name}-step-index"), str::to_owned);
    let playing = RwSignal::new(false);
    let speed = speed.unwrap_or_else(|| RwSignal::new(2.0f64));
    let timer = StoredValue::new_local(None::<Interval>);

    let stop = move || {
        timer.update_value(|t| {
            if let Some(t) = t.take() {
                t.cancel();
            }
        });
        playing.set(false);
    };
    let step = move || {
        let before = cursor.get_untracked();
        seek.run(before + 1);
        cursor.get_untracked() > before
    };
    let start = move || {
        if cursor.get_untracked() >= total.get_untracked() {
            seek.run(0);
        }
        let ms = (1000.0 / speed.get_untracked()) as u32;
        let interval = Interval::new(ms, move || {
            if !step() {
                stop();
            }
        });
        timer.set_value(Some(interval));
        playing.set(true);
    };
    let toggle = move || if playing.get_untracked() { stop() } else { start() };
    // A new speed takes effect at once while playing.
    Effect::new(move |_| {
        speed.track();
        if playing.get_untracked() {
            stop();
            start();
        }
    });
    on_cleanup(stop);

    if keyboard {
        let handle = window_event_listener(leptos::ev::keydown, move |e| {
            if typing_into_a_field(&e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let handled = match e.key().as_str() {
                "ArrowRight" | "l" => {
                    stop();
                    step();
                    true
                }
                "ArrowLeft" | "h" => {
                    stop();
                    seek.run(cursor.get_untracked().saturating_sub(1));
                    true
                }
                " " | "k" => {
                    toggle();
                    true
                }
                "r" | "Home" => {
                    stop();
                    seek.run(0);
                    true
                }
                "End" => {
                    stop();
                    seek.run(total.get_untracked());
                    true
                }
                _ => false,
            };
            if handled {
                e.prevent_default();
            }
        });
        on_cleanup(move || handle.remove());
    }

    view! {
        <div class="player" role="group" aria-label=format!("{name} controls") data-testid=format!("{name}-player")>
            <div class="buttons">
                <button on:click=move |_| { stop(); seek.run(0); } data-testid=format!("{name}-reset")
                    title="Reset (R)" aria-keyshortcuts=keyboard.then_some("r")>"Reset"</button>
                <button on:click=move |_| { stop(); seek.run(cursor.get_untracked().saturating_sub(1)); }
                    disabled=move || cursor.get() == 0 data-testid=format!("{name}-back")
                    title="Back (←)" aria-keyshortcuts=keyboard.then_some("ArrowLeft")>"◀ Back"</button>
                <button on:click=move |_| { stop(); step(); } data-testid=format!("{name}-step")
                    title="Step (→)" aria-keyshortcuts=keyboard.then_some("ArrowRight")>"Step ▶"</button>
                <button on:click=move |_| toggle() data-testid=format!("{name}-play") aria-pressed=move || playing.get().to_string()
                    title="Play or pause (Space)" aria-keyshortcuts=keyboard.then_some("Space")>
                    {move || if playing.get() { "Pause" } else { "Play" }}
                </button>
                <label class="speed">
                    "Speed "
                    <select on:change=move |e| {
                        // Matched against the offered values rather than parsed: no float parser in the page.
                        let chosen = event_target_value(&e);
                        speed.set(SPEEDS.into_iter().find(|s| Num(*s).to_string() == chosen).unwrap_or(2.0));
                    } data-testid=format!("{name}-speed")>
                        {SPEEDS.iter().map(|s| view! {
                            <option value=Num(*s) selected=*s == speed.get_untracked()>{format!("{}× /s", Num(*s))}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            <label class="scrub">
                <span class="step-index" data-testid=step_index_id>
                    {move || format!("step {} / {}", cursor.get(), total.get())}
                </span>
                <input type="range" min="0" max=move || total.get().to_string()
                    prop:value=move || cursor.get().to_string()
                    aria-label=format!("{name} step")
                    on:input=move |e| { stop(); seek.run(event_target_value(&e).parse().unwrap_or(0)); }
                    data-testid=format!("{name}-scrub") />
            </label>
        </div>
    }
}

/// Whether a key press is text being typed (a field has the focus), not a command.
pub fn typing_into_a_field(e: &web_sys::KeyboardEvent) -> bool {
    e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")).unwrap_or(false)
}
