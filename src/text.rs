//! Text written for the page by hand: coordinates, sizes and path data as numbers, and text made
//! safe inside markup.
//!
//! Rust's float formatting (`{}` and `{:.1}` on an `f64`, and every `f64` handed to a view as
//! an attribute, which Leptos writes with `to_string`) brings about 11 KB of code into a page's
//! wasm, 5 KB after gzip. A scene needs none of its precision: a tenth of a pixel is finer than
//! any screen draws; and a figure on a page shows a few decimals at most, which [`Float`] writes.

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

/// An `f64` for `format!` and `write!`, written by its own digits rather than by Rust's float
/// formatting: with a precision (`{:.1}`, `{x:.3}`) its decimals, zeros kept, as Rust writes
/// them but for exact ties, which round away from zero, and for a negative that rounds to
/// zero, written without its sign; without, at most six decimals, zeros dropped. No width or
/// alignment (no page pads a figure). Not a number and the infinities as Rust writes them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Float(pub f64);

impl fmt::Display for Float {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Float(value) = *self;
        if value.is_nan() {
            return f.write_str("NaN");
        }
        if value.is_infinite() {
            return f.write_str(if value < 0.0 { "-inf" } else { "inf" });
        }
        // Apart from `Fixed`, which every scene draws with: this stays in the code that shows
        // figures, most of it fetched with a page's GPU half.
        let Some(places) = f.precision() else { return fixed(value, 6).fmt(f) };
        // Decimals that would not fit a u64 once scaled are given up, from the last: no figure
        // on a page comes near 10^13.
        let (mut places, mut scale) = (places.min(6), 10u64.pow(places.min(6) as u32));
        while places > 0 && value.abs() * scale as f64 >= 1e18 {
            (places, scale) = (places - 1, scale / 10);
        }
        let scaled = (value.abs() * scale as f64).round() as u64;
        let sign = if value < 0.0 && scaled != 0 { "-" } else { "" };
        match places {
            0 => write!(f, "{sign}{scaled}"),
            _ => write!(f, "{sign}{}.{:0places$}", scaled / scale, scaled % scale),
        }
    }
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
    use super::{fixed, grouped, Float};

    #[test]
    fn a_float_keeps_the_decimals_asked_for() {
        for (value, text) in [(2.5, "2.50"), (3.0, "3.00"), (-0.25, "-0.25"), (0.004, "0.00"), (-0.004, "0.00"), (1234.5678, "1234.57")] {
            assert_eq!(format!("{:.2}", Float(value)), text);
        }
        assert_eq!(format!("{:.0}", Float(99.6)), "100");
        assert_eq!(format!("{x:.1} ms", x = Float(7.25)), "7.3 ms");
        assert_eq!(format!("{}", Float(0.1 + 0.2)), "0.3");
        assert_eq!(format!("{}", Float(24.0)), "24");
        assert_eq!([Float(f64::NAN), Float(f64::INFINITY), Float(f64::NEG_INFINITY)].map(|x| format!("{x:.1}")), ["NaN", "inf", "-inf"]);
        // Past what a u64 holds once scaled, decimals are given up rather than the digits.
        assert_eq!(format!("{:.3}", Float(1.5e16)), "15000000000000000.0");
    }

    #[test]
    fn a_float_agrees_with_rusts_formatting_but_at_exact_ties() {
        // Figures as pages show them: rates, milliseconds, shares, over a wide span, both signs.
        for i in -3000..3000 {
            for value in [f64::from(i) / 7.0, f64::from(i) * 1.37e4 / 9.0, f64::from(i) / 3.3e5] {
                for places in 0..=4usize {
                    let ours = format!("{:.*}", places, Float(value));
                    let rusts = format!("{value:.places$}");
                    let rusts = if rusts.starts_with('-') && rusts.trim_start_matches(['-', '0', '.']).is_empty() { rusts[1..].to_owned() } else { rusts };
                    let scaled = value.abs() * 10f64.powi(places as i32);
                    assert!(ours == rusts || (scaled.fract() - 0.5).abs() < 1e-6, "{value} to {places}: {ours} against {rusts}");
                }
            }
        }
    }

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
