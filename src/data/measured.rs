//! The real-GPU figures in `data/*.json`: each table defined once, written and read by column
//! name.
//!
//! A lesson defines each of its tables with [`columns!`]: one struct whose fields are the
//! columns. From it come the [`Schema`] (each column's name and [`Cell`] type), the runner's
//! writing of a row (its `report.rs` fills the struct by field name; decimals keep every digit)
//! and the page's reading of one, each column found by name. A report names its `columns` and
//! writes one row of cells per line; [`Table::conforms`] checks a file against the schema, so a
//! renamed, missing or extra column, or a value of the wrong type, fails a host test naming the
//! file and the column instead of being read as something else. Read by hand rather than by a
//! JSON library, to keep one out of the page.

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

/// The Rust type of a column: its [`Cell`] in the schema, how a cell is read as it, and
/// (natively, where the report runners write) how it is written, with every digit it has.
pub trait Column: Sized {
    const CELL: Cell;
    fn read(row: &Row<'_>, name: &str) -> Option<Self>;
    #[cfg(not(target_arch = "wasm32"))]
    fn write(&self) -> crate::data::Json;
}

impl Column for u32 {
    const CELL: Cell = Cell::Whole;
    fn read(row: &Row<'_>, name: &str) -> Option<u32> {
        row.whole(name)
    }
    #[cfg(not(target_arch = "wasm32"))]
    fn write(&self) -> crate::data::Json {
        crate::data::Json::from(*self)
    }
}

impl Column for String {
    const CELL: Cell = Cell::Text;
    fn read(row: &Row<'_>, name: &str) -> Option<String> {
        row.quoted(name).then(|| row.text(name).map(str::to_owned))?
    }
    #[cfg(not(target_arch = "wasm32"))]
    fn write(&self) -> crate::data::Json {
        crate::data::Json::from(self.as_str())
    }
}

impl Column for f64 {
    const CELL: Cell = Cell::Decimal;
    fn read(row: &Row<'_>, name: &str) -> Option<f64> {
        row.decimal(name)
    }
    #[cfg(not(target_arch = "wasm32"))]
    fn write(&self) -> crate::data::Json {
        crate::data::Json::Exact(*self)
    }
}

/// A decimal, or `null` where the GPU could not time it.
impl Column for Option<f64> {
    const CELL: Cell = Cell::Decimal;
    fn read(row: &Row<'_>, name: &str) -> Option<Option<f64>> {
        match row.text(name)? {
            "null" => Some(None),
            _ => row.decimal(name).map(Some),
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    fn write(&self) -> crate::data::Json {
        self.map_or(crate::data::Json::Null, crate::data::Json::Exact)
    }
}

/// A table's row as its file has it, defined once: the struct, its [`Schema`] (each column
/// named after its field, typed by its Rust type), its reading by name, and, natively, its
/// writing in the schema's order. A report runner fills the struct by field name, the page
/// reads it back by column name, and the data tests check every file against the schema:
///
/// ```text
/// columns! {
///     /// One row of the tiled report.
///     pub struct TiledColumns { pub variant: String, pub n: u32, pub gpu_ms: Option<f64> }
/// }
/// ```
///
/// A field whose column has a name Rust cannot take (`type`) says it: `pub ty: String = "type"`.
macro_rules! columns {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[$field_meta:meta])* pub $field:ident: $ty:ty $(= $column:literal)?),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        impl $name {
            /// The columns, by name and type, in the order they are written.
            pub const SCHEMA: $crate::data::measured::Schema =
                &[$(($crate::data::measured::column_name!($field $(, $column)?), <$ty as $crate::data::measured::Column>::CELL)),*];

            /// The row, each column found by name (`None` where one is missing or mistyped).
            pub fn read(row: &$crate::data::measured::Row<'_>) -> Option<Self> {
                Some($name { $($field: $crate::data::measured::Column::read(row, $crate::data::measured::column_name!($field $(, $column)?))?,)* })
            }

            /// The row's cells in the schema's order.
            #[cfg(not(target_arch = "wasm32"))]
            pub fn to_json(&self) -> $crate::data::Json {
                $crate::data::Json::Array(vec![$($crate::data::measured::Column::write(&self.$field)),*])
            }
        }
    };
}
pub(crate) use columns;

/// A column's name: its field's, or the one given.
macro_rules! column_name {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident, $column:literal) => {
        $column
    };
}
pub(crate) use column_name;

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

    pub fn quoted(&self, name: &str) -> bool {
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

/// A plain decimal such as `0.0052` (digits, a point, digits: what the report writer writes).
/// Natively read exactly, by Rust's float parser; in the page by hand ([`decimal_by_hand`]),
/// whose result can differ in the last bit or so, which no figure on a page shows.
pub fn decimal(text: &str) -> Option<f64> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) {
        return None;
    }
    #[cfg(not(target_arch = "wasm32"))]
    return text.parse().ok();
    #[cfg(target_arch = "wasm32")]
    decimal_by_hand(whole, fraction)
}

/// The decimal `whole.fraction` without the general float parser, which would otherwise be in
/// the page for these few columns.
pub fn decimal_by_hand(whole: &str, fraction: &str) -> Option<f64> {
    // Files keep every digit of an f64 (up to 17 significant); a fraction's digits past the
    // 18th add less than 1e-18, below what any figure here can show.
    let fraction = &fraction[..fraction.len().min(18)];
    let scale = 10u64.pow(fraction.len() as u32) as f64;
    let fraction = if fraction.is_empty() { 0 } else { fraction.parse::<u64>().ok()? };
    Some(whole.parse::<u64>().ok()? as f64 + fraction as f64 / scale)
}

/// The whole number of `"key": …` on a line.
pub fn number(line: &str, key: &str) -> Option<u32> {
    field(line, key)?.trim().parse().ok()
}
