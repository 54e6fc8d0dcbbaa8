//! The site in the browser: mounting, the header, the index and the router, which opens the
//! page [`crate::lessons::LESSONS`] names for `?lesson=`.

mod home;

use crate::lessons::{entry, link, LINKS};
use crate::site::{embed, param, query};
use crate::ui::GpuHandle;
use leptos::prelude::*;

/// What builds a page.
type PageView = fn() -> AnyView;

/// Which pages one wasm carries. The built site gives each page a wasm of its own (see
/// `src/bin/`), so a reader downloads the page they open and nothing else; development builds
/// carry them all, so one build serves every page.
#[derive(Clone, Copy)]
pub enum Pages {
    /// Every page, chosen by `?lesson=` when the page starts (`scripts/serve.sh`): the finder
    /// is held here, not called by name from [`App`], so a one-page wasm never links the table.
    Whole(fn(&str) -> Option<&'static crate::lessons::LessonInfo>),
    /// The index: the course, and the message for a `?lesson=` no page has.
    Index,
    /// One lesson or reference page.
    One { id: &'static str, page: fn() -> AnyView },
}

impl Pages {
    pub const WHOLE: Pages = Pages::Whole(crate::lessons::find);

    /// The page `id` names, taken from the table at compile time: in a `static`, only that
    /// page's code comes into the wasm.
    pub const fn one(id: &'static str) -> Pages {
        let lesson = entry(id);
        Pages::One { id: lesson.id, page: lesson.page }
    }
}

/// What a binary hands the app besides its pages: how the GPU is opened and, in the split
/// build, the loaders of the parts that come as chunks of their own. Each binary names these
/// itself (`page_main!`, `src/main.rs`), so that the library's code never calls the code a
/// chunk holds: one such call would keep that code in every page's main module.
#[derive(Clone, Copy)]
pub struct Wiring {
    pub open_device: crate::ui::gpu::DeviceOpener,
    /// The page's GPU half (and the GPU's status line); none, and the status line waits.
    #[cfg(feature = "split")]
    pub gpu_half: Option<crate::ui::gpu_half::Loader>,
    /// The parts of the model's view a run that has moved needs (`ui::moving`); none, and they
    /// keep their placeholders.
    #[cfg(feature = "split")]
    pub moving: Option<crate::ui::moving::Loader>,
}

impl Wiring {
    /// The device opened at once, and nothing loaded later.
    pub const DIRECT: Wiring = Wiring {
        open_device: crate::ui::gpu::open_now,
        #[cfg(feature = "split")]
        gpu_half: None,
        #[cfg(feature = "split")]
        moving: None,
    };
}

/// Starts the site with `pages`, wired as `wiring` says.
pub fn start(pages: &'static Pages, wiring: Wiring) {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(move || view! { <App pages=pages wiring=wiring /> });
}

#[component]
fn App(pages: &'static Pages, wiring: Wiring) -> impl IntoView {
    // A page of the split build looks for the GPU once the reader nears its GPU panel (never,
    // on a page without one).
    #[cfg(feature = "split")]
    let later = matches!(pages, Pages::One { .. });
    #[cfg(not(feature = "split"))]
    let later = false;
    let gpu = GpuHandle::connect_when_wanted(later, wiring.open_device);
    provide_context(gpu);
    #[cfg(feature = "split")]
    {
        if let Some(load) = wiring.gpu_half {
            provide_context(crate::ui::gpu_half::GpuHalf { load, wanted: gpu.wanted });
        }
        if let Some(load) = wiring.moving {
            provide_context(crate::ui::moving::Chunk(load));
        }
    }
    let lesson = query::get("lesson").filter(|id| !id.is_empty());
    let chosen: Option<(&'static str, PageView)> = match *pages {
        Pages::Whole(find) => lesson.as_deref().and_then(find).map(|l| (l.id, l.page)),
        Pages::Index => None,
        Pages::One { id, page } => Some((id, page)),
    };
    let embedded = embed::requested();
    if embedded {
        // Only a known lesson's id (a constant) is ever put in the message, never the URL's text.
        embed::start(chosen.map_or("", |(id, _)| id));
    }
    let page =
        match (chosen, lesson) {
            (Some((id, page)), _) => {
                // Each page its own title in the tab, the history and a bookmark.
                if let (Some(document), Some(l)) = (web_sys::window().and_then(|w| w.document()), link(id)) {
                    document.set_title(&format!("{} — syncscope", l.title));
                }
                let page = page();
                // The course goes on from the end of every page, the lab and the reference too (not
                // inside an embedding frame, where another lesson would replace the one the notes chose).
                let (previous, next) = crate::lessons::neighbours(id);
                let nav = (!embedded && (previous.is_some() || next.is_some())).then(|| view! {
                <nav class="lesson-nav" aria-label="previous and next page">
                    {previous.map(|l| view! { <a rel="prev" href=format!("?lesson={}", l.id) data-testid="lesson-prev">{format!("← {}", l.title)}</a> })}
                    {next.map(|l| view! { <a rel="next" href=format!("?lesson={}", l.id) data-testid="lesson-next">{format!("{} →", l.title)}</a> })}
                </nav>
            });
                view! { {page} {nav} }.into_any()
            }
            (None, None) => home::Home().into_any(),
            (None, Some(other)) => {
                let message = match link(&other) {
                    // Only when this wasm was started for a page it does not carry.
                    Some(known) => format!("This build of the site has no page for “{}”.", known.title),
                    None => param::one_of("lesson", &other, &LINKS.iter().map(|l| l.id).collect::<Vec<_>>()).err().unwrap_or_default(),
                };
                view! {
                    <p class="notice warn" role="alert" data-testid="param-error">{message}</p>
                    {home::Home()}
                }
                .into_any()
            }
        };
    let header = (!embedded).then(|| {
        view! {
            <header class="site">
                <a class="brand" href="?">"syncscope"</a>
                <span class="tagline">"GPU synchronization, stepped and run for real"</span>
            </header>
        }
    });
    let open_whole = embedded.then(|| {
        view! {
            <p class="embed-credit">
                <a href=full_page_link() target="_blank" rel="noopener" data-testid="open-full"
                    on:click=|e| {
                        use wasm_bindgen::JsCast;
                        if let Some(a) = e.current_target().and_then(|t| t.dyn_into::<web_sys::HtmlAnchorElement>().ok()) {
                            a.set_href(&full_page_link());
                        }
                    }>"Open in syncscope ↗"</a>
            </p>
        }
    });
    view! {
        {header}
        <main id="main">{page}</main>
        {open_whole}
    }
}

/// This page's address without `embed=1`: the lesson in a tab of its own, state and all.
/// Taken again on click, so it carries the state the reader has reached since.
fn full_page_link() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return "?".into() };
    let search = location.search().unwrap_or_default();
    let kept: Vec<&str> = search.trim_start_matches('?').split('&').filter(|kv| !kv.is_empty() && !kv.starts_with("embed=")).collect();
    format!("{}?{}", location.pathname().unwrap_or_default(), kept.join("&"))
}
