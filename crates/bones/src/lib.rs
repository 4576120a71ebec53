//! Bones: which levels can leave and load bones files (`bones.md`).
//!
//! - [`rules`]: the rules as one decision over a level's facts;
//! - [`names`]: bones file names;
//! - [`layout`]: the verdict for every level of one resolved layout.
//!
//! The verdict per special level and per dungeon over every layout the
//! loader can produce comes from the exact statistics, above this crate
//! (`dgnkit_stats::verdict`). A game's rules are a [`BonesRules`] record,
//! made where the games are assembled (`dgnkit::games`).

#![deny(clippy::unwrap_used)]

pub mod layout;
pub mod names;
pub mod rules;

// The modules keep the paths they had as one crate.
mod games {
    pub use dgnkit_loader::roles;
}

pub use layout::{
    layout_verdicts, level_facts, level_facts_in, level_verdict, Landmarks, LevelBones, Verdict,
};
pub use names::{file_name, with_infix};
pub use rules::{
    decide, depth_chance, no_bones_rule, BonesPool, BonesRules, BranchRule, Decision,
    DepthRollDraw, EventLevel, Invocation, Known, LevelFacts, LevelOneRule, OtherEnd, Rule,
};

/// The levels that hold a magic portal in vanilla NetHack (the fake
/// Wizard's tower level with the portal into the tower, and the tower's
/// top). Portals come from the level files, so variants may list others.
pub const DEFAULT_PORTAL_LEVELS: [&str; 2] = ["fakewiz1", "wizard3"];

/// Level numbers beyond this are not listed (NetHack keeps them in a signed
/// byte; our loader clamps sizes to 32).
pub const MAX_LEVEL_NUMBER: i32 = 127;

/// What the rules need beyond the dungeon description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BonesOptions {
    /// Special levels (by name, compared without case) whose level file
    /// places a magic portal (rule 6).
    pub portal_levels: Vec<String>,
    /// The role whose Quest bones files to name (`Valkyrie` or `Val`); the
    /// names use `*` for the role code without one.
    pub role: Option<String>,
    /// The game's bones pools, for file names.
    pub pool: BonesPool,
    /// The game's rules.
    pub rules: BonesRules,
}

impl Default for BonesOptions {
    fn default() -> Self {
        BonesOptions::for_rules(&BonesRules::VANILLA)
    }
}

impl BonesOptions {
    /// A game's defaults: its portal levels and bones pools.
    pub fn for_rules(rules: &BonesRules) -> BonesOptions {
        BonesOptions {
            portal_levels: rules
                .portal_levels
                .iter()
                .map(|s| (*s).to_string())
                .collect(),
            role: None,
            pool: rules.pool,
            rules: *rules,
        }
    }

    /// Whether the hero is the role the game's rule 10 names: unknown
    /// without `--role`.
    pub fn is_madman(&self) -> Known {
        match (self.rules.madman_home, &self.role) {
            (None, _) => Known::No,
            (Some(_), None) => Known::Unknown,
            (Some(code), Some(r)) => {
                // NetHack's and the variants' role names or codes.
                let c = crate::games::roles::role_named(r).map_or(r.as_str(), |k| k.code);
                if c.eq_ignore_ascii_case(code) {
                    Known::Yes
                } else {
                    Known::No
                }
            }
        }
    }

    /// What the verdicts cannot know: the game's own notes, and rule 10
    /// without `--role`.
    pub fn notes(&self) -> Vec<String> {
        let mut out: Vec<String> = self.rules.notes.iter().map(|n| (*n).to_string()).collect();
        for e in self.rules.event_levels {
            out.push(format!(
                "rule {} ({}): \"{}\" holds no bones until {} ({}); the verdicts assume it has not happened",
                Rule::UntilEvent.number(),
                Rule::UntilEvent.summary(),
                e.level,
                e.event,
                e.source
            ));
        }
        if self.rules.depth_roll == DepthRollDraw::SkipWizardAndShallow {
            out.push(
                "the depth roll rn2(1 + depth/4) is drawn only outside wizard mode and at depth 4 or more (same chance as 3.6)"
                    .into(),
            );
        }
        if !self.rules.name_infix.is_empty() {
            out.push(format!(
                "file names start \"bon{}\": `*` is set by the game (its difficulty), not by the dungeon",
                self.rules.name_infix
            ));
        }
        if self.is_madman() == Known::Unknown {
            out.push(format!(
                "rule {} ({}) holds only for a Madman: give --role; without it the verdicts are another role's",
                Rule::MadmanHome.number(),
                Rule::MadmanHome.summary()
            ));
        }
        out
    }

    /// Rule 13's entry for a special level, by name.
    pub fn event_level(&self, name: &str) -> Option<&'static EventLevel> {
        self.rules
            .event_levels
            .iter()
            .find(|e| e.level.eq_ignore_ascii_case(name))
    }

    pub fn is_portal_level(&self, name: &str) -> bool {
        self.portal_levels
            .iter()
            .any(|p| p.eq_ignore_ascii_case(name))
    }

    /// As [`Self::is_portal_level`], for a name as the script holds it.
    pub fn is_portal_level_bytes(&self, name: &[u8]) -> bool {
        self.portal_levels
            .iter()
            .any(|p| p.as_bytes().eq_ignore_ascii_case(name))
    }
}
