//! The loader rules where a game departs from NetHack 3.6 without a
//! recorded layout that shows it: each test builds the file that takes the
//! C code path the rule names and checks dgnkit's answer against that
//! path (cited in each game's record).

use crate::frontend::{analyze_fast, CheckOptions};
use crate::loader::{LoadError, Resolver};
use crate::options::Target;
use crate::rng::RngKind;
use crate::script::Script;

/// `src` as dgnkit's own format reads it (no limits, so that a test can
/// reach what a game's dgn_comp or a hand-made file would give).
fn script(src: &str, target: Target) -> Script {
    let a = analyze_fast(
        src.as_bytes(),
        &CheckOptions {
            target,
            ..CheckOptions::default()
        },
    );
    a.script.unwrap_or_else(|| panic!("{:?}", a.diagnostics))
}

const KNOX_ALONE: &str = "\
DUNGEON: \"The Dungeons of Doom\" \"D\" (10, 0)
LEVEL: \"knox\" \"K\" @ (7, 0)
BRANCH: \"The Gnomish Mines\" @ (2, 0)
BRANCH: \"Sokoban\" @ (3, 0) up
BRANCH: \"The Quest\" @ (4, 0) portal
BRANCH: \"Vlad's Tower\" @ (5, 0)
DUNGEON: \"The Gnomish Mines\" \"M\" (1, 0)
DUNGEON: \"Sokoban\" \"none\" (1, 0)
DUNGEON: \"The Quest\" \"Q\" (1, 0)
DUNGEON: \"Vlad's Tower\" \"T\" (1, 0)
";

/// A `knox` level no branch leads to: NetHack 3.6 calls `insert_branch`
/// with no branch and panics (`dungeon.c:943-950`); EvilHack guards the
/// call with `if (br)` (`dungeon.c:989-993`) and loads the file.
#[test]
fn evilhack_loads_a_knox_no_branch_reaches_where_36_panics() {
    // dgnkit's checks say the same: an error for 3.6, none for EvilHack.
    let a = analyze_fast(KNOX_ALONE.as_bytes(), &CheckOptions::default());
    assert!(a.diagnostics.iter().any(|d| d.code == "E1001"));
    let s = script(KNOX_ALONE, Target::EvilHack);
    let vanilla = Resolver::with_rules(&s, Target::NetHack36.game().rules.clone()).unwrap();
    assert!(matches!(
        vanilla.resolve(1, RngKind::Isaac64, false, false),
        Err(LoadError::KnoxNotReachable { .. })
    ));
    let evil = Resolver::with_rules(&s, Target::EvilHack.game().rules.clone()).unwrap();
    let layout = evil.resolve(1, RngKind::Isaac64, false, false).unwrap();
    assert!(layout
        .levels
        .iter()
        .any(|l| l.name == "knox" && l.level == 7));
    // The branch list is the file's: no branch got the floating marker.
    assert!(layout.branches.iter().all(|b| b.end1.dungeon < 5));
}

/// UnNetHack's level counts are `xint16` (`include/dungeon.h:9-10,
/// :60-61`): a dungeon drawn with 128 to 229 levels is cut to MAXLEVEL
/// (`dungeon.c:903-906`), where a byte would wrap it negative.
#[test]
fn unnethack_cuts_a_dungeon_of_more_than_127_levels_to_maxlevel() {
    let s = script(
        "\
DUNGEON: \"The Dungeons of Doom\" \"D\" (10, 0)
BRANCH: \"The Gnomish Mines\" @ (2, 0)
BRANCH: \"Sokoban\" @ (3, 0) up
BRANCH: \"The Quest\" @ (4, 0) portal
BRANCH: \"Vlad's Tower\" @ (5, 0)
BRANCH: \"Town\" @ (6, 0)
BRANCH: \"Sheol\" @ (7, 0)
BRANCH: \"The Ruins of Moria\" @ (8, 0)
BRANCH: \"The Dragon Caves\" @ (9, 0)
DUNGEON: \"The Gnomish Mines\" \"M\" (130, 100)
DUNGEON: \"Sokoban\" \"none\" (1, 0)
DUNGEON: \"The Quest\" \"Q\" (1, 0)
DUNGEON: \"Vlad's Tower\" \"T\" (1, 0)
DUNGEON: \"Town\" \"W\" (1, 0)
DUNGEON: \"Sheol\" \"S\" (1, 0)
DUNGEON: \"The Ruins of Moria\" \"R\" (1, 0)
DUNGEON: \"The Dragon Caves\" \"C\" (1, 0)
",
        Target::Native,
    );
    // Its Planes shuffle needs the Planes; this file is about sizes.
    let rules = crate::loader::Rules {
        planes: None,
        ..Target::UnNetHack.game().rules.clone()
    };
    let res = Resolver::with_rules(&s, rules).unwrap();
    for seed in 0..40 {
        let layout = res.resolve(seed, RngKind::Isaac32, false, false).unwrap();
        let mines = layout
            .dungeons
            .iter()
            .find(|d| d.name == "The Gnomish Mines")
            .unwrap();
        assert_eq!(mines.num_levels, 32, "seed {seed}");
    }
}

/// What each game's `rn2(x)` does with `x < 0` (its record cites the C):
/// one draw `random() % |x|` (3.4.3, SLASH'EM; DynaHack's `mt_random()`
/// the same on LP64), one draw of ISAAC-64's raw output (3.6, EvilHack,
/// GnollHack; dgnkit's native target keeps 3.6's rules), no draw
/// (UnNetHack, 3.7, 5.0 and 3.7's forks) or one draw giving 0 (dNetHack);
/// NLE runs 3.6.7.
#[test]
fn each_games_rn2_of_a_negative_argument() {
    use crate::loader::NonPositiveRn2::*;
    for target in Target::ALL {
        let want = match target {
            Target::NetHack343 | Target::SlashEm | Target::DynaHack => OneDrawModulo,
            Target::NetHack36
            | Target::Nle
            | Target::Native
            | Target::EvilHack
            | Target::GnollHack => OneDrawRaw,
            Target::UnNetHack
            | Target::NetHack37
            | Target::NetHack50
            | Target::XNetHack
            | Target::SpliceHack
            | Target::NerfHack
            | Target::CrecelleHack => NoDraw,
            Target::DNetHack => OneDrawZero,
        };
        assert_eq!(target.game().rules.rn2_nonpositive, want, "{target:?}");
    }
}

/// The audit's T3: Sokoban's `CHBRANCH ... + (1, -2)`, which dgn_comp's
/// `rcouple` takes as written (3.4.3 `util/dgn_comp.y:421-431`) and dgnkit
/// rejects (E0403), so the random part is set on the compiled script.
/// `level_range` gives base 6 and count -2; level 6 ends no branch.
#[test]
fn a_chained_branch_with_a_random_part_below_minus_1() {
    let mut s = script(
        "\
DUNGEON: \"The Dungeons of Doom\" \"D\" (10, 0)
LEVEL: \"oracle\" \"O\" @ (5, 0)
CHAINBRANCH: \"Sokoban\" \"oracle\" + (1, 0) up
BRANCH: \"The Gnomish Mines\" @ (2, 0)
BRANCH: \"The Quest\" @ (3, 0) portal
BRANCH: \"Vlad's Tower\" @ (4, 0)
DUNGEON: \"Sokoban\" \"none\" (1, 0)
DUNGEON: \"The Gnomish Mines\" \"M\" (1, 0)
DUNGEON: \"The Quest\" \"Q\" (1, 0)
DUNGEON: \"Vlad's Tower\" \"T\" (1, 0)
",
        Target::NetHack36,
    );
    s.dungeons[0].branches[0].range.rand = -2;
    for target in [Target::NetHack343, Target::NetHack36, Target::EvilHack] {
        let game = target.game();
        let res = Resolver::with_rules(&s, game.rules.clone()).unwrap();
        for seed in 0..30 {
            let mut out = crate::loader::Resolved::default();
            let mut log = Vec::new();
            res.resolve_traced(seed, game.rng, false, &mut out, &mut log)
                .unwrap();
            let at: Vec<_> = log
                .iter()
                .filter(|d| d.site == crate::rng::Site::BranchLevel { dungeon: 1 })
                .collect();
            // One draw with the argument as passed.
            assert_eq!(at.len(), 1, "{target:?} seed {seed}");
            assert_eq!(at[0].n, -2);
            let j = at[0].value();
            let sokoban = out.branches.iter().find(|b| b.end2.0 == 1).unwrap();
            let want = match game.rules.rn2_nonpositive {
                // `random() % 2`: `++i >= -2`, so i = 0.
                crate::loader::NonPositiveRn2::OneDrawModulo => {
                    assert!((0..2).contains(&j));
                    6
                }
                // Any `int`: below -3, `i = j + 1` stays and the level is
                // `6 + j + 1` in an `xchar`.
                _ if j + 1 >= -2 => 6,
                _ => i32::from((7 + j) as i32 as i8),
            };
            assert_eq!(sokoban.end1, (0, want), "{target:?} seed {seed} j {j}");
        }
    }
}
