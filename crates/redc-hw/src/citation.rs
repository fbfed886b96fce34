//! The five papers as a reader cites them: title, authors and venue, each as
//! the paper's own text in `../shared/papers` prints it. This is the one
//! list every user-facing output takes them from (`redc sim`, its tables,
//! `redc demo`, the files of `redc vectors`); the file name is only the
//! citation key, shortened to its number ("001") in prose.
//!
//! A field the text does not give is `None` (or no authors), never guessed,
//! and the rendered citation says so ("venue not given in the text"). One
//! field comes from outside the text: 001's journal, from the journal's own
//! article page (ijnc.org, article 35), since the text prints only the
//! editor and the dates of receipt and acceptance. Papers 000 and 002 print
//! no title, authors or venue at all (their text starts at the abstract):
//! 002 is named as 001 prints it in its reference \[3\] (whose device and
//! clock in 001's Table 3 are the ones 002 reports), and 000, cited by
//! none, by [`Citation::topic`], a few words from its abstract.

use serde_json::{Value, json};
use std::fmt;

/// One paper: what its text says about itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Citation {
    /// The paper's text in `../shared/papers`: the citation key.
    pub file: &'static str,
    /// The text in `../shared/papers` that prints the title and authors:
    /// the paper's own, or (002) the reference to it in another paper.
    pub record_in: &'static str,
    /// The title as printed; `None` where the text prints none.
    pub title: Option<&'static str>,
    /// The authors' names as printed, in order; empty where the text names
    /// none.
    pub authors: &'static [&'static str],
    /// The journal or conference; `None` where it is not known.
    pub venue: Option<&'static str>,
    /// The year of publication; `None` where it is not known.
    pub year: Option<u16>,
    /// What the paper is about, in a few words from its abstract: its name
    /// where the text gives no title.
    pub topic: &'static str,
}

/// 000: RSA on the Maxeler dataflow platform. The text starts at the
/// abstract: no title, authors or venue.
pub const DATAFLOW: Citation = Citation {
    file: crate::dataflow::FILE,
    record_in: crate::dataflow::FILE,
    title: None,
    authors: &[],
    venue: None,
    year: None,
    topic: "a dataflow-based implementation of RSA on the Maxeler platform",
};

/// 001: the FDFM processor core. Title and authors from the text; the
/// journal from its article page (ijnc.org), the year not confirmed (the
/// text: accepted December 15, 2011).
pub const FDFM: Citation = Citation {
    file: crate::fdfm::FILE,
    record_in: crate::fdfm::FILE,
    title: Some("The Parallel FDFM Processor Core Approach for CRT-based RSA Decryption"),
    authors: &["Yasuaki Ito", "Koji Nakano", "Bo Song"],
    venue: Some("International Journal of Networking and Computing"),
    year: None,
    topic: "CRT-based RSA decryption on one DSP slice and one block RAM of an FPGA",
};

/// 002: high-radix Montgomery exponentiation on a systolic array. Its text
/// starts at the abstract; title, authors, journal and year are those of
/// reference \[3\] of 001 (Blum and Paar, IEEE Trans. on Computers 50(7),
/// 2001), as 001 prints them. 001's Table 3 gives \[3\]'s device and clock
/// (Xilinx XC40250XV, 45.6 MHz), the ones this text reports for its
/// 1024-bit RSA.
pub const BLUM_PAAR: Citation = Citation {
    file: crate::blum_paar::FILE,
    record_in: crate::fdfm::FILE,
    title: Some("High-radix Montgomery modular exponentiation on reconfigurable hardware"),
    authors: &["Thomas Blum", "Christof Paar"],
    venue: Some("IEEE Trans. on Computers, 50(7)"),
    year: Some(2001),
    topic: "high-radix Montgomery modular exponentiation on a systolic array for FPGAs",
};

/// 003: carry-save Montgomery multiplication. Title and authors from the
/// text, which gives no venue or year.
pub const CARRY_SAVE: Citation = Citation {
    file: crate::carry_save::FILE,
    record_in: crate::carry_save::FILE,
    title: Some("An Efficient Montgomery Multiplication Algorithm and RSA Cryptographic Processor"),
    authors: &["Richa Garg", "Renu Vig"],
    venue: None,
    year: None,
    topic: "carry-save Montgomery multiplication with multi-bit shifting, and an RSA processor",
};

/// 004: systolic versus multiplexed arrays. Everything from the text
/// (vol. 2011, Article ID 127147, doi:10.1155/2011/127147).
pub const PERIN: Citation = Citation {
    file: crate::perin::FILE,
    record_in: crate::perin::FILE,
    title: Some(
        "Montgomery Modular Multiplication on Reconfigurable Hardware: Systolic versus Multiplexed Implementation",
    ),
    authors: &["Guilherme Perin", "Daniel Gomes Mesquita", "João Baptista Martins"],
    venue: Some("International Journal of Reconfigurable Computing"),
    year: Some(2011),
    topic: "systolic versus multiplexed Montgomery multipliers on FPGAs",
};

impl Citation {
    /// The five papers, in file order.
    pub const ALL: [&'static Citation; 5] = [&DATAFLOW, &FDFM, &BLUM_PAAR, &CARRY_SAVE, &PERIN];

    /// The short key: the file name's number ("001").
    pub fn key(&self) -> &'static str {
        self.file.split_once('_').map_or(self.file, |(k, _)| k)
    }

    /// The authors' surnames (the last word of each name).
    pub fn surnames(&self) -> Vec<&'static str> {
        self.authors.iter().map(|a| a.rsplit(' ').next().unwrap_or(a)).collect()
    }

    /// The name for prose: surnames and key ("Ito, Nakano, Song (001)"), or
    /// the topic and key where the text names no authors.
    pub fn short(&self) -> String {
        let who = if self.authors.is_empty() {
            self.topic.to_owned()
        } else {
            self.surnames().join(", ")
        };
        format!("{who} ({})", self.key())
    }

    /// The fields the text does not give, as words ("venue and year").
    pub fn missing(&self) -> Option<String> {
        let mut gaps = Vec::new();
        if self.title.is_none() {
            gaps.push("title");
        }
        if self.authors.is_empty() {
            gaps.push("authors");
        }
        if self.venue.is_none() {
            gaps.push("venue");
        }
        if self.year.is_none() {
            gaps.push("year");
        }
        match gaps.split_last() {
            None => None,
            Some((last, [])) => Some((*last).to_owned()),
            Some((last, rest)) => Some(format!("{} and {last}", rest.join(", "))),
        }
    }

    /// The record as JSON: `key`, `file`, `title`, `authors`, `venue`,
    /// `year`, `topic` (null or empty where the text gives nothing) and
    /// `citation`, the rendered line.
    pub fn json(&self) -> Value {
        json!({
            "key": self.key(),
            "file": self.file,
            "title": self.title,
            "authors": self.authors,
            "venue": self.venue,
            "year": self.year,
            "topic": self.topic,
            "citation": self.to_string(),
        })
    }
}

/// `Ito, Nakano, Song, "Title", Venue (001)`: surnames, the quoted title (or
/// the topic, unquoted, where there is none), venue and year, a note of
/// what the text does not give, and the key.
impl fmt::Display for Citation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.authors.is_empty() {
            parts.push(self.surnames().join(", "));
        }
        parts.push(self.title.map_or_else(|| self.topic.to_owned(), |t| format!("\"{t}\"")));
        parts.extend(self.venue.map(str::to_owned));
        parts.extend(self.year.map(|y| y.to_string()));
        f.write_str(&parts.join(", "))?;
        if let Some(gaps) = self.missing() {
            write!(f, " [{gaps} not given in the text]")?;
        }
        write!(f, " ({})", self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The papers' texts beside the workspace, as the other tests find
    /// `../shared`.
    const PAPERS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/papers/");

    #[test]
    #[allow(clippy::print_stderr)]
    fn titles_and_authors_are_in_the_texts() {
        if !Path::new(PAPERS).is_dir() {
            eprintln!("citation: no papers at {PAPERS}; skipped");
            return;
        }
        for c in Citation::ALL {
            let text = std::fs::read_to_string(Path::new(PAPERS).join(c.record_in))
                .unwrap_or_else(|e| panic!("{}: {e}", c.record_in));
            if let Some(title) = c.title {
                assert!(text.contains(title), "{}: title {title:?}", c.file);
            }
            for (name, surname) in c.authors.iter().zip(c.surnames()) {
                assert!(text.contains(name), "{}: author {name:?}", c.file);
                assert!(text.contains(surname), "{}: surname {surname:?}", c.file);
            }
        }
        // 002 is reference [3] of 001, with its journal and year; its own
        // text has the figure that reference is known for.
        let refs = std::fs::read_to_string(Path::new(PAPERS).join(FDFM.file)).expect("001");
        assert!(refs.contains(
            "[3] Thomas Blum and Christof Paar. High-radix Montgomery modular exponentiation on reconfigurable \
             hardware. *IEEE Trans. on Computers*, 50(7):759–764, 2001."
        ));
        // 001's Table 3 gives [3]'s device and clock; 002's conclusion the same.
        let own = std::fs::read_to_string(Path::new(PAPERS).join(BLUM_PAAR.file)).expect("002");
        assert!(refs.contains("Device\tXilinx XC40250XV") && refs.contains("Frequency[MHz]\t45.6"));
        assert!(own.contains("using a clock rate of 45.6 MHz") && own.contains("on a Xilinx XC40250XV"));
        // 004 prints its journal and year on its first line.
        let text = std::fs::read_to_string(Path::new(PAPERS).join(PERIN.file)).expect("004");
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.contains(PERIN.venue.unwrap_or("?")) && first.contains("2011"),
            "{first}"
        );
    }

    #[test]
    fn every_file_once_and_keys_in_order() {
        let keys: Vec<&str> = Citation::ALL.iter().map(|c| c.key()).collect();
        assert_eq!(keys, ["000", "001", "002", "003", "004"]);
        for p in crate::Paper::all() {
            assert_eq!(Citation::ALL.iter().filter(|c| c.file == p.file()).count(), 1, "{p:?}");
            assert_eq!(p.citation().file, p.file());
        }
    }

    #[test]
    fn rendered_citations() {
        assert_eq!(
            FDFM.to_string(),
            "Ito, Nakano, Song, \"The Parallel FDFM Processor Core Approach for CRT-based RSA Decryption\", \
             International Journal of Networking and Computing [year not given in the text] (001)"
        );
        assert_eq!(
            PERIN.to_string(),
            "Perin, Mesquita, Martins, \"Montgomery Modular Multiplication on Reconfigurable Hardware: \
             Systolic versus Multiplexed Implementation\", International Journal of Reconfigurable Computing, 2011 (004)"
        );
        assert_eq!(
            CARRY_SAVE.to_string(),
            "Garg, Vig, \"An Efficient Montgomery Multiplication Algorithm and RSA Cryptographic Processor\" \
             [venue and year not given in the text] (003)"
        );
        assert_eq!(
            DATAFLOW.to_string(),
            "a dataflow-based implementation of RSA on the Maxeler platform \
             [title, authors, venue and year not given in the text] (000)"
        );
        assert_eq!(FDFM.short(), "Ito, Nakano, Song (001)");
        assert_eq!(BLUM_PAAR.short(), "Blum, Paar (002)");
        assert_eq!(
            BLUM_PAAR.to_string(),
            "Blum, Paar, \"High-radix Montgomery modular exponentiation on reconfigurable hardware\", \
             IEEE Trans. on Computers, 50(7), 2001 (002)"
        );
        let j = FDFM.json();
        assert_eq!(j["key"], "001");
        assert_eq!(j["authors"][2], "Bo Song");
        assert!(j["year"].is_null());
        assert_eq!(j["citation"], FDFM.to_string());
    }
}
