#![allow(dead_code)]
//! Shared helpers of the grammar's integration tests.

use std::path::PathBuf;

/// `../shared` beside the checkout, or `None` (with a message) when absent.
/// Under `DGNKIT_REQUIRE_SHARED=1` a missing folder is a failure.
pub fn shared_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("..")
        .join("shared");
    if root.join("corpus").is_dir() {
        return Some(root);
    }
    if std::env::var("DGNKIT_REQUIRE_SHARED").as_deref() == Ok("1") {
        panic!("DGNKIT_REQUIRE_SHARED=1 but {} is missing", root.display());
    }
    eprintln!(
        "skipping: {} is absent (tests against the real corpus need it)",
        root.display()
    );
    None
}

/// Every `dungeon.def` and `dungeon.pdf` of the shared corpus, sorted, with
/// its name relative to the corpus folder.
pub fn corpus_files() -> Vec<(String, Vec<u8>)> {
    let Some(shared) = shared_dir() else {
        return Vec::new();
    };
    let corpus = shared.join("corpus");
    let mut dirs: Vec<_> = std::fs::read_dir(&corpus)
        .expect("corpus folder is readable")
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    let mut out = Vec::new();
    for dir in dirs.iter().filter(|d| d.is_dir()) {
        for name in ["dungeon.def", "dungeon.pdf"] {
            let path = dir.join(name);
            if let Ok(bytes) = std::fs::read(&path) {
                let rel = path
                    .strip_prefix(&corpus)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                out.push((rel, bytes));
            }
        }
    }
    assert!(
        out.len() >= 100,
        "expected the whole corpus, found {} files",
        out.len()
    );
    out
}

use dgnkit_grammar::ast::*;
use dgnkit_grammar::{Diagnostic, Span};
use std::fmt::Write;

/// `line:col` (1-based, bytes) of an offset.
fn pos(src: &[u8], offset: u32) -> String {
    let before = &src[..(offset as usize).min(src.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = before.len()
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    format!("{line}:{col}")
}

fn sp(src: &[u8], span: Span) -> String {
    format!("{}-{}", pos(src, span.start), pos(src, span.end))
}

fn lit(src: &[u8], s: &StrLit) -> String {
    // The bytes must be exactly the source between the quotes.
    let text = String::from_utf8_lossy(&s.bytes).escape_debug().to_string();
    assert!(
        src[s.span.range()].starts_with(b"\""),
        "string span must start at its quote"
    );
    format!("\"{text}\" {}", sp(src, s.span))
}

fn num(src: &[u8], n: &Num) -> String {
    format!(
        "{} {}",
        n.value.map_or("overflow".to_string(), |v| v.to_string()),
        sp(src, n.span)
    )
}

fn word(src: &[u8], w: &Word) -> String {
    format!("{} {}", w.text, sp(src, w.span))
}

fn couple(src: &[u8], c: &Couple) -> String {
    format!(
        "({}, {}) {}",
        num(src, &c.base),
        num(src, &c.rand),
        sp(src, c.span)
    )
}

/// A compact, reviewable rendering of a tree and its diagnostics.
pub fn render(src: &[u8], parsed: &dgnkit_grammar::Parsed) -> String {
    let mut out = String::new();
    for s in &parsed.file.statements {
        let head = |k: &Keyword| {
            format!(
                "{} {} (stmt {})",
                k.kind.as_str(),
                sp(src, k.span),
                sp(src, s.span)
            )
        };
        let mut fields: Vec<(&str, String)> = Vec::new();
        let title = match &s.kind {
            StmtKind::Dungeon(d) => {
                fields.push(("name", lit(src, &d.name)));
                fields.push(("bones", lit(src, &d.bones)));
                fields.push(("size", couple(src, &d.size)));
                if let Some(c) = &d.chance {
                    fields.push(("chance", num(src, c)));
                }
                head(&d.keyword)
            }
            StmtKind::Entry(e) => {
                fields.push(("level", num(src, &e.level)));
                head(&e.keyword)
            }
            StmtKind::Protofile(p) => {
                fields.push(("name", lit(src, &p.name)));
                head(&p.keyword)
            }
            StmtKind::Description(w)
            | StmtKind::Alignment(w)
            | StmtKind::LevelDesc(w)
            | StmtKind::LevAlign(w) => {
                fields.push(("word", word(src, &w.word)));
                head(&w.keyword)
            }
            StmtKind::Tileset(t) => {
                match &t.value {
                    TilesetValue::Word(w) => fields.push(("word", word(src, w))),
                    TilesetValue::Num(n) => fields.push(("number", num(src, n))),
                }
                head(&t.keyword)
            }
            StmtKind::Level(l) => {
                for (n, v) in [
                    ("display", &l.display),
                    ("name", &Some(l.name.clone())),
                    ("bones", &l.bones),
                    ("chain", &l.chain),
                ] {
                    if let Some(v) = v {
                        fields.push((n, lit(src, v)));
                    }
                }
                fields.push(("placement", couple(src, &l.placement)));
                for (n, v) in [("chance", &l.chance), ("rndlevs", &l.rndlevs)] {
                    if let Some(v) = v {
                        fields.push((n, num(src, v)));
                    }
                }
                head(&l.keyword)
            }
            StmtKind::Branch(b) => {
                fields.push(("target", lit(src, &b.target)));
                if let Some(c) = &b.chain {
                    fields.push(("chain", lit(src, c)));
                }
                fields.push(("placement", couple(src, &b.placement)));
                for (n, v) in [("type", &b.branch_type), ("direction", &b.direction)] {
                    if let Some(v) = v {
                        fields.push((n, word(src, v)));
                    }
                }
                if let Some(e) = &b.entry {
                    fields.push(("entry", num(src, e)));
                }
                head(&b.keyword)
            }
            StmtKind::Error => format!("<error> {}", sp(src, s.span)),
        };
        writeln!(out, "{title}").unwrap();
        for (n, v) in fields {
            writeln!(out, "    {n}: {v}").unwrap();
        }
    }
    for c in &parsed.file.comments {
        let kind = if c.trailing {
            "trailing comment"
        } else {
            "comment"
        };
        writeln!(
            out,
            "{kind} {} {:?}",
            sp(src, c.span),
            String::from_utf8_lossy(&src[c.span.range()])
        )
        .unwrap();
    }
    for f in &parsed.file.flag_lines {
        writeln!(
            out,
            "flag %{} {} kept={} known={}",
            f.name,
            sp(src, f.span),
            f.kept,
            f.known
        )
        .unwrap();
    }
    for d in &parsed.diagnostics {
        render_diagnostic(src, d, &mut out);
    }
    out
}

pub fn render_diagnostic(src: &[u8], d: &Diagnostic, out: &mut String) {
    let sev = format!("{:?}", d.severity).to_lowercase();
    let lint = d.lint.map(|l| format!(" ({l})")).unwrap_or_default();
    writeln!(
        out,
        "{sev}[{}]{lint} {}: {}",
        d.code,
        sp(src, d.span),
        d.message
    )
    .unwrap();
    for l in &d.labels {
        writeln!(out, "    label {}: {}", sp(src, l.span), l.message).unwrap();
    }
    for n in &d.notes {
        writeln!(out, "    note: {n}").unwrap();
    }
    if let Some(f) = &d.fix {
        writeln!(out, "    fix: {}", f.message).unwrap();
        for e in &f.edits {
            writeln!(out, "        {} -> {:?}", sp(src, e.span), e.replacement).unwrap();
        }
    }
}
