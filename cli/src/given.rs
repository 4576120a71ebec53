//! `dgn stats --given QUERY` and `--given-overview FILE`: what the player
//! has seen, as the statistics' condition.

use super::input::Input;
use super::stats::{ComputeOpts, StatsArgs};
use super::{EXIT_INPUT, EXIT_USAGE};
use dgnkit::find::{self, Query};
use dgnkit::loader::Resolver;
use dgnkit::stats::{Given, Method, Stats};
use std::io::Write;

/// The evidence of a run, and what is needed to judge it again on a part.
pub(crate) struct Read {
    pub given: Given,
    query: Query,
    resolver: Resolver,
    bones: dgnkit::bones::BonesOptions,
    explicit: Option<dgnkit::options::Target>,
}

/// The evidence `--given` and `--given-overview` give, if any. Errors are
/// reported to `err`: a query that does not compile or an overview with no
/// evidence (input errors), an unreadable file (usage).
pub(crate) fn read(
    args: &StatsArgs,
    input: &Input,
    err: &mut dyn Write,
    color: bool,
) -> Result<Option<Read>, u8> {
    if args.given.is_none() && args.given_overview.is_none() {
        return Ok(None);
    }
    let c = &args.compute;
    let inputs =
        super::input::loader_inputs("stats", &c.loader, c.wizard, args.common.target, err)?;
    let resolver = super::input::resolver_for("stats", input, &inputs, err)?;
    let mut parts: Vec<String> = Vec::new();
    if let Some(q) = &args.given {
        parts.push(q.clone());
    }
    if let Some(path) = &args.given_overview {
        let text = match super::input::read_input(path) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                let _ = writeln!(err, "dgn stats: cannot read `{}`: {e}", path.display());
                return Err(EXIT_USAGE);
            }
        };
        let reading = find::overview::read(&text, &resolver);
        let shown = path.display();
        for s in reading.unknown.iter().chain(&reading.unused) {
            let _ = writeln!(
                err,
                "dgn stats: {shown}:{}: `{}`: {} (skipped)",
                s.line, s.text, s.why
            );
        }
        if reading.wizard && !c.wizard {
            let _ = writeln!(
                err,
                "dgn stats: {shown}: levels named in brackets are printed in wizard mode only: give --wizard for that game's loader"
            );
        }
        match reading.query() {
            Some(q) => parts.push(q),
            None => {
                let _ = writeln!(
                    err,
                    "dgn stats: {shown}: no dungeon overview found (NetHack's #overview text: `The Dungeons of Doom: levels 1 to 9` and `   Level 3:` lines)"
                );
                return Err(EXIT_INPUT);
            }
        }
    }
    let text = if parts.len() == 1 {
        parts.remove(0)
    } else {
        parts
            .iter()
            .map(|p| format!("({p})"))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    let query = match find::compile(&text, &resolver) {
        Ok(q) => q,
        Err(d) => {
            let shown = dgnkit::render::human("given", text.as_bytes(), &[*d], color);
            let _ = write!(err, "{shown}");
            let _ = writeln!(
                err,
                "dgn stats: --given has errors (`dgn explain find` describes the language)"
            );
            return Err(EXIT_INPUT);
        }
    };
    let warnings = find::warnings(&text);
    if !warnings.is_empty() {
        let shown = dgnkit::render::human("given", text.as_bytes(), &warnings, color);
        let _ = write!(err, "{shown}");
    }
    let bones = super::bones::bones_options(
        input.target,
        c.portal_levels.as_ref(),
        c.loader.role.as_ref(),
    );
    if let Err(why) = find::given::evidence(&query, &resolver) {
        let _ = writeln!(
            err,
            "dgn stats: --given is judged on sampled layouts, not enumerated exactly: {why}"
        );
    }
    let given = given_for(&query, &resolver, &bones, text);
    Ok(Some(Read {
        given,
        query,
        resolver,
        bones,
        explicit: args.common.target,
    }))
}

/// The statistics' condition for a query: constraints when the
/// enumeration takes them, else the query judged on sampled layouts.
fn given_for(
    query: &Query,
    res: &Resolver,
    bones: &dgnkit::bones::BonesOptions,
    describe: String,
) -> Given {
    match find::given::evidence(query, res) {
        Ok(e) => Given {
            evidence: Some(e),
            predicate: None,
            describe,
        },
        Err(_) => Given {
            evidence: None,
            predicate: Some(find::given::predicate(query.clone(), bones.clone())),
            describe,
        },
    }
}

impl Read {
    /// An error when no layout meets the evidence, naming the smallest part
    /// of the query no layout meets (found by dropping one condition at a
    /// time while the rest still contradicts).
    pub(crate) fn check_possible(
        &self,
        compute: &ComputeOpts,
        input: &Input,
        stats: &Stats,
        err: &mut dyn Write,
    ) -> Result<(), u8> {
        let Some(g) = &stats.given else {
            return Ok(());
        };
        if g.p_evidence > 0.0 {
            return Ok(());
        }
        if let Method::Sampled { samples, .. } = &stats.method {
            let _ = writeln!(
                err,
                "dgn stats: none of the {samples} sampled layouts of `{}` meets the evidence `{}` (more --samples may find some)",
                input.name, self.given.describe
            );
            return Err(EXIT_INPUT);
        }
        let n = find::given::conjuncts(&self.query.root).len();
        let mut keep: Vec<usize> = (0..n).collect();
        let mut i = 0;
        while i < keep.len() && keep.len() > 1 {
            let trial: Vec<usize> = keep.iter().copied().filter(|&k| k != keep[i]).collect();
            if self.impossible(compute, input, &trial) {
                keep = trial;
            } else {
                i += 1;
            }
        }
        let part = find::given::subset(&self.query, &keep)
            .map(|q| find::given::text(&q, &q.root))
            .unwrap_or_default();
        let _ = writeln!(
            err,
            "dgn stats: no layout of `{}` meets the evidence; the smallest part of it no layout meets: `{part}`",
            input.name
        );
        Err(EXIT_INPUT)
    }

    /// Whether the conjuncts `keep` alone are met by no layout (exactly).
    fn impossible(&self, compute: &ComputeOpts, input: &Input, keep: &[usize]) -> bool {
        let Some(q) = find::given::subset(&self.query, keep) else {
            return false;
        };
        let describe = find::given::text(&q, &q.root);
        let given = given_for(&q, &self.resolver, &self.bones, describe);
        if given.evidence.is_none() {
            // A part the enumeration cannot take: not provably empty.
            return false;
        }
        compute
            .compute_given(
                "stats",
                input,
                self.explicit,
                false,
                &mut std::io::sink(),
                Some(given),
            )
            .ok()
            .and_then(|s| s.given)
            .is_some_and(|g| g.p_evidence == 0.0)
    }
}
