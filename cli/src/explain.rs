//! `dgn explain CODE|LINT`: the documentation of a diagnostic code, from the
//! same table that generates `docs/diagnostics.md`.

use super::{EXIT_OK, EXIT_USAGE};
use clap::Args;
use dgnkit::check::codes::{self, CodeInfo};
use dgnkit::dialect::Dialect;
use dgnkit::grammar::Severity;
use dgnkit::lint;
use std::process::ExitCode;

/// `dgn explain [CODE|LINT] [--list] [--markdown]`
#[derive(Args, Debug, Clone)]
pub struct ExplainArgs {
    /// A code (`E0406`), a lint name (`bones-marker-reuse`), or `find` (the
    /// query language of `dgn find`).
    #[arg(value_name = "CODE", required_unless_present_any = ["list", "markdown", "dialects"])]
    pub code: Option<String>,
    /// List every code with its summary.
    #[arg(long)]
    pub list: bool,
    /// Print the whole reference as Markdown (docs/diagnostics.md).
    #[arg(long)]
    pub markdown: bool,
    /// Describe the dialects (`--dialect` values).
    #[arg(long)]
    pub dialects: bool,
}

fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// The text `dgn explain CODE` prints.
pub fn explain_text(c: &CodeInfo) -> String {
    let mut out = format!("{} ({}", c.code, severity_word(c.severity));
    if let Some(l) = c.lint {
        out.push_str(&format!(", lint `{l}`"));
    }
    out.push_str(&format!("): {}\n", c.summary));
    if !c.explanation.is_empty() {
        out.push('\n');
        out.push_str(&wrap(c.explanation, 78));
    }
    if let Some(l) = c.lint {
        out.push_str(&format!(
            "\nSet its level with `--allow {l}`, `--warn {l}` or `--deny {l}` (deny makes it an error).\n"
        ));
    }
    if !c.example.is_empty() {
        out.push_str("\nExample:\n\n");
        for line in c.example.lines() {
            out.push_str("    ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// `docs/diagnostics.md`, generated from the code tables.
pub fn diagnostics_markdown() -> String {
    let mut out = String::from(
        "# dgnkit diagnostics\n\n\
         <!-- Generated from crates/frontend/src/check/codes.rs and grammar/src/codes.rs by\n     \
         `dgn explain --markdown`; a test keeps this file in sync. Do not edit by hand. -->\n\n\
         Every diagnostic has a stable code: `E` errors (the file is rejected, nothing is\n\
         written), `W` warnings (named lints), `N` notes. `dgn explain CODE` prints one entry.\n\n\
         Warnings are lints: `--allow NAME`, `--warn NAME` and `--deny NAME` set their level\n\
         (deny turns the warning into an error). Two groups exist: `compat` (every\n\
         `compat-*` lint: what NetHack's own dgn_comp rejects although dgnkit accepts it;\n\
         `--deny compat` rejects exactly what dgn_comp rejects) and `warnings` (every lint).\n\
         A lint named directly beats its group; for one name, deny beats warn beats allow.\n\n\
         Codes by family: `E01xx`/`W01xx` syntax and preprocessing, `02` file structure,\n\
         `03` names and bones markers, `04` level ranges and placement, `05` chains,\n\
         `06` branches, `07` descriptors, `08` limits, `09` dialect constructs, `10` what\n\
         NetHack's loader does, `11` compatibility with NetHack's dgn_comp, `12` reading\n\
         dungeon.lua, `13` the query language of `dgn find` (`dgn explain find`).\n\n\
         ## Index\n\n| code | severity | lint | summary |\n|---|---|---|---|\n",
    );
    let all = codes::all();
    for c in &all {
        out.push_str(&format!(
            "| [{}](#{}) | {} | {} | {} |\n",
            c.code,
            c.code.to_ascii_lowercase(),
            severity_word(c.severity),
            c.lint.map_or(String::new(), |l| format!("`{l}`")),
            c.summary.replace('|', "\\|")
        ));
    }
    for c in &all {
        out.push_str(&format!("\n## {}\n\n", c.code));
        out.push_str(&format!("**{}**", severity_word(c.severity)));
        if let Some(l) = c.lint {
            out.push_str(&format!(", lint `{l}`"));
        }
        out.push_str(&format!(": {}\n", c.summary));
        if !c.explanation.is_empty() {
            out.push('\n');
            out.push_str(c.explanation);
            out.push('\n');
        }
        if !c.example.is_empty() {
            out.push_str("\n```\n");
            out.push_str(c.example);
            if !c.example.ends_with('\n') {
                out.push('\n');
            }
            out.push_str("```\n");
        }
    }
    out.push_str("\n## Dialects\n\n`--dialect` selects the variant whose compiler the file is written for.\n\n");
    out.push_str(&dialects_text(true));
    out
}

fn dialects_text(markdown: bool) -> String {
    let mut out = String::new();
    for d in Dialect::ALL {
        let l = d.info().limits;
        let n = |v: Option<u32>| v.map_or("none".to_string(), |v| v.to_string());
        let limits = format!(
            "dungeons {}, MAXLEVEL {}, special levels {}, branches {}, dungeon names {} bytes, level names {} bytes, levels in all {}",
            n(l.max_dungeons),
            l.max_level.map_or("none".into(), |v| v.to_string()),
            n(l.max_levels),
            n(l.max_branches),
            l.dungeon_name.map_or("any".into(), |v| v.to_string()),
            l.level_name.map_or("any".into(), |v| v.to_string()),
            n(l.max_ledger),
        );
        if markdown {
            out.push_str(&format!(
                "- `{}` ({}): {}\n  Limits: {}.\n",
                d.name(),
                d.title(),
                d.doc(),
                limits
            ));
        } else {
            out.push_str(&format!(
                "{} ({})\n{}{}\n",
                d.name(),
                d.title(),
                wrap(d.doc(), 76),
                wrap(&format!("Limits: {limits}."), 76)
            ));
            out.push('\n');
        }
    }
    out
}

pub fn run(args: ExplainArgs) -> ExitCode {
    if args.markdown {
        print!("{}", diagnostics_markdown());
        return ExitCode::from(EXIT_OK);
    }
    if args.dialects {
        print!("{}", dialects_text(false));
        return ExitCode::from(EXIT_OK);
    }
    if args.list {
        for c in codes::all() {
            let lint = c.lint.map_or(String::new(), |l| format!(" [{l}]"));
            println!(
                "{} {:7} {}{lint}",
                c.code,
                severity_word(c.severity),
                c.summary
            );
        }
        return ExitCode::from(EXIT_OK);
    }
    let query = args.code.unwrap_or_default();
    if query.trim() == "find" {
        print!("{}", dgnkit::find::LANGUAGE);
        return ExitCode::from(EXIT_OK);
    }
    let found = codes::lookup(&query).or_else(|| codes::lint_code(query.trim()));
    match found {
        Some(c) => {
            print!("{}", explain_text(&c));
            ExitCode::from(EXIT_OK)
        }
        None if query == "xlog" => {
            print!("{}", dgnkit::xlog::explain());
            ExitCode::from(EXIT_OK)
        }
        None if query == lint::COMPAT_GROUP || query == lint::ALL_GROUP => {
            println!(
                "`{query}` is a lint group: {}",
                lint_group_members(&query).join(", ")
            );
            ExitCode::from(EXIT_OK)
        }
        None => {
            eprintln!("dgn explain: no diagnostic code or lint named `{query}` (see `dgn explain --list`)");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn lint_group_members(group: &str) -> Vec<&'static str> {
    lint::lint_names()
        .into_iter()
        .filter(|l| group == lint::ALL_GROUP || l.starts_with("compat-"))
        .collect()
}
