//! A JSON value and its text.

/// A JSON value. Objects keep their keys in the order given.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// Written with up to four decimals, for reading; NaN and infinities become `null`.
    Number(f64),
    /// Written with every digit it has: the shortest decimal that reads back as the same `f64`
    /// (what a measured file keeps). NaN and infinities become `null`.
    Exact(f64),
    Integer(i128),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn object<'a>(pairs: impl IntoIterator<Item = (&'a str, Json)>) -> Json {
        Json::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
    }

    pub fn array<T: Into<Json>>(items: impl IntoIterator<Item = T>) -> Json {
        Json::Array(items.into_iter().map(Into::into).collect())
    }

    /// Indented text; arrays of plain values stay on one line so long lists of counts stay
    /// readable.
    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    /// The value on one line, `{"key": value, …}`: for reports that keep one row per line.
    pub fn to_line(&self) -> String {
        let mut out = String::new();
        self.write_line(&mut out);
        out
    }

    fn write_line(&self, out: &mut String) {
        match self {
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.write_line(out);
                }
                out.push(']');
            }
            Json::Object(pairs) => {
                out.push('{');
                for (i, (key, value)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write_string(out, key);
                    out.push_str(": ");
                    value.write_line(out);
                }
                out.push('}');
            }
            scalar => scalar.write(out, 0),
        }
    }

    fn write(&self, out: &mut String, depth: usize) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(x) if x.is_finite() => out.push_str(&crate::text::fixed(*x, 4).to_string()),
            Json::Exact(x) if x.is_finite() => out.push_str(&shortest(*x)),
            Json::Number(_) | Json::Exact(_) => out.push_str("null"),
            Json::Integer(n) => out.push_str(&n.to_string()),
            Json::String(s) => write_string(out, s),
            Json::Array(items) if items.iter().all(|i| !matches!(i, Json::Array(_) | Json::Object(_))) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.write(out, depth);
                }
                out.push(']');
            }
            Json::Array(items) => {
                write_block(out, depth, '[', ']', items.iter().map(|i| (None, i)));
            }
            Json::Object(pairs) => {
                write_block(out, depth, '{', '}', pairs.iter().map(|(k, v)| (Some(k.as_str()), v)));
            }
        }
    }
}

/// The shortest decimal that reads back as `x`. A page asks the browser for it (JavaScript
/// writes a number so too, with an exponent past 10^21 and under 10^-6), so that it carries no
/// float formatting of its own (see [`crate::text`]).
fn shortest(x: f64) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    #[cfg(target_arch = "wasm32")]
    return js_sys::Number::from(x).to_string_with_radix(10).map_or_else(|_| "null".to_owned(), String::from);
    #[cfg(not(target_arch = "wasm32"))]
    return x.to_string();
}

fn write_block<'a>(out: &mut String, depth: usize, open: char, close: char, entries: impl ExactSizeIterator<Item = (Option<&'a str>, &'a Json)>) {
    if entries.len() == 0 {
        out.push(open);
        out.push(close);
        return;
    }
    out.push(open);
    for (i, (key, value)) in entries.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('\n');
        out.push_str(&"  ".repeat(depth + 1));
        if let Some(key) = key {
            write_string(out, key);
            out.push_str(": ");
        }
        value.write(out, depth + 1);
    }
    out.push('\n');
    out.push_str(&"  ".repeat(depth));
    out.push(close);
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::String(s.to_owned())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::String(s)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

impl From<f64> for Json {
    fn from(x: f64) -> Json {
        Json::Number(x)
    }
}

impl<T: Into<Json>> From<Option<T>> for Json {
    fn from(v: Option<T>) -> Json {
        v.map_or(Json::Null, Into::into)
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl From<$t> for Json {
            fn from(n: $t) -> Json {
                Json::Integer(n as i128)
            }
        }
    )*};
}
integers!(u32, u64, usize, i32, i64);
