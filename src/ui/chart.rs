//! A small line chart in SVG: a few series over the same x values, x labelled by the caller
//! (the sweep's 1, 2, 4 … 256 bins, evenly spaced), y from 0 to the largest value with its
//! unit. Series differ by dash pattern and marker shape as well as colour, and a table of
//! the same numbers goes with every chart for screen readers and copying.

use crate::text::Float;
use crate::ui::number::Num;
use leptos::prelude::*;

pub struct Series {
    pub name: &'static str,
    /// One value per x label; `None` where there is no measurement.
    pub values: Vec<Option<f64>>,
}

const WIDTH: f64 = 520.0;
const HEIGHT: f64 = 240.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 26.0;
const BOTTOM: f64 = 44.0;
const DASHES: [&str; 3] = ["", "6 4", "2 3"];

/// The chart's SVG body. Only numbers and the caller's constant labels go into it.
fn body(x_labels: &[String], x_title: &str, y_unit: &str, series: &[Series]) -> String {
    let top = series.iter().flat_map(|s| s.values.iter().flatten()).fold(0.0f64, |a, &b| a.max(b));
    let top = if top > 0.0 { top * 1.1 } else { 1.0 };
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let x = |i: usize| LEFT + plot_w * (i as f64 + 0.5) / x_labels.len().max(1) as f64;
    let y = |v: f64| TOP + plot_h * (1.0 - v / top);
    let mut out = String::new();
    out += &format!("<line class=\"axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{1}\"/>", Num(LEFT), Num(TOP + plot_h), Num(WIDTH - RIGHT));
    out += &format!("<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", Num(LEFT), Num(TOP), Num(TOP + plot_h));
    for k in 0..=4 {
        let v = top * f64::from(k) / 4.0;
        out += &format!("<text class=\"tick\" x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>", Num(LEFT - 4.0), Float(y(v) + 4.0), short(v));
    }
    for (i, label) in x_labels.iter().enumerate() {
        out += &format!("<text class=\"tick\" x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{label}</text>", Float(x(i)), Num(TOP + plot_h + 14.0));
    }
    out += &format!("<text class=\"axis-label\" x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{x_title}</text>", Float(LEFT + plot_w / 2.0), Num(HEIGHT - 6.0));
    out += &format!("<text class=\"axis-label\" x=\"4\" y=\"4\" dominant-baseline=\"hanging\">{y_unit}</text>");
    for (k, s) in series.iter().enumerate() {
        let points: Vec<String> = s.values.iter().enumerate().filter_map(|(i, v)| v.map(|v| format!("{:.1},{:.1}", Float(x(i)), Float(y(v))))).collect();
        out += &format!("<polyline class=\"series s{k}\" fill=\"none\" stroke-dasharray=\"{}\" points=\"{}\"/>", DASHES[k % DASHES.len()], points.join(" "));
        for p in &points {
            let (px, py) = p.split_once(',').unwrap_or(("0", "0"));
            out += &match k % 3 {
                0 => format!("<circle class=\"series s{k}\" cx=\"{px}\" cy=\"{py}\" r=\"3.5\"/>"),
                1 => format!("<rect class=\"series s{k}\" x=\"{px}\" y=\"{py}\" width=\"7\" height=\"7\" transform=\"translate(-3.5 -3.5)\"/>"),
                _ => format!("<path class=\"series s{k}\" d=\"M{px} {py} m0 -4.5 l4 7.5 h-8 z\"/>"),
            };
        }
    }
    out
}

/// A number as a tick shows it: few digits.
fn short(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v >= 100.0 {
        format!("{v:.0}", v = Float(v))
    } else if v >= 1.0 {
        format!("{v:.1}", v = Float(v))
    } else {
        format!("{v:.3}", v = Float(v))
    }
}

#[component]
pub fn LineChart(
    title: String,
    x_labels: Vec<String>,
    x_title: &'static str,
    y_unit: &'static str,
    series: Vec<Series>,
    #[prop(optional)] test_id: Option<&'static str>,
) -> impl IntoView {
    let svg = body(&x_labels, x_title, y_unit, &series);
    figure(title, svg, &series, "", test_id)
}

/// A chart's frame: caption, the SVG body, and a legend naming each series in its class.
fn figure(title: String, svg: String, series: &[Series], legend_class: &str, test_id: Option<&'static str>) -> impl IntoView {
    let legend = series.iter().enumerate().map(|(k, s)| view! { <li class=format!("{legend_class}s{k}")>{s.name}</li> }).collect_view();
    view! {
        <figure class="chart" data-testid=test_id>
            <figcaption>{title.clone()}</figcaption>
            <svg viewBox=format!("0 0 {} {}", Num(WIDTH), Num(HEIGHT)) role="img" aria-label=title inner_html=svg></svg>
            <ul class="legend">{legend}</ul>
        </figure>
    }
}

/// Bars on a log scale: for counts that span from 0 to millions, where a weak outcome seen
/// 3 times beside 60,000 sequential ones must still show. Groups along x (one per outcome),
/// one bar per series in each group; each bar carries its count as a number, and a count of
/// 0 is written "0" with no bar (log 0 has no height).
fn log_bars_body(groups: &[&str], series: &[Series]) -> String {
    let top = series.iter().flat_map(|s| s.values.iter().flatten()).fold(1.0f64, |a, &b| a.max(b));
    let decades = top.log10().ceil().max(1.0);
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    // log10(1) = 0 sits on the axis, so a count of 1 is a sliver: lift everything by half a decade.
    let y = |v: f64| TOP + plot_h * (1.0 - (v.log10() + 0.5) / (decades + 0.5));
    let group_w = plot_w / groups.len().max(1) as f64;
    let bar_w = (group_w * 0.8 / series.len().max(1) as f64).min(40.0);
    let base = TOP + plot_h;
    let mut out = String::new();
    out += &format!("<line class=\"axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{1}\"/>", Num(LEFT), Num(base), Num(WIDTH - RIGHT));
    out += &format!("<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", Num(LEFT), Num(TOP), Num(base));
    for k in 0..=decades as i32 {
        let v = 10f64.powi(k);
        out += &format!("<line class=\"grid\" x1=\"{2}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\"/>", Float(y(v)), Num(WIDTH - RIGHT), Num(LEFT));
        out += &format!("<text class=\"tick\" x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>", Num(LEFT - 4.0), Float(y(v) + 4.0), power_of_ten(k));
    }
    for (g, name) in groups.iter().enumerate() {
        let left = LEFT + group_w * g as f64 + (group_w - bar_w * series.len() as f64) / 2.0;
        for (k, s) in series.iter().enumerate() {
            let x = left + bar_w * k as f64;
            let cx = x + bar_w / 2.0;
            match s.values.get(g).copied().flatten() {
                Some(v) if v > 0.0 => {
                    out += &format!(
                        "<rect class=\"bar s{k}\" x=\"{x:.1}\" y=\"{0:.1}\" width=\"{1:.1}\" height=\"{2:.1}\"/>",
                        Float(y(v)),
                        Float(bar_w - 2.0),
                        Float(base - y(v)),
                        x = Float(x)
                    );
                    out += &format!(
                        "<text class=\"count\" x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                        Float(y(v) - 3.0),
                        compact(v),
                        cx = Float(cx)
                    );
                }
                Some(_) => {
                    out += &format!("<text class=\"count zero\" x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">0</text>", Float(base - 3.0), cx = Float(cx))
                }
                None => {}
            }
        }
        out += &format!(
            "<text class=\"tick\" x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{name}</text>",
            Float(LEFT + group_w * (g as f64 + 0.5)),
            Num(base + 14.0)
        );
    }
    out += "<text class=\"axis-label\" x=\"4\" y=\"4\" dominant-baseline=\"hanging\">instances (log scale)</text>";
    out
}

fn power_of_ten(k: i32) -> String {
    match k {
        0 => "1".into(),
        1 => "10".into(),
        2 => "100".into(),
        3 => "1k".into(),
        4 => "10k".into(),
        5 => "100k".into(),
        6 => "1M".into(),
        7 => "10M".into(),
        8 => "100M".into(),
        9 => "1G".into(),
        _ => format!("1e{k}"),
    }
}

/// A count in a few characters, so neighbouring bars' labels stay apart: 7, 1.2k, 66k, 4.2M, 52M.
fn compact(v: f64) -> String {
    if v >= 1e7 {
        format!("{:.0}M", Float(v / 1e6))
    } else if v >= 1e6 {
        format!("{:.1}M", Float(v / 1e6))
    } else if v >= 1e4 {
        format!("{:.0}k", Float(v / 1e3))
    } else if v >= 1e3 {
        format!("{:.1}k", Float(v / 1e3))
    } else {
        format!("{v:.0}", v = Float(v))
    }
}

#[component]
pub fn LogBarChart(title: String, groups: Vec<&'static str>, series: Vec<Series>, #[prop(optional)] test_id: Option<&'static str>) -> impl IntoView {
    let svg = log_bars_body(&groups, &series);
    figure(title, svg, &series, "bar ", test_id)
}
