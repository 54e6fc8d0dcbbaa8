//! The values one step carries, flown over the scene on a canvas laid on top of it: from a cell
//! to the lane that loads it, from a lane to the cell it stores to, the old value of a
//! read-modify-write back to its thread, an arrival into the barrier's gate.
//!
//! Painted rather than built from elements: a lockstep step of sixty-four lanes sends sixty-four
//! tokens, and as elements each would be created, styled and animated by the page on every step.
//! On a canvas a step only hands over a list, and each frame draws it.
//!
//! The same canvas paints the compact lanes' register values in place ([`Painted`]): sixty-four
//! SVG texts taking new numbers cost the page a relayout of every one of them each lockstep
//! step, where a frame paints them all in a fraction of a millisecond.

use crate::text::fixed;
use leptos::prelude::*;
use std::cell::RefCell;
use std::f64::consts::TAU;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// One value on its way, in the scene's own units.
#[derive(Clone, Debug, PartialEq)]
pub struct Flight {
    pub from: (f64, f64),
    pub to: (f64, f64),
    /// The value it carries (a thread's name for an arrival at the gate).
    pub label: String,
    /// The old value a read-modify-write returns, drawn in the read-modify-write's colours.
    pub rmw: bool,
}

/// A number painted where it stands, in the scene's own units: a compact lane's register.
#[derive(Clone, Debug, PartialEq)]
pub struct Painted {
    /// The middle of the text's baseline.
    pub at: (f64, f64),
    pub text: String,
    /// Drawn faint, like the rest of a finished thread's lane.
    pub faded: bool,
}

/// What the frames draw: the values painted in place, the flights of the latest step and when
/// they set off.
#[derive(Default)]
struct Flying {
    painted: Vec<Painted>,
    flights: Vec<Flight>,
    /// Milliseconds from take-off to landing.
    ms: f64,
    /// The first frame's timestamp, once drawn.
    started: Option<f64>,
    /// The scene's width in its own units (its viewBox), to scale to the drawn size.
    scene_width: f64,
    /// The scene's drawn size in CSS pixels, as its resize observer last saw it.
    scene_size: Option<(f64, f64)>,
    /// The device pixels a CSS pixel took when the canvas was last sized.
    ratio: f64,
    /// Set where the canvas's size, scale or colours may be out of date: the next frame
    /// prepares it first. A step alone leaves it as it is: measuring the scene and reading the
    /// theme at every step cost a lockstep step a tenth of a millisecond on a slow machine.
    unprepared: bool,
    /// Tokens are dots without numbers when the lanes are compact.
    compact: bool,
    pending_frame: Option<i32>,
    canvas: Option<HtmlCanvasElement>,
    context: Option<CanvasRenderingContext2d>,
    /// Token colours, read from the page's theme by the first frame that draws, and again after
    /// the system's colour scheme changes.
    colours: [String; 4],
    colours_read: bool,
    /// The frame callback, to ask for the next frame from within the current one.
    next: Option<web_sys::js_sys::Function>,
}

impl Flying {
    /// Sizes the canvas to the scene drawn under it, and reads the theme's colours where they
    /// may have changed. Called from a frame, never from the step itself.
    fn prepare(&mut self) -> Option<()> {
        let canvas = self.canvas.as_ref()?;
        let window = web_sys::window()?;
        let ratio = window.device_pixel_ratio();
        self.ratio = ratio;
        // Until the observer reports, measured here: in a frame, where the layout is due anyway.
        let (w, h) = match self.scene_size {
            Some(size) => size,
            None => {
                let rect = scene_of(canvas)?.get_bounding_client_rect();
                (rect.width(), rect.height())
            }
        };
        let (pixels_w, pixels_h) = ((w * ratio).round() as u32, (h * ratio).round() as u32);
        // Resizing clears the canvas and its settings: only when the scene's size changed.
        if (canvas.width(), canvas.height()) != (pixels_w, pixels_h) {
            let style = web_sys::HtmlElement::style(canvas);
            let _ = style.set_property("width", &format!("{}px", fixed(w, 2)));
            let _ = style.set_property("height", &format!("{}px", fixed(h, 2)));
            canvas.set_width(pixels_w);
            canvas.set_height(pixels_h);
        }
        if self.context.is_none() {
            self.context = canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into().ok());
        }
        let context = self.context.as_ref()?;
        let scale = ratio * w / self.scene_width.max(1.0);
        let _ = context.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0);
        context.set_text_align("center");
        if !self.colours_read {
            if let Ok(Some(computed)) = window.get_computed_style(canvas) {
                for (slot, name) in self.colours.iter_mut().zip(["--moved", "--fg", "--accent-soft", "--accent"]) {
                    *slot = computed.get_property_value(name).unwrap_or_default().trim().to_owned();
                }
                self.colours_read = true;
            }
        }
        Some(())
    }

    /// Asks for a frame, unless one is asked for already.
    fn want_frame(&mut self) {
        if self.pending_frame.is_none() {
            let next = self.next.clone();
            self.pending_frame = next.and_then(|n| web_sys::window()?.request_animation_frame(&n).ok());
        }
    }

    fn clear(&self) {
        if let (Some(canvas), Some(context)) = (&self.canvas, &self.context) {
            context.save();
            let _ = context.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
            context.clear_rect(0.0, 0.0, canvas.width() as f64, canvas.height() as f64);
            context.restore();
        }
    }

    /// Draws the painted values, then every token `progress` (0 to 1) of the way, easing in and
    /// out and fading as it lands; from 1 on, the values alone.
    fn draw(&self, progress: f64) {
        let Some(context) = &self.context else { return };
        self.clear();
        if !self.painted.is_empty() {
            // As the scene's compact lanes draw their text: 11 px, in the page's foreground colour.
            context.set_font("11px ui-monospace, SFMono-Regular, Menlo, monospace");
            context.set_fill_style_str(&self.colours[1]);
            for faded in [false, true] {
                context.set_global_alpha(if faded { 0.55 } else { 1.0 });
                for p in self.painted.iter().filter(|p| p.faded == faded) {
                    let _ = context.fill_text(&p.text, p.at.0, p.at.1);
                }
            }
            context.set_global_alpha(1.0);
        }
        if progress >= 1.0 || self.flights.is_empty() {
            return;
        }
        context.set_font("700 11px ui-monospace, SFMono-Regular, Menlo, monospace");
        let eased = if progress < 0.5 { 2.0 * progress * progress } else { 1.0 - (2.0 - 2.0 * progress).powi(2) / 2.0 };
        context.set_global_alpha(if progress > 0.85 { (1.0 - progress) / 0.15 } else { 1.0 });
        let radius = if self.compact { 5.0 } else { 10.0 };
        let [moved, fg, rmw_fill, rmw_stroke] = &self.colours;
        // Plain tokens first, then read-modify-writes, each kind one path filled and stroked
        // once: a lockstep step of sixty-four lanes is a few canvas calls a frame, not hundreds.
        let at = |f: &Flight| (f.from.0 + (f.to.0 - f.from.0) * eased, f.from.1 + (f.to.1 - f.from.1) * eased);
        for rmw in [false, true] {
            let (fill, stroke, width) = if rmw { (rmw_fill, rmw_stroke, 2.0) } else { (moved, fg, 1.0) };
            let mut kind = self.flights.iter().filter(|f| f.rmw == rmw).peekable();
            if kind.peek().is_none() {
                continue;
            }
            context.begin_path();
            for f in kind {
                let (x, y) = at(f);
                context.move_to(x + radius, y);
                let _ = context.arc(x, y, radius, 0.0, TAU);
            }
            context.set_fill_style_str(fill);
            context.fill();
            context.set_stroke_style_str(stroke);
            context.set_line_width(width);
            context.stroke();
        }
        if !self.compact {
            // Dark text on the light token in either theme.
            context.set_fill_style_str("#1c1d21");
            for f in &self.flights {
                let (x, y) = at(f);
                let _ = context.fill_text(&f.label, x, y + 4.0);
            }
        }
        context.set_global_alpha(1.0);
    }
}

/// The scene's `<svg>` under the canvas: the nearest one before it (while the canvas's chunk
/// loads, its placeholder stands between them).
fn scene_of(canvas: &HtmlCanvasElement) -> Option<web_sys::Element> {
    let mut at = canvas.previous_element_sibling();
    while let Some(element) = at {
        if element.tag_name().eq_ignore_ascii_case("svg") {
            return Some(element);
        }
        at = element.previous_element_sibling();
    }
    None
}

/// What tells the canvas that its scene changed size or the theme its colours: an observer of
/// the scene's size, which the browser runs after its layout (so nothing is measured out of
/// turn), and the system's colour scheme. Either way the scene is measured, the colours are to
/// be read again, and a frame paints what stands.
struct Watching {
    observer: Option<web_sys::ResizeObserver>,
    scheme: Option<web_sys::MediaQueryList>,
    changed: Closure<dyn FnMut()>,
}

impl Watching {
    fn start(canvas: &HtmlCanvasElement, flying: Rc<RefCell<Flying>>) -> Option<Watching> {
        let svg = scene_of(canvas)?;
        let changed = {
            let svg = svg.clone();
            Closure::<dyn FnMut()>::new(move || {
                let rect = svg.get_bounding_client_rect();
                let mut f = flying.borrow_mut();
                (f.scene_size, f.colours_read, f.unprepared) = (Some((rect.width(), rect.height())), false, true);
                if !(f.flights.is_empty() && f.painted.is_empty()) {
                    f.want_frame();
                }
            })
        };
        let callback = changed.as_ref().unchecked_ref();
        let observer = web_sys::ResizeObserver::new(callback).ok();
        if let Some(observer) = &observer {
            observer.observe(&svg);
        }
        let scheme = web_sys::window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
        if let Some(query) = &scheme {
            let _ = query.add_event_listener_with_callback("change", callback);
        }
        Some(Watching { observer, scheme, changed })
    }

    fn stop(self) {
        if let Some(observer) = &self.observer {
            observer.disconnect();
        }
        if let Some(query) = &self.scheme {
            let _ = query.remove_event_listener_with_callback("change", self.changed.as_ref().unchecked_ref());
        }
    }
}

/// A canvas over the scene's `<svg>` before it, flying each step's flights for `ms`
/// milliseconds over the `painted` values. `flights` pairs them with their step, so two steps
/// sending the same tokens both fly; an empty list stops them at once.
#[component]
pub fn TokenLayer(
    flights: Memo<(usize, Vec<Flight>)>,
    #[prop(into)] painted: Signal<Vec<Painted>>,
    #[prop(into)] ms: Signal<u32>,
    /// The scene's width in its own units.
    #[prop(into)]
    scene_width: Signal<f64>,
    #[prop(into)] compact: Signal<bool>,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let flying = Rc::new(RefCell::new(Flying::default()));
    let frame = {
        let flying = Rc::clone(&flying);
        Closure::<dyn FnMut(f64)>::new(move |now: f64| {
            let mut f = flying.borrow_mut();
            f.pending_frame = None;
            if f.flights.is_empty() && f.painted.is_empty() {
                f.clear();
                return;
            }
            // A zoom changes the device pixels a CSS pixel takes, and no size the observer sees.
            let zoomed = web_sys::window().is_some_and(|w| w.device_pixel_ratio() != f.ratio);
            if (std::mem::take(&mut f.unprepared) || zoomed) && f.prepare().is_none() {
                return;
            }
            let progress = if f.flights.is_empty() {
                1.0
            } else {
                let started = *f.started.get_or_insert(now);
                ((now - started) / f.ms.max(1.0)).min(1.0)
            };
            f.draw(progress);
            if progress >= 1.0 {
                return;
            }
            f.want_frame();
        })
    };
    flying.borrow_mut().next = Some(frame.as_ref().unchecked_ref::<web_sys::js_sys::Function>().clone());
    let frame = StoredValue::new_local(Some(frame));
    let state = StoredValue::new_local(Rc::clone(&flying));
    let watching = StoredValue::new_local(None::<Watching>);

    // The next frame takes over from a change: it clears what an earlier step left, or sets
    // new flights off over the new values.
    let next_frame = move |change: &mut dyn FnMut(&mut Flying)| {
        // Tracked: the effects run again once the canvas is in the page.
        let Some(element) = canvas.get() else { return };
        if watching.with_value(Option::is_none) {
            watching.set_value(Watching::start(&element, state.with_value(Rc::clone)));
        }
        state.with_value(|flying| {
            let mut f = flying.borrow_mut();
            if f.canvas.is_none() {
                (f.canvas, f.unprepared) = (Some(element), true);
            }
            let width = scene_width.get_untracked();
            if f.scene_width != width {
                (f.scene_width, f.unprepared) = (width, true);
            }
            change(&mut f);
            f.want_frame();
        });
    };
    let fly = RenderEffect::new(move |_| {
        let (_, list) = flights.get();
        let (ms, compact) = (ms.get_untracked(), compact.get_untracked());
        let mut list = Some(list);
        next_frame(&mut |f| {
            f.flights = list.take().unwrap_or_default();
            (f.ms, f.started, f.compact) = (ms as f64, None, compact);
        });
    });
    let paint = RenderEffect::new(move |_| {
        let mut values = Some(painted.get());
        next_frame(&mut |f| f.painted = values.take().unwrap_or_default());
    });
    StoredValue::new_local((fly, paint));
    on_cleanup(move || {
        // No frame may call the callback once it is gone.
        if let Some(id) = state.try_with_value(|f| f.borrow_mut().pending_frame.take()).flatten() {
            if let Some(w) = web_sys::window() {
                let _ = w.cancel_animation_frame(id);
            }
        }
        frame.try_update_value(|f| f.take());
        if let Some(Some(w)) = watching.try_update_value(Option::take) {
            w.stop();
        }
    });

    view! {
        <canvas class="tokens" node_ref=canvas aria-hidden="true" data-testid="scene-tokens"
            data-tokens=move || flights.with(|f| f.1.len())></canvas>
    }
}
