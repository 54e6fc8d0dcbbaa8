//! "Play the memory" for a lesson: a few ways of writing message passing ([`Method`]), the
//! reader picks one and sees its code, the visibility model's verdict on the stale read, and
//! the scene in which they choose which write each load reads.

use super::method::{Method, STALE};
use super::scene::{SceneVerdicts, VisibilityScene};
use leptos::prelude::*;

#[component]
pub fn PlayTheMemory(
    methods: &'static [Method],
    /// The method shown; the page may draw more from it (the scope tree).
    chosen: RwSignal<&'static Method>,
    /// The challenge's second step, once the stale read is made.
    then: &'static str,
    /// What the verdict says where the stale read is allowed, and where it is not, when the
    /// handover is not a producer's flag (a lock's release, say).
    #[prop(optional)]
    words: Option<(&'static str, &'static str)>,
) -> impl IntoView {
    let choices = RwSignal::new(Vec::<(usize, usize)>::new());
    let pick = move |m: &'static Method| {
        chosen.set(m);
        choices.set(Vec::new());
    };
    view! {
        <div class="variant-toggle" role="radiogroup" aria-label="way of writing it">
            {methods.iter().map(|m| view! {
                <button role="radio" aria-checked=move || (chosen.get().id == m.id).to_string() data-testid=format!("method-{}", m.id) on:click=move |_| pick(m)>{m.label}</button>
            }).collect_view()}
        </div>
        {move || {
            let m = chosen.get();
            let test = m.litmus();
            // The stale read is never an interleaving's, so it is allowed exactly where the
            // visibility model reaches it: among the weak outcomes.
            let mut verdicts = SceneVerdicts::of_views(&test);
            let stale = verdicts.weak.iter().any(|o| o == STALE);
            let verdict = match (words, stale) {
                (Some((allowed, _)), true) => format!("Allowed: {allowed} ({STALE}). Make it happen below."),
                (Some((_, forbidden)), false) => format!("Forbidden: no choice of reads ends in {STALE}. {forbidden}"),
                (None, true) => format!("Allowed: the consumer can see the flag and read stale data ({STALE}). Make it happen below."),
                (None, false) => format!("Forbidden: no choice of reads ends in {STALE}. Once the consumer has read the flag, its view of the data has moved on."),
            };
            if let Some((c, _)) = &mut verdicts.challenge {
                c.then = then;
            }
            let lab = format!("?{}", crate::site::permalink::query("litmus", &[("test", m.test.to_owned())]));
            view! {
                <div class="play-method" data-testid="play-method" data-method=m.id>
                    <div class="cuda"><pre><code>{m.cuda}</code></pre></div>
                    <p class="muted">{m.reading}" In the model's words: "<code>{m.test}</code>" ("<a href=lab target=crate::site::embed::requested().then_some("_blank")>"open it in the litmus lab"</a>")."</p>
                    <p class=if stale { "verdict warn" } else { "verdict ok" } data-testid="method-verdict" data-stale-allowed=stale.to_string()>{verdict}</p>
                    <VisibilityScene test=test verdicts=verdicts choices=choices />
                </div>
            }
        }}
    }
}
