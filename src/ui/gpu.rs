//! The reader's GPU, shared by every panel of a page: connecting, what went wrong, and
//! reconnecting after a loss.

use crate::gpu::{GpuContext, GpuError};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

#[derive(Clone)]
pub enum GpuState {
    /// The GPU half has not been asked for yet: the reader has not come near the GPU panel.
    Waiting,
    Connecting,
    Ready(Rc<GpuContext>),
    Unavailable(GpuError),
}

/// A handle every component can copy; `use_context::<GpuHandle>()` finds it.
#[derive(Clone, Copy)]
pub struct GpuHandle {
    pub state: RwSignal<GpuState, LocalStorage>,
    /// Counts connections, so a loss reported by an old device cannot undo a reconnect.
    generation: RwSignal<u64>,
    /// Pipelines being compiled ahead of the reader's first run.
    pub warming: RwSignal<usize>,
    /// Whether the page wants its GPU half yet (see [`crate::ui::gpu_half::want_when_near`]); the GPU is
    /// looked for once it does.
    pub wanted: RwSignal<bool>,
    /// How this page opens its device: the binary's choice (see [`DeviceOpener`]).
    open: DeviceOpener,
}

/// How a page opens the reader's GPU: [`open_now`], or, on a lesson page of the split build,
/// the page binary's lazy wrapper around [`open_device`] (`page_main!`), which brings wgpu in
/// as a chunk of its own. Chosen by the binary and handed in: a call of [`open_device`] from
/// the library's own code would keep wgpu in every page's main module.
pub type DeviceOpener = fn(Box<dyn Fn(String) + Send>) -> Pin<Box<dyn Future<Output = Result<Rc<GpuContext>, GpuError>>>>;

/// Opens the device here and now: the index and the development builds.
pub fn open_now(on_lost: Box<dyn Fn(String) + Send>) -> Pin<Box<dyn Future<Output = Result<Rc<GpuContext>, GpuError>>>> {
    Box::pin(open_device(on_lost))
}

/// The pipelines a panel's next run will use: each kernel with its workgroup size.
/// The pipelines a panel's run will use: kernel, workgroup size, and the boolean override set, if any.
pub type Warm = Box<dyn Fn() -> Vec<(crate::gpu::Kernel, u32, Option<&'static str>)>>;

impl GpuHandle {
    /// A handle that opens the GPU with `open` at once, or, where `wanted_later`, once
    /// [`GpuHandle::wanted`] is set.
    pub fn connect_when_wanted(wanted_later: bool, open: DeviceOpener) -> Self {
        let handle = GpuHandle {
            state: RwSignal::new_local(GpuState::Waiting),
            generation: RwSignal::new(0),
            warming: RwSignal::new(0),
            wanted: RwSignal::new(!wanted_later),
            open,
        };
        if wanted_later {
            // Once: `wanted` never goes back to false.
            Effect::new(move |connected: Option<bool>| {
                if connected == Some(true) {
                    return true;
                }
                let wanted = handle.wanted.get();
                if wanted {
                    handle.connect();
                }
                wanted
            });
        } else {
            handle.connect();
        }
        handle
    }

    /// Asks for a new adapter and device (again, after a loss).
    pub fn connect(self) {
        self.state.set(GpuState::Connecting);
        let generation = self.generation.get_untracked() + 1;
        self.generation.set(generation);
        let state = self.state;
        let current = self.generation;
        let on_lost = move |why: String| {
            if current.try_get_untracked() == Some(generation) {
                state.try_set(GpuState::Unavailable(GpuError::DeviceLost(why)));
            }
        };
        spawn_local(async move {
            let next = match (self.open)(Box::new(on_lost)).await {
                Ok(ctx) => GpuState::Ready(ctx),
                Err(e) => GpuState::Unavailable(e),
            };
            if current.get_untracked() == generation {
                self.state.set(next);
            }
        });
    }

    /// Compiles the pipelines `kernels` names as soon as the GPU is ready, in the background,
    /// so the reader's first run finds them compiled (the pipeline cache shares a compile under
    /// way with a run that asks for it meanwhile). Again whenever what `kernels` reads changes,
    /// e.g. the variant chosen; compile errors are left for the run to report.
    ///
    /// One pipeline at a time, each asked for once the one before it is compiled. The browser
    /// compiles on its GPU process's main thread, which also sets up every new page's first
    /// frame: on a software adapter a compile holds it 0.3–0.6 s, and the scan's nine asked for
    /// at once held it 3 s, and with it the first drawing of the next page opened (measured:
    /// 2.6–3.8 s to drawn, against 0.5–0.7 s asked for one at a time; the whole warm-up takes
    /// as long either way).
    pub fn warm(self, kernels: Warm) {
        Effect::new(move |_| {
            let GpuState::Ready(ctx) = self.state.get() else { return };
            let kernels = kernels();
            self.warming.update(|n| *n += kernels.len());
            spawn_local(async move {
                for (kernel, workgroup_size, flag) in kernels {
                    let _ = ctx.pipeline_with(kernel, workgroup_size, flag).await;
                    self.warming.try_update(|n| *n = n.saturating_sub(1));
                }
            });
        });
    }

    pub fn context(self) -> Option<Rc<GpuContext>> {
        match self.state.get() {
            GpuState::Ready(ctx) => Some(ctx),
            _ => None,
        }
    }

    /// Records a failed run: a lost device turns the whole page's GPU state to unavailable,
    /// so every panel offers the reconnect.
    pub fn report(self, error: &GpuError) {
        if matches!(error, GpuError::DeviceLost(_)) {
            self.state.set(GpuState::Unavailable(error.clone()));
        }
    }
}

/// Opens the reader's GPU: what brings wgpu in. Reached only through a [`DeviceOpener`].
pub async fn open_device(on_lost: Box<dyn Fn(String) + Send>) -> Result<Rc<GpuContext>, GpuError> {
    let ctx = Rc::new(GpuContext::acquire_with_lost_callback(on_lost).await?);
    debug_hooks::install(&ctx);
    Ok(ctx)
}

/// Compiles, in the background as the GPU half arrives, the pipelines a panel's run will use (see
/// [`GpuHandle::warm`]).
pub fn warm(kernels: impl Fn() -> Vec<(crate::gpu::Kernel, u32)> + 'static) {
    warm_flagged(move || kernels().into_iter().map(|(kernel, width)| (kernel, width, None)).collect());
}

/// The same where a kernel is also compiled with a boolean override set (a way of its own).
pub fn warm_flagged(kernels: impl Fn() -> Vec<(crate::gpu::Kernel, u32, Option<&'static str>)> + 'static) {
    expect_context::<GpuHandle>().warm(Box::new(kernels));
}

/// Milliseconds on the page's clock, for wall-clock round trips.
pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// One line naming the adapter, or saying why there is none and what to do. In the split build
/// a part of the GPU half: until it comes, the line says the GPU is looked for further down.
#[component]
pub fn GpuStatus() -> impl IntoView {
    #[cfg(feature = "split")]
    return split_status();
    #[cfg(not(feature = "split"))]
    status_line()
}

/// [`GpuStatus`] in the split build: the waiting line, then, once the GPU is wanted, the status
/// line from the GPU half.
#[cfg(feature = "split")]
fn split_status() -> AnyView {
    use crate::ui::gpu_half::{loaded, GpuHalf, GpuPart, Part};
    let gpu = expect_context::<GpuHandle>();
    let Some(GpuHalf { load, .. }) = use_context::<GpuHalf>() else {
        return waiting_line();
    };
    (move || if gpu.wanted.get() { loaded(load(GpuPart::new(Part::Status, ()))) } else { waiting_line() }).into_any()
}

/// The line before the GPU is looked for.
pub fn waiting_line() -> AnyView {
    view! {
        <p class="gpu-status" data-testid="gpu-status" data-state="waiting">"Your GPU is looked for as you reach this panel."</p>
    }
    .into_any()
}

/// [`GpuStatus`]'s line, following the GPU's state.
pub fn status_line() -> AnyView {
    let gpu = expect_context::<GpuHandle>();
    (move || match gpu.state.get() {
        GpuState::Waiting => waiting_line(),
        GpuState::Connecting => view! {
            <p class="gpu-status" data-testid="gpu-status" data-state="connecting">"Looking for a GPU…"</p>
        }
        .into_any(),
        GpuState::Ready(ctx) => {
            let a = &ctx.adapter;
            let detail = format!(
                "{}{}{}",
                a.device_type,
                if a.driver.is_empty() { String::new() } else { format!(", {}", a.driver) },
                if a.has_timestamps { ", timestamp queries" } else { ", no timestamp queries" }
            );
            view! {
                <p class="gpu-status" data-testid="gpu-status" data-state="ready" data-warming=move || gpu.warming.get()>
                    "Your GPU: " <strong data-testid="adapter-name">{a.name.clone()}</strong>
                    <span class="muted">" (" {detail} ")"</span>
                </p>
            }
            .into_any()
        }
        GpuState::Unavailable(e) => {
            let recoverable = e.is_recoverable();
            // `data-state` is the same for every cause; `data-reason` names which one.
            view! {
                <div class="notice warn gpu-status" role="alert" data-testid="gpu-status" data-state="unavailable" data-reason=e.reason()>
                    <p data-testid="gpu-unavailable">{e.to_string()}</p>
                    <Show when=move || recoverable>
                        <button data-testid="gpu-reconnect" on:click=move |_| gpu.connect()>"Reconnect"</button>
                    </Show>
                </div>
            }
            .into_any()
        }
    })
    .into_any()
}

/// With `?debug=1` in the URL, `window.syncscope.loseDevice()` destroys the device, as a driver
/// reset would: the browser tests use it to check the lost-device state and the reconnect.
mod debug_hooks {
    use crate::gpu::GpuContext;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;

    pub fn install(ctx: &Rc<GpuContext>) {
        if crate::site::query::get("debug").as_deref() != Some("1") {
            return;
        }
        let Some(window) = web_sys::window() else { return };
        let ctx = Rc::downgrade(ctx);
        let lose = Closure::<dyn Fn()>::new(move || {
            if let Some(ctx) = ctx.upgrade() {
                ctx.destroy();
            }
        });
        let api = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&api, &"loseDevice".into(), lose.as_ref());
        let _ = js_sys::Reflect::set(&window, &"syncscope".into(), &api);
        lose.forget();
    }
}
