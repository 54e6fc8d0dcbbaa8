//! One square per invocation, in invocation order, coloured by the ticket it took: early
//! tickets dark, late ones light. Blocks of one shade are workgroups the GPU served whole.

use leptos::prelude::*;

/// Most squares drawn; a larger run shows its first invocations and says so.
pub const MAX_CELLS: usize = 4096;
const COLUMNS: usize = 64;
const CELL: usize = 9;

/// Viridis at five stops: ordered from dark to light, told apart under the common colour-vision
/// deficiencies and in greyscale.
const STOPS: [(f64, f64, f64); 5] = [(68.0, 1.0, 84.0), (59.0, 82.0, 139.0), (33.0, 145.0, 140.0), (94.0, 201.0, 98.0), (253.0, 231.0, 37.0)];

fn colour(fraction: f64) -> String {
    let x = fraction.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |p: f64, q: f64| (p + (q - p) * f).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The grid's SVG body. Only numbers go into it, never text from outside.
fn squares(tickets: &[u32]) -> String {
    let top = tickets.iter().copied().max().unwrap_or(0).max(1) as f64;
    let mut out = String::with_capacity(tickets.len().min(MAX_CELLS) * 64);
    for (i, &t) in tickets.iter().take(MAX_CELLS).enumerate() {
        let (x, y) = ((i % COLUMNS) * CELL, (i / COLUMNS) * CELL);
        out.push_str(&format!("<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{w}\" fill=\"{}\"/>", colour(f64::from(t) / top), w = CELL - 1));
    }
    out
}

#[component]
pub fn TicketGrid(tickets: Vec<u32>, workgroup_size: u32) -> impl IntoView {
    let shown = tickets.len().min(MAX_CELLS);
    let rows = shown.div_ceil(COLUMNS);
    let (w, h) = (COLUMNS * CELL, rows.max(1) * CELL);
    let markup = squares(&tickets);
    let legend: String = (0..=8).map(|i| format!("<rect x=\"{}\" y=\"0\" width=\"24\" height=\"10\" fill=\"{}\"/>", i * 24, colour(i as f64 / 8.0))).collect();
    view! {
        <figure class="ticket-grid" data-testid="ticket-grid">
            <svg viewBox=format!("0 0 {w} {h}") role="img" preserveAspectRatio="xMinYMin meet"
                aria-label=format!("{shown} invocations in rows of {COLUMNS}, each coloured by the ticket it took") inner_html=markup></svg>
            <figcaption>
                <svg class="legend" viewBox="0 0 216 10" aria-hidden="true" inner_html=legend></svg>
                <span>"ticket 0 (served first) → ticket " {tickets.len().saturating_sub(1).to_string()} " (served last). Rows of "
                    {COLUMNS.to_string()} " invocations, in invocation order; workgroups of " {workgroup_size.to_string()} "."</span>
                {(tickets.len() > MAX_CELLS).then(|| view! { <span class="muted">{format!(" The first {MAX_CELLS} of {} invocations are drawn.", tickets.len())}</span> })}
            </figcaption>
        </figure>
    }
}
