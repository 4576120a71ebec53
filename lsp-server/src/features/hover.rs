//! Hovers: a special level (where it can be, its bones verdict and file
//! name), a dungeon (size, depth, entry, how it is reached), a branch (where
//! it can land), a keyword or value word (what it means).

use crate::db;
use crate::facts::{self, percent};
use crate::state::DocView;
use crate::vocabulary::{keyword_doc, word_doc, WordClass};
use dgnkit::bones::{
    file_name, verdicts_from_stats, Rule, SpecialVerdict, StaticKind, StaticReport,
};
use dgnkit::model::{
    display_bytes, Bones, BranchInfo, Couple, DungeonId, LevelId, Model, SourceKind, Symbol, Value,
};
use dgnkit::script::BranchType;
use dgnkit::stats::chart::method_line;
use dgnkit::stats::{BonesSummary, Method, Stats};
use dgnkit_grammar::ast::{KeywordKind, StmtKind};
use dgnkit_grammar::lexer::TokenKind;
use dgnkit_grammar::Span;
use std::fmt::Write;
use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

/// Everything a hover needs besides the model.
struct Ctx<'a> {
    model: &'a Model,
    geo: &'a facts::Geometry,
    stats: Option<&'a Stats>,
    /// Why there are no statistics, when there are none.
    no_stats: Option<&'static str>,
    /// The game the document is checked for (its bones rules and file
    /// names).
    target: dgnkit::options::Target,
    /// The bones verdicts `dgn bones` gives for the same statistics.
    verdicts: Option<StaticReport>,
}

impl<'a> Ctx<'a> {
    fn new(view: DocView<'a>) -> Self {
        let (stats, no_stats) = match view.stats() {
            Ok(s) => (Some(s), None),
            Err(missing) => (None, Some(missing.explain())),
        };
        let verdicts = stats
            .zip(view.semantic().analysis.script.as_ref())
            .map(|(s, script)| verdicts_from_stats(script, s));
        Ctx {
            model: view.model(),
            geo: db::geometry(view.db, view.file),
            stats,
            no_stats,
            target: view.config().target,
            verdicts,
        }
    }

    /// Why the numbers are not exact, when they are sampled.
    fn sampled(&self) -> Option<String> {
        match &self.stats?.method {
            Method::Sampled { .. } => Some(method_line(&self.stats?.method)),
            Method::Exact { .. } => None,
        }
    }
}

fn markdown(value: String, range: Option<tower_lsp_server::ls_types::Range>) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range,
    }
}

pub fn hover(view: DocView<'_>, position: Position) -> Option<Hover> {
    let offset = view.offset(position);
    let syntax = view.syntax();
    let token = syntax
        .tokens
        .iter()
        .find(|t| t.span.start <= offset && offset < t.span.end)
        .or_else(|| {
            syntax
                .tokens
                .iter()
                .find(|t| t.span.end == offset && t.span.start < offset)
        });
    if let Some(t) = token {
        match t.kind {
            TokenKind::Comment | TokenKind::TrailingComment => return None,
            TokenKind::Keyword(k) => {
                let (syntax_line, doc) = keyword_doc(k);
                let mut text = format!("```\n{syntax_line}\n```\n{doc}");
                if matches!(k, KeywordKind::Branch | KeywordKind::ChainBranch) {
                    if let Some(b) = branch_at(view, t.span) {
                        text.push_str("\n\n---\n\n");
                        text.push_str(&branch_text(&Ctx::new(view), b));
                    }
                }
                return Some(markdown(text, Some(view.range(t.span))));
            }
            TokenKind::Word => {
                let word = String::from_utf8_lossy(&view.text()[t.span.range()]).into_owned();
                let classes = word_classes(view, offset);
                let doc = word_doc(&word, classes)?;
                return Some(markdown(
                    format!("`{word}`: {doc}"),
                    Some(view.range(t.span)),
                ));
            }
            _ => {}
        }
    }
    let ctx = Ctx::new(view);
    if let Some((symbol, span)) = crate::features::navigation::symbol_at(view, position) {
        let text = match symbol {
            Symbol::Level(l) => level_text(&ctx, l),
            Symbol::Dungeon(d) => dungeon_text(&ctx, d),
        };
        return Some(markdown(text, Some(view.range(span))));
    }
    // Elsewhere in a statement: what the statement defines.
    let c = view.canon_offset(position)?;
    let inside = |s: Span| s.start <= c && c <= s.end;
    if let Some(l) = ctx.model.levels.iter().find(|l| inside(l.span)) {
        return Some(markdown(level_text(&ctx, l.id), None));
    }
    if let Some(b) = ctx.model.branches.iter().find(|b| inside(b.span)) {
        return Some(markdown(branch_text(&ctx, b), None));
    }
    if let Some(d) = ctx.model.dungeons.iter().find(|d| inside(d.span)) {
        return Some(markdown(dungeon_text(&ctx, d.id), None));
    }
    None
}

fn branch_at<'a>(view: DocView<'a>, keyword: Span) -> Option<&'a BranchInfo> {
    let c = view.canon_map().span_to_canon(keyword)?;
    view.model().branches.iter().find(|b| b.keyword_span == c)
}

/// Which value words the statement under `offset` takes.
fn word_classes(view: DocView<'_>, offset: u32) -> &'static [WordClass] {
    let stmt = view
        .syntax()
        .parsed
        .file
        .statements
        .iter()
        .find(|s| s.span.start <= offset && offset <= s.span.end);
    match stmt.map(|s| &s.kind) {
        Some(StmtKind::Description(_)) => &[WordClass::DungeonDescriptor],
        Some(StmtKind::LevelDesc(_)) => &[WordClass::LevelDescriptor],
        Some(StmtKind::Alignment(_)) | Some(StmtKind::LevAlign(_)) => &[WordClass::Alignment],
        Some(StmtKind::Branch(_)) => &[WordClass::BranchType, WordClass::Direction],
        _ => &[],
    }
}

fn name(bytes: &[u8]) -> String {
    display_bytes(bytes)
}

/// A level's, branch's or dungeon's placement as dungeon.lua spells it:
/// `chainlevel = "oracle", base = 5, range = 5` (`range` and the `extra`
/// integer fields only when the file has them).
fn lua_fields(chain: Option<&[u8]>, c: &Couple, extra: &[(&str, Option<Value>)]) -> String {
    let mut parts = Vec::new();
    if let Some(chain) = chain {
        parts.push(format!("chainlevel = \"{}\"", name(chain)));
    }
    parts.push(format!("base = {}", c.base));
    if !c.rand_span.is_empty() {
        parts.push(format!("range = {}", c.rand));
    }
    for (key, v) in extra {
        if let Some(v) = v {
            parts.push(format!("{key} = {}", v.value));
        }
    }
    parts.join(", ")
}

fn marker_text(b: Bones) -> String {
    match b {
        Bones::None => "\"none\"".to_string(),
        Bones::Marker(m) => format!("\"{}\"", display_bytes(&[m])),
        Bones::Invalid => "(invalid)".to_string(),
    }
}

fn exists_text(p: Option<f64>, chance: Option<i64>) -> Option<String> {
    match (p, chance) {
        (Some(p), _) if p < 1.0 => Some(format!("exists in {} of games", percent(p))),
        (Some(_), _) => None,
        (None, Some(c)) if c < 100 => Some(format!("exists with chance {c}%")),
        _ => None,
    }
}

fn level_text(ctx: &Ctx<'_>, id: LevelId) -> String {
    let model = ctx.model;
    let l = model.level(id);
    let d = model.dungeon(l.dungeon);
    let mut out = String::new();
    let _ = write!(
        out,
        "**\"{}\"**: special level of **{}**",
        name(&l.name.bytes),
        name(&d.name.bytes)
    );
    if model.source == SourceKind::Lua {
        let fields = lua_fields(
            l.chain.as_ref().map(|c| &c.name.bytes[..]),
            &l.placement,
            &[("chance", l.chance), ("nlevels", l.rndlevs)],
        );
        let _ = write!(out, "\n\n`{fields}`");
    } else {
        let placement = match &l.chain {
            Some(c) => format!(
                "\"{}\" + ({}, {})",
                name(&c.name.bytes),
                l.placement.base,
                l.placement.rand
            ),
            None => format!("@ ({}, {})", l.placement.base, l.placement.rand),
        };
        let _ = write!(out, "\n\n`{}` {placement}", l.keyword.as_str());
    }
    if let Some(n) = l.rndlevs {
        let _ = write!(out, ", one of {} variants", n.value);
    }
    let w = facts::level(model, ctx.geo, ctx.stats, id);
    if let Some(s) = w.level_stat.filter(|s| s.name.contains(" or ")) {
        let _ = write!(out, "\n\n- name: {} (the file's own draws choose)", s.name);
    }
    let _ = write!(out, "\n\n- level: {}", w.level.long());
    let _ = write!(out, "\n- depth: {}", w.depth.long());
    if let Some(e) = exists_text(w.exists, l.chance.map(|c| c.value)) {
        let _ = write!(out, "\n- {e}");
    }
    why_text(ctx, &mut out);
    // Bones.
    let marker = l.bones.as_ref().map_or(Bones::None, |b| b.value);
    let _ = write!(out, "\n- bones marker: {}", marker_text(marker));
    match (verdict(ctx, id), w.level_stat) {
        (Some(v), Some(s)) => out.push_str(&bones_text(v, &s.bones)),
        _ => out.push_str(&match (marker, d.bones.value) {
            (Bones::None, _) => rule_text("never", &[Rule::SpecialNone.number()]),
            (_, Bones::None) => rule_text("never", &[Rule::DungeonNone.number()]),
            _ => "\n- bones: depends on where the level lands (the game's rules 3 and on); verdicts need statistics".to_string(),
        }),
    }
    let _ = write!(out, "\n- bones rules: {}'s", ctx.target.game().title);
    if let (Bones::Marker(m), Bones::Marker(dm)) = (marker, d.bones.value) {
        let file = file_name(
            &String::from_utf8_lossy(&d.name.bytes),
            &String::from_utf8_lossy(&[dm]),
            Some(&String::from_utf8_lossy(&[m])),
            0,
            None,
        );
        if let Some(f) = file {
            let f = dgnkit::bones::with_infix(f, ctx.target.game().bones.name_infix);
            let _ = write!(out, "\n- bones file: `{f}`");
        }
    }
    if let Some(first) = l.first_of_name {
        let f = model.level(first);
        let _ = write!(
            out,
            "\n\nAn earlier level of **{}** has this name; chains and the game's look-ups find that one.",
            name(&model.dungeon(f.dungeon).name.bytes)
        );
    }
    out
}

/// What `dgn bones` says of the level, from the same statistics.
fn verdict<'c>(ctx: &'c Ctx<'_>, id: LevelId) -> Option<&'c SpecialVerdict> {
    let l = ctx.model.level(id);
    let v = ctx.verdicts.as_ref()?.levels.get(id.index())?;
    let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let dungeon = &ctx.model.dungeon(l.dungeon).name.bytes;
    (dgnkit::stats::names_include(&v.name, &lossy(&l.name.bytes))
        && dgnkit::stats::names_include(&v.dungeon, &lossy(dungeon)))
    .then_some(v)
}

/// The hover's note on its numbers: why there are none, or that they are
/// sampled.
fn why_text(ctx: &Ctx<'_>, out: &mut String) {
    if let Some(why) = ctx.no_stats {
        let _ = write!(out, " \n  _({why})_");
    } else if let Some(how) = ctx.sampled() {
        let _ = write!(out, " \n  _({how})_");
    }
}

/// `- bones: never (rule 1: special level with bones marker "none")`.
fn rule_text(verdict: &str, rules: &[u8]) -> String {
    let named: Vec<String> = rules
        .iter()
        .map(|&n| match Rule::from_number(n) {
            Some(r) => format!("rule {n}: {}", r.summary()),
            None => format!("rule {n}"),
        })
        .collect();
    if named.is_empty() {
        format!("\n- bones: {verdict}")
    } else {
        format!("\n- bones: {verdict} ({})", named.join("; "))
    }
}

/// The verdict `dgn bones` gives (its word and the rules that always
/// decide), and the numbers behind it.
fn bones_text(v: &SpecialVerdict, b: &BonesSummary) -> String {
    let line = rule_text(v.verdict.name(), &v.rules);
    if matches!(v.verdict, StaticKind::Never | StaticKind::NeverExists) {
        let mut out = line;
        for reason in &v.reasons {
            let _ = write!(out, "\n- {reason}");
        }
        return out;
    }
    let mut out = format!(
        "{line}: can load them in {} of games, can leave them in {} (chance on death {})",
        percent(b.can_load),
        percent(b.can_leave),
        percent(b.leave_chance)
    );
    let decided: Vec<String> = b
        .decided_by
        .iter()
        .filter(|(_, p)| **p > 0.0)
        .map(|(rule, p)| {
            let summary = rule
                .parse::<u8>()
                .ok()
                .and_then(Rule::from_number)
                .map_or("", |r| r.summary());
            format!("rule {rule} ({summary}) {}", percent(*p))
        })
        .collect();
    if !decided.is_empty() {
        let _ = write!(out, "\n- decided by: {}", decided.join("; "));
    }
    if let Some((lo, hi)) = b.leave_depth {
        let _ = write!(out, "\n- leaves bones at depth {lo}-{hi}");
    }
    out
}

fn entry_text(entry: Option<i64>) -> String {
    match entry.unwrap_or(0) {
        0 => "level 1".to_string(),
        -1 => "the bottom level".to_string(),
        e if e < 0 => format!("level {} from the bottom", -e),
        e => format!("level {e}"),
    }
}

fn branch_kind(b: &BranchInfo) -> String {
    let t = match b.branch_type {
        Some(BranchType::Portal) => return "portal".to_string(),
        Some(BranchType::NoUp) => "one-way stairs (no_up)",
        Some(BranchType::NoDown) => "one-way stairs (no_down)",
        _ => "stairs",
    };
    let dir = if b.up { "up" } else { "down" };
    format!("{t} {dir}")
}

fn dungeon_text(ctx: &Ctx<'_>, id: DungeonId) -> String {
    let model = ctx.model;
    let d = model.dungeon(id);
    let mut out = String::new();
    let _ = write!(
        out,
        "**{}**: dungeon, bones marker {}",
        name(&d.name.bytes),
        marker_text(d.bones.value)
    );
    let (size, start, exists) = facts::dungeon(model, ctx.geo, ctx.stats, id);
    let lua = model.source == SourceKind::Lua;
    let spelled = if lua {
        lua_fields(None, &d.size, &[])
    } else {
        format!("({}, {})", d.size.base, d.size.rand)
    };
    let _ = write!(out, "\n\n- size: {} levels (`{spelled}`)", size.long());
    let _ = write!(out, "\n- depth of level 1: {}", start.long());
    if let (Some((s_lo, s_hi)), Some((n_lo, n_hi))) = (start.bounds(), size.bounds()) {
        let _ = write!(
            out,
            "\n- depth range: {}-{}",
            s_lo.min(s_lo + n_lo - 1),
            s_hi.max(s_hi + n_hi - 1)
        );
    }
    let _ = write!(out, "\n- entry: {}", entry_text(d.entry.map(|e| e.value)));
    if let (true, Some(e)) = (lua, d.entry) {
        let _ = write!(out, " (`entry = {}`)", e.value);
    }
    if let Some(e) = exists_text(exists, d.chance.map(|c| c.value)) {
        let _ = write!(out, "\n- {e}");
    }
    why_text(ctx, &mut out);
    match model.parent_branch(id) {
        Some(b) => {
            let w = facts::branch(model, ctx.geo, ctx.stats, b);
            let from = name(&model.dungeon(b.dungeon).name.bytes);
            let how = if lua {
                // dungeon.lua lists a dungeon's branches in its parent.
                let fields = lua_fields(
                    b.chain.as_ref().map(|c| &c.name.bytes[..]),
                    &b.placement,
                    &[],
                );
                format!("an entry of **{from}**'s `branches` (`{fields}`)")
            } else {
                format!("`{}` from **{from}**", b.keyword.as_str())
            };
            let _ = write!(
                out,
                "\n- reached by: {how}, {}, on its level {}",
                branch_kind(b),
                w.level.short().unwrap_or_else(|| "?".into())
            );
        }
        None if id.0 == 0 => out.push_str("\n- the main dungeon: the game starts on its level 1"),
        None => {
            out.push_str("\n- reached by: no branch leads here (an error: the loader would abort)")
        }
    }
    let flags: Vec<String> = d
        .descs
        .iter()
        .filter(|x| x.flags.is_ok())
        .map(|x| x.word.text.clone())
        .collect();
    if !flags.is_empty() {
        let _ = write!(out, "\n- described as: {}", flags.join(", "));
    }
    let levels: Vec<String> = model
        .levels_of(id)
        .map(|l| format!("\"{}\"", name(&l.name.bytes)))
        .collect();
    if !levels.is_empty() {
        let _ = write!(out, "\n- special levels: {}", levels.join(", "));
    }
    let branches: Vec<String> = model
        .branches_of(id)
        .map(|b| format!("**{}**", name(&b.target.bytes)))
        .collect();
    if !branches.is_empty() {
        let _ = write!(out, "\n- branches to: {}", branches.join(", "));
    }
    out
}

fn branch_text(ctx: &Ctx<'_>, b: &BranchInfo) -> String {
    let model = ctx.model;
    let from = model.dungeon(b.dungeon);
    let mut out = String::new();
    let _ = write!(
        out,
        "**Branch** from **{}** to **{}** ({})",
        name(&from.name.bytes),
        name(&b.target.bytes),
        branch_kind(b)
    );
    let w = facts::branch(model, ctx.geo, ctx.stats, b);
    let _ = write!(
        out,
        "\n\n- lands on level: {} of {}",
        w.level.long(),
        name(&from.name.bytes)
    );
    let _ = write!(out, "\n- depth: {}", w.depth.long());
    if let Some(e) = exists_text(w.exists, None) {
        let _ = write!(out, "\n- {e}");
    }
    why_text(ctx, &mut out);
    match b.target_dungeon {
        Some(t) => {
            let entry = b
                .entry
                .map(|e| e.value)
                .or(model.dungeon(t).entry.map(|e| e.value));
            let _ = write!(
                out,
                "\n- arrives at: {} of {}",
                entry_text(entry),
                name(&b.target.bytes)
            );
        }
        None => out.push_str("\n- the target dungeon is not defined in this file"),
    }
    out
}
