//! A [`Table`] as Markdown (the text of `redc sim --table`) and as JSON.

use super::Table;
use crate::Paper;
use serde_json::{Value, json};

/// A figure at `decimals` places.
fn fixed(x: f64, decimals: u32) -> String {
    format!("{x:.*}", decimals as usize)
}

/// Text for a Markdown table cell: a `|` (as in `|Dp| = |Dq|`) escaped so
/// that it does not end the cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

impl Table {
    /// The table as Markdown, notes below; a list with no entries
    /// ([`Table::is_list`]) as its notes, one item a line.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("{}: {}\n\n", self.source, self.title);
        if self.is_list() {
            for n in &self.notes {
                out += &format!("- {n}\n");
            }
            return out;
        }
        out += "| row | quantity | unit | paper | model | difference | note |\n|---|---|---|---:|---:|---:|---|\n";
        for e in &self.entries {
            let paper = e.paper.map_or("—".to_owned(), |p| fixed(p, e.decimals));
            let diff = e.difference().map_or("—".to_owned(), |d| fixed(d, e.decimals));
            let note = e.note.map_or(String::new(), |n| format!("[{n}]"));
            out += &format!(
                "| {} | {} | {} | {paper} | {} | {diff} | {note} |\n",
                cell(&e.row),
                cell(&e.column),
                cell(e.unit),
                fixed(e.model_rounded(), e.decimals)
            );
        }
        if !self.notes.is_empty() {
            out.push('\n');
            for (i, n) in self.notes.iter().enumerate() {
                out += &format!("[{}] {n}\n", i + 1);
            }
        }
        out
    }

    /// The table as JSON, with the citation of `paper`, whose table it is
    /// (`source` keeps the file name it always had).
    pub fn to_json(&self, paper: Paper) -> Value {
        json!({
            "source": self.source,
            "citation": paper.citation().json(),
            "title": self.title,
            "entries": self.entries.iter().map(|e| json!({
                "row": e.row,
                "quantity": e.column,
                "unit": e.unit,
                "paper": e.paper,
                "model": e.model,
                "decimals": e.decimals,
                "difference": e.difference(),
                "note": e.note,
            })).collect::<Vec<_>>(),
            "notes": self.notes,
        })
    }
}

/// The tables of `papers` ([`Paper::tables`]), each beside its paper, in
/// order.
pub fn of_papers(papers: &[Paper]) -> Vec<(Paper, Table)> {
    papers
        .iter()
        .flat_map(|&p| p.tables().into_iter().map(move |t| (p, t)))
        .collect()
}

/// Tables of papers as Markdown: each paper's under its citation as a
/// heading, a blank line between tables.
pub fn markdown(tables: &[(Paper, Table)]) -> String {
    let mut out = String::new();
    let mut last = None;
    for (p, t) in tables {
        if !out.is_empty() {
            out.push('\n');
        }
        if last != Some(*p) {
            out += &format!("# {}\n\n", p.citation());
            last = Some(*p);
        }
        out += &t.to_markdown();
    }
    out
}

/// Tables of papers as one JSON array of [`Table::to_json`].
pub fn json(tables: &[(Paper, Table)]) -> Value {
    Value::Array(tables.iter().map(|(p, t)| t.to_json(*p)).collect())
}
