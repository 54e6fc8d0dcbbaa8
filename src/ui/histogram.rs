//! A small SVG bar chart with labelled axes: how often each value came up.

use crate::ui::number::Num;
use leptos::prelude::*;

const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 48.0;
const BOTTOM: f64 = 40.0;
const TOP: f64 = 18.0;
const RIGHT: f64 = 12.0;

#[component]
pub fn Histogram(
    /// `(value, count)` pairs, in the order to draw them.
    #[prop(into)]
    bins: Signal<Vec<(u32, u32)>>,
    x_label: &'static str,
    y_label: &'static str,
    /// Values the model allows are drawn plainly; any other value is drawn as an alarm.
    #[prop(into)]
    allowed: Signal<std::ops::RangeInclusive<u32>>,
) -> impl IntoView {
    let chart = move || {
        let bins = bins.get();
        let allowed = allowed.get();
        let max = bins.iter().map(|b| b.1).max().unwrap_or(1).max(1);
        let plot_w = WIDTH - LEFT - RIGHT;
        let plot_h = HEIGHT - TOP - BOTTOM;
        let slot = plot_w / bins.len().max(1) as f64;
        let bar_w = (slot * 0.8).clamp(1.0, 48.0);
        let label_every = (bins.len() / 12).max(1);
        let bars = bins
            .iter()
            .enumerate()
            .map(|(i, &(value, count))| {
                // A bar for a rare value stays visible next to a common one.
                let h = (plot_h * f64::from(count) / f64::from(max)).max(if count > 0 { 2.0 } else { 0.0 });
                let x = LEFT + slot * i as f64 + (slot - bar_w) / 2.0;
                let y = TOP + plot_h - h;
                let ok = allowed.contains(&value);
                let label = (i % label_every == 0).then(|| {
                    view! {
                        <text x=Num(x + bar_w / 2.0) y=Num(HEIGHT - BOTTOM + 16.0) text-anchor="middle" class="tick">
                            {value.to_string()}
                        </text>
                    }
                });
                // With few bars each carries its count, so small ones can be read too.
                let count_label = (bins.len() <= 24).then(|| {
                    view! {
                        <text x=Num(x + bar_w / 2.0) y=Num(y - 3.0) text-anchor="middle" class="tick">{count.to_string()}</text>
                    }
                });
                view! {
                    <rect x=Num(x) y=Num(y) width=Num(bar_w) height=Num(h) class=if ok { "bar" } else { "bar outside" }>
                        <title>{format!("{value}: {count} {y_label}")}</title>
                    </rect>
                    {count_label}
                    {label}
                }
            })
            .collect_view();
        view! {
            <line x1=Num(LEFT) y1=Num(TOP + plot_h) x2=Num(WIDTH - RIGHT) y2=Num(TOP + plot_h) class="axis" />
            <line x1=Num(LEFT) y1=Num(TOP) x2=Num(LEFT) y2=Num(TOP + plot_h) class="axis" />
            <text x=Num(LEFT - 6.0) y=Num(TOP + 4.0) text-anchor="end" class="tick">{max.to_string()}</text>
            <text x=Num(LEFT - 6.0) y=Num(TOP + plot_h) text-anchor="end" class="tick">"0"</text>
            {bars}
        }
    };
    let summary = move || bins.get().iter().map(|(v, c)| format!("{v}: {c}")).collect::<Vec<_>>().join(", ");
    view! {
        <figure class="histogram-chart" data-testid="histogram">
            <svg viewBox=format!("0 0 {} {}", Num(WIDTH), Num(HEIGHT)) role="img" aria-label=move || format!("{y_label} by {x_label}: {}", summary())>
                {chart}
                <text x=Num(LEFT + (WIDTH - LEFT - RIGHT) / 2.0) y=Num(HEIGHT - 4.0) text-anchor="middle" class="axis-label">{x_label}</text>
                <text x=Num(12.0) y=Num(TOP + (HEIGHT - TOP - BOTTOM) / 2.0) text-anchor="middle" class="axis-label"
                    transform=format!("rotate(-90 12 {})", Num(TOP + (HEIGHT - TOP - BOTTOM) / 2.0))>{y_label}</text>
            </svg>
        </figure>
    }
}
