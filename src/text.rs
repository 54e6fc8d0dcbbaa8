//! Text written for the page by hand: coordinates, sizes and path data as numbers, and text made
//! safe inside markup.
//!
//! Rust's float formatting (`{}` and `{:.1}` on an `f64`, and every `f64` handed to a view as
//! an attribute, which Leptos writes with `to_string`) brings about 11 KB of code into a page's
//! wasm, 5 KB after gzip. A scene needs none of its precision: a tenth of a pixel is finer than
//! any screen draws.

use std::fmt;

/// Text made safe inside markup and its attributes.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Thousands set apart with commas, as the pages' words write them: `100,000`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `x` rounded to `places` decimals (at most 6), trailing zeros and a bare point dropped:
/// `12.5`, `3`, `-0.25`.
pub struct Fixed {
    value: f64,
    places: u32,
}

/// `value` with at most `places` decimals, for `format!` (path data, sizes in CSS).
pub fn fixed(value: f64, places: u32) -> Fixed {
    Fixed { value, places: places.min(6) }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.value.is_finite() {
            // Nothing drawn has an infinite coordinate; a zero keeps the markup valid.
            return f.write_str("0");
        }
        let scale = 10u64.pow(self.places);
        let scaled = (self.value.abs() * scale as f64).round() as u64;
        if scaled == 0 {
            return f.write_str("0");
        }
        if self.value < 0.0 {
            f.write_str("-")?;
        }
        write!(f, "{}", scaled / scale)?;
        let mut fraction = scaled % scale;
        if fraction == 0 {
            return Ok(());
        }
        // Leading zeros kept, trailing zeros dropped: 0.05 is "05", 0.50 is "5".
        let mut width = self.places as usize;
        while fraction % 10 == 0 {
            fraction /= 10;
            width -= 1;
        }
        write!(f, ".{fraction:0width$}")
    }
}

#[cfg(test)]
mod tests {
    use super::{fixed, grouped};

    #[test]
    fn sets_thousands_apart() {
        for (n, text) in [(0, "0"), (999, "999"), (1_000, "1,000"), (100_000, "100,000"), (1_234_567, "1,234,567"), (u64::MAX, "18,446,744,073,709,551,615")] {
            assert_eq!(grouped(n), text);
        }
    }

    #[test]
    fn writes_as_few_digits_as_the_value_needs() {
        for (value, places, text) in [
            (12.5, 2, "12.5"),
            (3.0, 2, "3"),
            (-0.25, 2, "-0.25"),
            (0.05, 2, "0.05"),
            (0.004, 2, "0"),
            (-0.004, 2, "0"),
            (1.999, 2, "2"),
            (199.96, 1, "200"),
            (7.25, 1, "7.3"),
            (1234.0, 0, "1234"),
            (-1.23456, 3, "-1.235"),
            (f64::NAN, 2, "0"),
            (f64::INFINITY, 1, "0"),
        ] {
            assert_eq!(fixed(value, places).to_string(), text, "{value} to {places} places");
        }
    }

    #[test]
    fn agrees_with_rusts_formatting_once_its_zeros_are_dropped() {
        let trim = |s: String| {
            let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_owned() } else { s };
            if s == "-0" {
                "0".to_owned()
            } else {
                s
            }
        };
        // Quarter-pixels and thirds over the range a scene spans, both signs.
        for i in -4000..4000 {
            for value in [f64::from(i) / 4.0, f64::from(i) / 3.0] {
                for places in 0..=3 {
                    let ours = fixed(value, places).to_string();
                    let rusts = trim(format!("{value:.*}", places as usize));
                    // Rust rounds exact ties to even, ours away from zero: only there may they differ.
                    let scaled = value.abs() * 10f64.powi(places as i32);
                    assert!(ours == rusts || scaled.fract() == 0.5, "{value} to {places}: {ours} against {rusts}");
                }
            }
        }
    }
}
