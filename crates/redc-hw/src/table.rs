//! A paper's table beside the model's figures: every entry carries the
//! paper's number (as printed), the model's, and a note wherever the two
//! differ. Rendered as Markdown or JSON by `render.rs`.

mod render;

pub use render::{json, markdown, of_papers};

/// A paper's cells its model does not derive, as `(cells, why)` pairs
/// ([`Table::unmodelled`]).
pub type Unmodelled = [(&'static str, &'static str)];

/// One table of one paper, reproduced.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Paper file and table name, e.g. "001_24b3bbce8c558126.txt Table 2".
    pub source: String,
    /// What the table shows.
    pub title: String,
    /// The figures, in the paper's row order.
    pub entries: Vec<Entry>,
    /// Notes explaining differences (and choices); `Entry::note` is a
    /// 1-based index into this list.
    pub notes: Vec<String>,
}

/// One figure: a row and column of the paper's table.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Row label, e.g. "R=1024".
    pub row: String,
    /// Column (quantity), e.g. "clock cycles".
    pub column: String,
    /// Unit, e.g. "cycles", "µs", "kbit/s" ("" for a count).
    pub unit: &'static str,
    /// The paper's figure, as printed; `None` where the paper prints none
    /// and the model derives it.
    pub paper: Option<f64>,
    /// Decimal places the paper prints; the model's figure is rounded to
    /// them before comparing.
    pub decimals: u32,
    /// The model's figure.
    pub model: f64,
    /// 1-based index into [`Table::notes`] explaining this entry.
    pub note: Option<usize>,
}

impl Entry {
    /// An entry without a note.
    pub fn new(
        row: impl Into<String>,
        column: impl Into<String>,
        unit: &'static str,
        paper: Option<f64>,
        decimals: u32,
        model: f64,
    ) -> Self {
        Self {
            row: row.into(),
            column: column.into(),
            unit,
            paper,
            decimals,
            model,
            note: None,
        }
    }

    /// The model's figure rounded to the paper's precision.
    pub fn model_rounded(&self) -> f64 {
        let scale = 10f64.powi(self.decimals as i32);
        (self.model * scale).round() / scale
    }

    /// Model minus paper, at the paper's precision (`None` without a paper
    /// figure).
    pub fn difference(&self) -> Option<f64> {
        self.paper.map(|p| {
            let scale = 10f64.powi(self.decimals as i32);
            ((self.model_rounded() - p) * scale).round() / scale
        })
    }

    /// Whether the model reproduces the paper's figure as printed.
    pub fn matches(&self) -> bool {
        self.difference().is_some_and(|d| d == 0.0)
    }
}

impl Table {
    /// An empty table.
    pub fn new(source: impl Into<String>, title: impl Into<String>) -> Self {
        Self {
            source: source.into(),
            title: title.into(),
            entries: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Adds a note and returns its 1-based index for [`Entry::note`].
    pub fn note(&mut self, text: impl Into<String>) -> usize {
        self.notes.push(text.into());
        self.notes.len()
    }

    /// Adds an entry.
    pub fn push(&mut self, entry: Entry) {
        self.entries.push(entry);
    }

    /// Adds an entry explained by note `note`.
    pub fn push_noted(&mut self, mut entry: Entry, note: usize) {
        entry.note = Some(note);
        self.entries.push(entry);
    }

    /// Entries that differ from the paper (or have no paper figure) with no
    /// note, or whose note index is out of range: a reproduced table has none.
    pub fn unexplained(&self) -> Vec<&Entry> {
        self.entries
            .iter()
            .filter(|e| {
                let explained = e.note.is_some_and(|n| (1..=self.notes.len()).contains(&n));
                !(e.matches() || explained)
            })
            .collect()
    }

    /// The list of a paper's table cells (and tables) that the model does
    /// not derive: synthesis results it takes as inputs or only checks for
    /// consistency, other works' figures it quotes, measurements it is
    /// fitted to. A table with no entries; each `(cells, why)` is a note.
    pub fn unmodelled(file: &str, items: &Unmodelled) -> Self {
        let mut t = Table::new(
            format!("{file} cells not modelled"),
            "Cells the model takes as given, quotes, or is fitted to, rather than derives",
        );
        for (cells, why) in items {
            t.note(format!("{cells}: {why}"));
        }
        t
    }

    /// Whether this is an [`unmodelled`](Table::unmodelled) list.
    pub fn is_list(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_follows_the_papers_precision() {
        let e = Entry::new("R=1024", "time", "µs", Some(12.34), 2, 12.3449);
        assert!(e.matches());
        let e = Entry::new("R=1024", "time", "µs", Some(12.34), 2, 12.346);
        assert_eq!(e.difference(), Some(0.01));
        assert!(!e.matches());
    }

    #[test]
    fn differences_need_notes() {
        let mut t = Table::new("x", "y");
        t.push(Entry::new("a", "b", "", Some(1.0), 0, 2.0));
        t.push(Entry::new("a", "c", "", None, 0, 2.0));
        assert_eq!(t.unexplained().len(), 2);
        let n = t.note("why");
        t.entries.iter_mut().for_each(|e| e.note = Some(n));
        assert!(t.unexplained().is_empty());
        t.entries[0].note = Some(7);
        assert_eq!(t.unexplained().len(), 1);
    }
}
