//! The frame every lesson page shares: its link read and kept up to date, the title, the
//! refused parts of the link, the text, the model beside the kernel (and its CUDA twin), and
//! the GPU panel.

use crate::gpu::Kernel;
use crate::model::Machine;
use crate::site::query;
use crate::site::settings::{LessonSettings, LessonVariant};
use crate::ui::gpu::GpuStatus;
use crate::ui::gpu_form::{LinkProblems, SizeFields};
use crate::ui::model_panel::{KernelCode, ModelControls, ModelState, ModelView};
use crate::ui::panel::Panel;
use crate::ui::permalink::{self, CopyLink};
use leptos::prelude::*;

/// Reads the lesson's link, opens its model and GPU sizes, and keeps the address bar in step
/// with them. Returns the messages for whatever in the link was refused.
pub fn open_lesson<V: LessonVariant + Send + Sync>(id: &'static str) -> (ModelState<V>, SizeFields, Vec<String>) {
    let (settings, mut problems) = LessonSettings::<V>::parse(query::get);
    let (model, more) = ModelState::open(&settings);
    problems.extend(more);
    let sizes = SizeFields::new(settings.gpu);
    permalink::follow(id, move || model.capture(sizes.current()).to_pairs());
    (model, sizes, problems)
}

/// A lesson page: a short `lead`, then the model and `kernel` side by side, the longer `text`
/// folded under them, and `gpu` below. The reader meets a control within a paragraph.
#[component]
pub fn LessonPage<V: LessonVariant + Send + Sync>(
    /// The lesson's id, also its page's class.
    id: &'static str,
    title: &'static str,
    model: ModelState<V>,
    problems: Vec<String>,
    /// One paragraph of constant markup: what the page says before its first control.
    lead: &'static str,
    /// The lesson's longer explanation, folded under the model: the `text` section of its
    /// `words.html`.
    words: &'static str,
    /// Fills the placeholders of `words` (`{LIMIT}`: a constant of the page's code).
    #[prop(optional)]
    fill: Option<fn(&str) -> String>,
    /// What the page adds to its folded words (a table, a link), after them.
    #[prop(optional, into)]
    text: Option<ViewFn>,
    /// Controls beside "Copy link" (the race lesson's variant toggle); nothing by default.
    #[prop(optional, into)]
    bar: Option<ViewFn>,
    /// What the model's narration says before the first step.
    start: &'static str,
    /// A picture of the model's state that the shared scene does not draw (the subgroups
    /// lesson's lanes in their subgroups), under the scene.
    #[prop(optional, into)]
    picture: Option<ViewFn>,
    /// The lesson's verdict on the model's current state.
    outcome: fn(&Machine) -> String,
    #[prop(into)] kernel: Signal<Kernel>,
    /// The same kernel in CUDA, shown under the WGSL; none where the seeds give none.
    #[prop(optional)]
    cuda: Option<String>,
    /// The GPU panel's own content, under the adapter's status: the lesson's GPU half, made
    /// by [`gpu_half!`](crate::ui::gpu_half::gpu_half).
    #[prop(into)]
    gpu: ViewFn,
    /// Panels after the GPU panel (the race lesson's replay).
    #[prop(optional, into)]
    after: Option<ViewFn>,
) -> impl IntoView {
    crate::ui::gpu_half::want_when_near(".gpu-panel");
    let words = crate::site::glossary::gloss(&fill.map_or_else(|| words.to_owned(), |fill| fill(words)));
    view! {
        <article class=format!("lesson {id}")>
            <h1>{title}</h1>
            <LinkProblems problems=problems />
            <div class="prose lead" data-testid="lead" inner_html=crate::site::glossary::gloss(lead)></div>
            <div class="lesson-bar">
                {bar.map_or_else(|| view! { <span></span> }.into_any(), |b| b.run())}
                <CopyLink />
            </div>
            <div class="lesson-grid">
                <Panel id="model" title="The model">
                    <ModelControls model=model />
                    {move || {
                        let text = model.variant.get().try_this();
                        (!text.is_empty()).then(|| view! { <p class="try-this" data-testid="try-this"><strong>"Try this: "</strong>{text}</p> })
                    }}
                    <ModelView session=model.session outcome=outcome start=start />
                    {picture.map(|p| p.run())}
                </Panel>
                <Panel id="code" title="The kernel">
                    <KernelCode kernel=kernel session=model.session />
                    {cuda.map(|code| view! {
                        <details class="cuda" open>
                            <summary>"The same in CUDA"</summary>
                            <pre><code>{code}</code></pre>
                        </details>
                    })}
                    <p class="muted">
                        <a href="?lesson=cuda-map" data-testid="cuda-map-link"
                            target=crate::site::embed::requested().then_some("_blank")>"CUDA ↔ WGSL, construct by construct"</a>
                        ": what WGSL has in place of each CUDA construct, and what it lacks."
                    </p>
                </Panel>
            </div>
            <details class="background" data-testid="background">
                <summary>"More on this lesson: the why, the CUDA side, what the GPU panel runs"</summary>
                <div class="prose" inner_html=words></div>
                {text.map(|t| t.run())}
            </details>
            <Panel id="gpu" title="Your GPU">
                <GpuStatus />
                {gpu.run()}
            </Panel>
            {after.map(|a| a.run())}
        </article>
    }
}
