//! The workspace's layering, checked (ARCHITECTURE.md, "Rules"):
//!
//! - every dependency of one workspace crate on another is in [`ALLOWED`]
//!   (normal and build dependencies) or [`ALLOWED_DEV`] (tests only), so a
//!   new edge is a decision written here, not an accident;
//! - no two modules of a crate import each other, directly or through
//!   others: the graph of `crate::`, `super::` and `self::` paths between
//!   a crate's modules has no cycle. A module's use of its ancestors (a
//!   child's `use super::*` of its parent) or of its own descendants is
//!   not an edge: only paths between modules neither of which contains the
//!   other count. Items under `#[cfg(test)]` (a file's unit tests, which
//!   may use higher layers to make their inputs) are not part of the
//!   layering.
//!
//! The check reads the sources as text (comments and string literals
//! removed), which is enough for this code base's `use` forms.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each workspace crate and the workspace crates it may depend on.
const ALLOWED: &[(&str, &[&str])] = &[
    ("redc", &[]),
    ("redc-pki", &["redc"]),
    ("redc-rsa", &["redc", "redc-pki"]),
    ("redc-ffc", &["redc", "redc-pki"]),
    ("redc-hw", &["redc"]),
    ("redc-cuda", &["redc"]),
    ("redc-cuda-sim", &["redc", "redc-cuda"]),
    ("redc-bench", &["redc", "redc-rsa", "redc-ffc", "redc-cuda"]),
    (
        "redc-cli",
        &["redc", "redc-rsa", "redc-ffc", "redc-hw", "redc-cuda", "redc-bench"],
    ),
    ("redc-py", &["redc", "redc-rsa", "redc-cuda"]),
    ("redc-provider", &["redc", "redc-rsa"]),
];

/// Dependencies of a crate's tests, examples and benches only.
const ALLOWED_DEV: &[(&str, &[&str])] = &[
    ("redc-rsa", &["redc-ffc"]),
    ("redc-cuda", &["redc-cuda-sim"]),
    ("redc-cuda-sim", &["redc-rsa"]),
    ("redc-bench", &["redc-cuda-sim"]),
    // docs/provider.md's commands run against the provider library.
    ("redc-cli", &["redc-provider"]),
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The crate directories of the workspace (`crates/*` with a Cargo.toml).
fn crate_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(workspace().join("crates"))
        .expect("crates/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("Cargo.toml").exists())
        .collect();
    dirs.sort();
    dirs
}

/// `(section, workspace crate)` for each dependency on a `redc*` crate in
/// a manifest; `section` is `dependencies`, `build-dependencies` or
/// `dev-dependencies` (target-specific tables count as their kind).
fn workspace_deps(manifest: &str) -> Vec<(String, String)> {
    let mut section = String::new();
    let mut out = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.rsplit('.').next().unwrap_or(name).to_owned();
            continue;
        }
        let key = line.split(['=', '.', ' ']).next().unwrap_or("");
        if key.starts_with("redc") && section.ends_with("dependencies") {
            out.push((section.clone(), key.to_owned()));
        }
    }
    out
}

#[test]
fn every_crate_edge_is_allowed() {
    let mut bad = Vec::new();
    for dir in crate_dirs() {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("Cargo.toml");
        let name = manifest
            .lines()
            .find_map(|l| l.trim().strip_prefix("name = \""))
            .and_then(|l| l.strip_suffix('"'))
            .expect("package name")
            .to_owned();
        let allowed =
            |table: &[(&str, &[&str])], dep: &str| table.iter().any(|(c, deps)| *c == name && deps.contains(&dep));
        assert!(
            ALLOWED.iter().any(|(c, _)| *c == name),
            "crate {name} is not in ALLOWED: add its layer"
        );
        for (section, dep) in workspace_deps(&manifest) {
            let ok = match section.as_str() {
                "dev-dependencies" => allowed(ALLOWED, &dep) || allowed(ALLOWED_DEV, &dep),
                _ => allowed(ALLOWED, &dep),
            };
            if !ok {
                bad.push(format!("{name} -> {dep} ({section})"));
            }
        }
    }
    assert!(bad.is_empty(), "crate edges not in the allowed list: {bad:?}");
}

/// `text` with comments, string and character literals blanked out.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'r' if (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                // A raw string r"..." or r#"..."#.
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                j += 1;
                while j < b.len() && !b[j..].starts_with(&close) {
                    j += 1;
                }
                i = j + close.len();
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            b'\'' if b.get(i + 2) == Some(&b'\'') || (b.get(i + 1) == Some(&b'\\')) => {
                // A character literal ('x', '\n', '\''); lifetimes stay.
                i += 1;
                while i < b.len() && b[i] != b'\'' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("' '");
            }
            _ => {
                let c = text[i..].chars().next().expect("a char");
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

/// `code` (from [`code_only`]) without the items under `#[cfg(test)]`:
/// each runs from the attribute to the first `;` or to the brace that
/// closes its first `{`, whichever comes first.
fn without_tests(code: &str) -> String {
    const ATTR: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(ATTR) {
        out.push_str(&rest[..at]);
        let item = &rest[at + ATTR.len()..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (i, c) in item.char_indices() {
            match c {
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The module path of a source file under `src` (`lib.rs`/`main.rs`: the
/// root, `a/mod.rs` and `a.rs`: `a`, `a/b.rs`: `a::b`); `None` for files of
/// other binaries (`src/bin/`).
fn module_of(src: &Path, file: &Path) -> Option<Vec<String>> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    if !(parts.is_empty() && (stem == "lib" || stem == "main") || stem == "mod") {
        parts.push(stem.to_owned());
    }
    Some(parts)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source directory") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every path of `code` that starts at `crate`, `super` or `self`, as
/// written (`use` trees expanded: `crate::{a, b::c}` gives `crate::a` and
/// `crate::b::c`).
fn paths(code: &str) -> Vec<Vec<String>> {
    let tokens = tokenize(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i].as_str();
        let starts = matches!(t, "crate" | "super" | "self")
            && tokens.get(i + 1).is_some_and(|n| n == "::")
            && (i == 0 || tokens[i - 1] != "::");
        if starts {
            i = tree(&tokens, i, Vec::new(), &mut out);
        } else {
            i += 1;
        }
    }
    out
}

/// Identifiers, `::`, braces, commas; everything else one char a token.
fn tokenize(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut word = c.to_string();
            while let Some(&n) = chars.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                word.push(n);
                chars.next();
            }
            out.push(word);
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.push("::".to_owned());
        } else if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    out
}

/// Reads one path (or `use` tree) from `tokens[i]`, appending each full
/// path to `out`; returns the index after it.
fn tree(tokens: &[String], mut i: usize, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    loop {
        let Some(t) = tokens.get(i) else {
            out.push(prefix);
            return i;
        };
        if t == "{" {
            i += 1;
            loop {
                match tokens.get(i).map(String::as_str) {
                    Some("}") => return i + 1,
                    Some(",") => i += 1,
                    None => return i,
                    _ => i = tree(tokens, i, prefix.clone(), out),
                }
            }
        }
        if t.chars().all(|c| c.is_alphanumeric() || c == '_') {
            prefix.push(t.clone());
            i += 1;
            if tokens.get(i).is_some_and(|n| n == "::") {
                i += 1;
                continue;
            }
        }
        out.push(prefix);
        return i;
    }
}

/// The module a path names, resolved from module `from`: the longest
/// prefix that is a module of the crate.
fn target(from: &[String], path: &[String], modules: &BTreeSet<Vec<String>>) -> Vec<String> {
    let mut at: Vec<String> = from.to_vec();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            at.clear();
            rest = &path[1..];
        }
        Some("self") => rest = &path[1..],
        _ => {
            while rest.first().is_some_and(|s| s == "super") {
                at.pop();
                rest = &rest[1..];
            }
        }
    }
    for part in rest {
        let mut next = at.clone();
        next.push(part.clone());
        if !modules.contains(&next) {
            break;
        }
        at = next;
    }
    at
}

/// The cycles of module imports of one crate's `src`, each as its modules.
fn cycles(src: &Path) -> Vec<Vec<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let units: Vec<(Vec<String>, String)> = files
        .iter()
        .filter_map(|f| {
            Some((
                module_of(src, f)?,
                without_tests(&code_only(&std::fs::read_to_string(f).ok()?)),
            ))
        })
        .collect();
    let modules: BTreeSet<Vec<String>> = units.iter().map(|(m, _)| m.clone()).collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (from, code) in &units {
        for path in paths(code) {
            let to = target(from, &path, &modules);
            let related = to.starts_with(from) || from.starts_with(&to);
            if !related {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    strongly_connected(&modules, &edges)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| c.iter().map(|m| m.join("::")).collect())
        .collect()
}

/// Tarjan's strongly connected components.
fn strongly_connected(
    nodes: &BTreeSet<Vec<String>>,
    edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> Vec<Vec<Vec<String>>> {
    struct State<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a [String], (usize, usize)>,
        stack: Vec<&'a [String]>,
        on_stack: BTreeSet<&'a [String]>,
        next: usize,
        out: Vec<Vec<Vec<String>>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a [String]) {
        s.index.insert(v, (s.next, s.next));
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(targets) = s.edges.get(v) {
            for w in targets {
                if !s.index.contains_key(w.as_slice()) {
                    visit(s, w);
                    let low = s.index[w.as_slice()].1.min(s.index[v].1);
                    s.index.get_mut(v).expect("visited").1 = low;
                } else if s.on_stack.contains(w.as_slice()) {
                    let low = s.index[w.as_slice()].0.min(s.index[v].1);
                    s.index.get_mut(v).expect("visited").1 = low;
                }
            }
        }
        if s.index[v].0 == s.index[v].1 {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.to_vec());
                if w == v {
                    break;
                }
            }
            s.out.push(component);
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in nodes {
        if !s.index.contains_key(v.as_slice()) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn no_two_modules_of_a_crate_import_each_other() {
    let mut found = Vec::new();
    for dir in crate_dirs() {
        for c in cycles(&dir.join("src")) {
            found.push(format!(
                "{}: {}",
                dir.file_name().expect("name").to_string_lossy(),
                c.join(" <-> ")
            ));
        }
    }
    assert!(found.is_empty(), "import cycles between modules: {found:#?}");
}

#[test]
fn the_checker_finds_a_cycle_and_allows_a_child_using_its_parent() {
    let dir = std::env::temp_dir().join(format!("redc-layers-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("a")).expect("temporary directory");
    let write = |path: &str, text: &str| std::fs::write(src.join(path), text).expect("write");
    write("lib.rs", "mod a; mod b; mod c;\nuse crate::a::X;\n");
    write(
        "a.rs",
        "//! crate::c is in a comment\nmod inner;\npub struct X;\nuse crate::b::Y;\n",
    );
    write(
        "a/inner.rs",
        "use super::X; use crate::{a::X as Z, c::W};\nconst S: &str = \"crate::b\";\n",
    );
    write("b.rs", "pub struct Y;\nfn f() { let _ = super::a::X; }\n");
    write(
        "c.rs",
        "pub struct W;\n#[cfg(test)]\nmod tests {\n    use crate::a::inner::X;\n}\n",
    );
    let found = cycles(&src);
    std::fs::remove_dir_all(&dir).expect("clean up");
    // a -> b (use), b -> a (an expression path): one cycle. a::inner -> a
    // (its parent) and a::inner -> c do not close one; the comment and the
    // string literal are no paths; the tests of c may use a::inner (which
    // uses c) without closing a cycle.
    assert_eq!(found.len(), 1, "{found:?}");
    let mut c = found[0].clone();
    c.sort();
    assert_eq!(c, ["a", "b"]);
}
