//! The index: the course, chapter by chapter, each lesson with a still of its scene; the
//! lab and the reference pages; and the reader's WebGPU status.

use crate::lessons::{Chapter, Link, LINKS, PREVIEWS, SUMMARIES};
use crate::ui::gpu::GpuStatus;
use crate::ui::scene::SceneThumbnail;
use leptos::prelude::*;

/// A lesson's still for its card: its model a few steps in.
type Preview = Option<fn() -> crate::model::Machine>;

#[component]
pub fn Home() -> impl IntoView {
    // The stills are drawn after the first frame: the list of lessons is readable and usable
    // at once, and eleven small scenes follow.
    let stills = RwSignal::new(false);
    request_animation_frame(move || stills.set(true));
    let chapters = Chapter::COURSE
        .iter()
        .map(|&chapter| {
            let lessons: Vec<(&'static Link, &'static str, Preview)> =
                LINKS.iter().zip(SUMMARIES).zip(PREVIEWS).map(|((l, s), p)| (l, s, p)).filter(|(l, _, _)| l.chapter == chapter).collect();
            view! {
                <section class="chapter" data-chapter=chapter.title()>
                    <h2>{chapter.title()}</h2>
                    <p class="muted">{chapter.lede()}</p>
                    <ul class="lesson-cards">
                        {lessons.into_iter().map(|(l, summary, preview)| view! { <LessonCard lesson=l summary=summary preview=preview stills=stills /> }).collect_view()}
                    </ul>
                </section>
            }
        })
        .collect_view();
    view! {
        <section class="home">
            <h1>"See GPU synchronization happen"</h1>
            <p class="lede">
                "Each lesson steps a few threads through a tiny program, one instruction at a time, and "
                "then runs the real WGSL kernel on your own GPU, so the model and the hardware sit side by side."
            </p>
            <GpuStatus />
            <div class="course" data-testid="lesson-list">{chapters}</div>
            {[(Chapter::Playground, "playground-list"), (Chapter::Lab, "lab-list"), (Chapter::Reference, "reference-list")].map(|(chapter, test_id)| view! {
                <h2>{chapter.title()}</h2>
                <ul class="lesson-list" data-testid=test_id>
                    {LINKS.iter().zip(SUMMARIES).filter(|(l, _)| l.chapter == chapter).map(|(l, summary)| view! {
                        <li data-lesson=l.id>
                            <a href=format!("?lesson={}", l.id)>{l.title}</a>
                            <span class="summary">" — "{summary}</span>
                        </li>
                    }).collect_view()}
                </ul>
            }).collect_view()}
        </section>
    }
}

/// One lesson: its title as the link, a still of its scene, and its summary.
#[component]
fn LessonCard(lesson: &'static Link, summary: &'static str, preview: Option<fn() -> crate::model::Machine>, stills: RwSignal<bool>) -> impl IntoView {
    view! {
        <li class="lesson-card" data-lesson=lesson.id>
            <a href=format!("?lesson={}", lesson.id)>{lesson.title}</a>
            {move || stills.get().then(|| preview.map(|preview| view! { <SceneThumbnail machine=preview() /> }))}
            <span class="summary">{summary}</span>
        </li>
    }
}
