//! `dgn convert`: a dungeon description from one language to the other —
//! `dungeon.def`, NetHack 3.7's `dungeon.lua` or a compiled file in,
//! `.def` or `.lua` out — through the lowered [`Script`], so the output
//! loads to the same script (the same layouts under the same loader). The
//! output is read back and compared before it is handed out.

use crate::binary;
use crate::decompile::decompile;
use crate::frontend::{analyze_fast_as, analyze_verdict_as, CheckOptions, SourceKind};
use crate::lua::codes::{LUA_NO_DEF_FORM, LUA_NO_LUA_FORM};
use crate::model::Model;
use crate::script::{flags, Script};
use dgnkit_grammar::{Diagnostic, Span};

/// Why nothing was written: the input's errors, or what the output
/// language cannot hold, as diagnostics on the input (at offset 0 for a
/// compiled input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError {
    pub diagnostics: Vec<Diagnostic>,
}

/// Converts `src` (of `kind`, or a compiled file) to `to`.
pub fn convert(
    src: &[u8],
    kind: SourceKind,
    to: SourceKind,
    opts: &CheckOptions,
) -> Result<Vec<u8>, ConvertError> {
    let (script, model) = if binary::detect(src).is_ok() {
        let read = binary::read(src, None).map_err(|e| ConvertError {
            diagnostics: vec![Diagnostic::error(
                crate::lua::codes::LUA_NO_DEF_FORM,
                Span::new(0, 0),
                format!("not a valid compiled file: {e}"),
            )],
        })?;
        (read.script, None)
    } else {
        let a = analyze_verdict_as(kind, src, opts);
        match a.script {
            Some(s) => (s, Some(a.model)),
            None => {
                return Err(ConvertError {
                    diagnostics: a.diagnostics.into_iter().filter(|d| d.is_error()).collect(),
                })
            }
        }
    };
    if let Some(p) = &script.prelude {
        // The writers write tables: the code that draws before them has
        // no form there, and one outcome alone is not the file.
        let code = match to {
            SourceKind::Lua => LUA_NO_LUA_FORM,
            SourceKind::Def => LUA_NO_DEF_FORM,
        };
        return Err(ConvertError {
            diagnostics: vec![Diagnostic::error(
                code,
                Span::new(0, 0),
                format!(
                    "the file draws before it sets `dungeon` ({} outcomes): dgnkit writes a dungeon's tables, not the code that chooses among them",
                    p.outcomes.len()
                ),
            )
            .with_note("convert a file that is pure data; `dgn layout` and `dgn stats` read this one as it is")],
        });
    }
    let text = match to {
        SourceKind::Lua => crate::lua::write::write(&script).map_err(|errors| ConvertError {
            diagnostics: errors
                .into_iter()
                .map(|e| no_form(LUA_NO_LUA_FORM, model.as_ref(), e, "dungeon.lua"))
                .collect(),
        })?,
        SourceKind::Def => {
            let mut missing = model.as_ref().map(no_def_form).unwrap_or_default();
            if model.is_none() {
                missing.extend(
                    script
                        .dungeons
                        .iter()
                        .filter(|d| !d.lua.is_empty())
                        .map(|d| {
                            Diagnostic::error(
                                LUA_NO_DEF_FORM,
                                Span::new(0, 0),
                                format!(
                            "dungeon \"{}\" has NetHack 3.7 fields that dungeon.def cannot hold",
                            crate::binary::lossy(&d.name)
                        ),
                            )
                        }),
                );
            }
            if !missing.is_empty() {
                return Err(ConvertError {
                    diagnostics: missing,
                });
            }
            let mut text = b"# dungeon.def written by dgnkit (dgn convert)\n".to_vec();
            match decompile(&script) {
                Ok(t) => text.extend_from_slice(&t),
                Err(e) => {
                    return Err(ConvertError {
                        diagnostics: vec![no_form(
                            LUA_NO_DEF_FORM,
                            model.as_ref(),
                            crate::lua::write::WriteError {
                                place: crate::lua::write::Place::File,
                                message: e.message,
                            },
                            "dungeon.def",
                        )],
                    })
                }
            }
            text
        }
    };
    same_script(&text, to, &script, opts)?;
    Ok(text)
}

/// The output must read back to the input's script: anything else is a
/// bug of dgnkit's, reported rather than handed out.
fn same_script(
    text: &[u8],
    to: SourceKind,
    script: &Script,
    opts: &CheckOptions,
) -> Result<(), ConvertError> {
    let again = analyze_fast_as(to, text, opts);
    if again.script.as_ref() == Some(script) {
        return Ok(());
    }
    let why = again
        .diagnostics
        .iter()
        .find(|d| d.is_error())
        .map_or("it reads to another script".to_string(), |d| {
            format!("{}: {}", d.code, d.message)
        });
    Err(ConvertError {
        diagnostics: vec![Diagnostic::error(
            LUA_NO_LUA_FORM,
            Span::new(0, 0),
            format!("dgnkit's own output does not read back to the same dungeons ({why}); please report this"),
        )],
    })
}

/// A write error as a diagnostic on the construct it names.
fn no_form(
    code: &'static str,
    model: Option<&Model>,
    e: crate::lua::write::WriteError,
    language: &str,
) -> Diagnostic {
    use crate::lua::write::Place;
    let span = model
        .and_then(|m| match e.place {
            Place::File => None,
            Place::Dungeon(d) => m.dungeons.get(d).map(|d| d.name.span),
            Place::Level(l) => m.levels.get(l).map(|l| l.name.span),
            Place::Branch(b) => m.branches.get(b).map(|b| b.target.span),
        })
        .unwrap_or_default();
    Diagnostic::error(code, span, e.message)
        .with_label(span, format!("{language} cannot hold this"))
}

/// What a `dungeon.lua` says that `.def` cannot: one diagnostic per field.
fn no_def_form(m: &Model) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut push = |span: Span, what: String| {
        out.push(
            Diagnostic::error(LUA_NO_DEF_FORM, span, what)
                .with_label(span, "dungeon.def cannot hold this"),
        );
    };
    for d in &m.dungeons {
        let name = d.name.text();
        if let Some(t) = &d.lua.themerooms {
            push(
                t.span,
                format!("`themerooms` of \"{name}\": dungeon.def has no theme rooms"),
            );
        }
        if let Some(t) = &d.lua.lvlfill {
            push(
                t.span,
                format!("`lvlfill` of \"{name}\": dungeon.def has no level fill"),
            );
        }
        if let Some(s) = d.lua.unconnected {
            push(
                s,
                format!("`unconnected` of \"{name}\": dungeon.def has no unconnected dungeon"),
            );
        }
        if d.flags & flags::TOWN != 0 {
            let span = d.lua.flags.unwrap_or(d.name.span);
            push(
                span,
                format!("`town` among the flags of \"{name}\": dgn_comp takes it for levels only"),
            );
        }
    }
    out
}
