//! Reading the real-GPU figures in `data/*.json` by column name.
//!
//! A report (written by a runner in `examples/` through [`crate::data::Json`]) names its
//! `columns` and writes one row of cells per line. Each lesson declares the columns it reads
//! as a typed [`Schema`] beside its parser; [`Table::conforms`] checks a file against it, so a
//! renamed, missing or extra column, or a value of the wrong type, fails a host test instead
//! of being read as something else. Hand-written rather than a JSON library, to keep one out
//! of the page.

/// The type a column's cells must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A whole number that fits in `u32`.
    Whole,
    /// A plain decimal such as `0.0052`, or `null` where the GPU could not time it.
    Decimal,
    /// A quoted string.
    Text,
}

/// The columns a lesson reads from its report, by name and type.
pub type Schema = &'static [(&'static str, Cell)];

/// One of a lesson's files in `data/`: its name, its text (compiled in), and the schema its
/// lesson reads it by (`None` for a file read field by field).
#[derive(Clone, Copy, Debug)]
pub struct MeasuredFile {
    pub file: &'static str,
    pub text: &'static str,
    pub schema: Option<Schema>,
}

/// The column names of a schema, in its order: what a report runner writes as `columns`.
pub fn names(schema: Schema) -> Vec<&'static str> {
    schema.iter().map(|(name, _)| *name).collect()
}

/// A report's adapter name, its columns, and each row's cells as written (strings without
/// their quotes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub adapter: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// One row, whose cells are found by column name.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    columns: &'a [String],
    cells: &'a [String],
}

impl Table {
    /// The table in a report, or `None` where it has no adapter name, columns or rows.
    pub fn parse(text: &str) -> Option<Table> {
        let adapter = field(text.lines().find(|l| l.trim_start().starts_with("\"name\""))?, "name")?.to_owned();
        let columns_line = text.lines().map(str::trim).find(|l| l.starts_with("\"columns\""))?;
        let columns: Vec<String> = cells(columns_line.split_once(':')?.1).iter().map(|c| c.trim_matches('"').to_owned()).collect();
        let mut rows = Vec::new();
        let mut in_rows = false;
        for line in text.lines().map(str::trim) {
            if line.starts_with("\"rows\"") {
                in_rows = true;
            } else if in_rows && line.starts_with('[') {
                rows.push(cells(line));
            } else if in_rows {
                break;
            }
        }
        (!columns.is_empty() && !rows.is_empty()).then_some(Table { adapter, columns, rows })
    }

    /// Whether the table has exactly the schema's columns (in any order), each row a cell for
    /// each, and every cell of the schema's type; otherwise what differs.
    pub fn conforms(&self, schema: Schema) -> Result<(), String> {
        let mut missing: Vec<&str> = schema.iter().map(|(n, _)| *n).filter(|n| !self.columns.iter().any(|c| c == n)).collect();
        let extra: Vec<&str> = self.columns.iter().map(String::as_str).filter(|c| !schema.iter().any(|(n, _)| n == c)).collect();
        if !missing.is_empty() || !extra.is_empty() {
            missing.sort_unstable();
            return Err(format!("columns differ from the schema: missing {missing:?}, not in the schema {extra:?}"));
        }
        for (i, row) in self.rows().enumerate() {
            if row.cells.len() != self.columns.len() {
                return Err(format!("row {i} has {} cells for {} columns", row.cells.len(), self.columns.len()));
            }
            for &(name, cell) in schema {
                let ok = match cell {
                    Cell::Whole => row.whole(name).is_some(),
                    Cell::Decimal => row.text(name) == Some("null") || row.decimal(name).is_some(),
                    Cell::Text => row.quoted(name),
                };
                if !ok {
                    return Err(format!("row {i}, column {name:?}: {:?} is not {cell:?}", row.raw(name)));
                }
            }
        }
        Ok(())
    }

    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.rows.iter().map(|cells| Row { columns: &self.columns, cells })
    }

    /// The rows read by `read`, provided the table conforms to `schema` and every row reads.
    pub fn read<T>(&self, schema: Schema, read: impl Fn(Row<'_>) -> Option<T>) -> Option<Vec<T>> {
        self.conforms(schema).ok()?;
        self.rows().map(read).collect()
    }
}

impl<'a> Row<'a> {
    fn raw(&self, name: &str) -> Option<&'a str> {
        let i = self.columns.iter().position(|c| c == name)?;
        self.cells.get(i).map(String::as_str)
    }

    fn quoted(&self, name: &str) -> bool {
        self.raw(name).is_some_and(|c| c.len() >= 2 && c.starts_with('"') && c.ends_with('"'))
    }

    /// The cell of column `name`, without quotes.
    pub fn text(&self, name: &str) -> Option<&'a str> {
        Some(self.raw(name)?.trim_matches('"'))
    }

    pub fn whole(&self, name: &str) -> Option<u32> {
        let text = self.raw(name)?;
        text.bytes().all(|b| b.is_ascii_digit()).then(|| text.parse().ok())?
    }

    /// A decimal cell; `None` where it is `null` or not a plain decimal.
    pub fn decimal(&self, name: &str) -> Option<f64> {
        decimal(self.raw(name)?)
    }

    /// The cells of columns `min` and `max`: a range over runs.
    pub fn range(&self, min: &str, max: &str) -> Option<(u32, u32)> {
        Some((self.whole(min)?, self.whole(max)?))
    }
}

/// A report's adapter name and its rows, each read by `read`, where the table conforms to
/// `schema` and every row reads: what each lesson's parser is.
pub fn report<T>(text: &str, schema: Schema, read: impl Fn(Row<'_>) -> Option<T>) -> Option<(String, Vec<T>)> {
    let table = Table::parse(text)?;
    let rows = table.read(schema, read)?;
    Some((table.adapter, rows))
}

/// The cells of a one-line JSON array, quotes kept so a string can be told from a number.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_end_matches(',').trim_start_matches('[').trim_end_matches(']');
    inner.split(',').map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()).collect()
}

/// The value of `"key": …` on a line: a string without its quotes, an object, or a number.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!("\"{key}\": "))? + key.len() + 4;
    let rest = &line[at..];
    let end = if let Some(text) = rest.strip_prefix('"') {
        text.find('"')? + 2
    } else if rest.starts_with('{') {
        rest.find('}')? + 1
    } else {
        rest.find([',', '}']).unwrap_or(rest.len())
    };
    Some(rest[..end].trim_matches('"'))
}

/// A plain decimal such as `0.0052`. Read by hand rather than by `str::parse::<f64>`, whose
/// general float parser would otherwise be in the page for this one column.
pub fn decimal(text: &str) -> Option<f64> {
    let (whole, fraction) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > 9 {
        return None;
    }
    let scale = 10u64.pow(fraction.len() as u32) as f64;
    let fraction = if fraction.is_empty() { 0 } else { fraction.parse::<u64>().ok()? };
    Some(whole.parse::<u64>().ok()? as f64 + fraction as f64 / scale)
}

/// The whole number of `"key": …` on a line.
pub fn number(line: &str, key: &str) -> Option<u32> {
    field(line, key)?.trim().parse().ok()
}
