//! The games' loader rules against the oracle: vanilla's versions,
//! SLASH'EM's, dNetHack's alternates, Quest and bones rules.

use super::*;

#[test]
fn mini_vanilla_matches_the_loader_in_both_versions() {
    check(&mini(), Rules::native(), false);
    check(&mini(), Rules::nethack_343(), false);
    check(&mini(), Rules::native(), true);
}

#[test]
fn nethack_37_rules_match_the_loader() {
    // Every dungeon rolls its chance (100: always there), chains by name,
    // an unconnected dungeon at the end.
    let mut script = mini();
    for d in &mut script.dungeons {
        d.chance = 100;
    }
    let mut tut = dungeon("Tutorial", 0, 2, 0);
    tut.lua.unconnected = true;
    tut.levels.push(level("tut-1", 0, 1, 0));
    script.dungeons.push(tut);
    check(&script, Rules::nethack_37(), false);
    check(&script, Rules::nethack_37(), true);
}

/// `mini()` as SLASH'EM would have it: a main dungeon deeper than vanilla's
/// MAXLEVEL, entry levels on the branches (`up -1`, `no_down -2`), none on
/// the dungeons.
fn mini_slashem() -> Script {
    let mut script = mini();
    let top = &mut script.dungeons[0];
    top.size = Range { base: 34, rand: 3 };
    top.branches[1].entry = Some(-1);
    top.branches[2].entry = Some(-2);
    top.levels.push(level("deep", b'P', 33, 3));
    for d in &mut script.dungeons {
        d.entry = 0;
    }
    script.dungeons[3].branches[0].entry = Some(-1);
    script
}

#[test]
fn slashem_rules_match_the_loader() {
    // Entry from the branch, level chances in wizard mode, MAXLEVEL 50,
    // SLASH'EM's bones (level 1 of every dungeon).
    let game = dgnkit::options::Target::SlashEm.game();
    let rules = Rules {
        required_dungeons: &[],
        ..game.rules.clone()
    };
    let bones = dgnkit::options::Target::SlashEm.game().bones_options();
    check_bones(&mini_slashem(), rules.clone(), false, &bones);
    check_bones(&mini_slashem(), rules, true, &bones);
}

#[test]
fn slashem_rules_the_enumeration_does_not_follow_are_sampled() {
    let game = dgnkit::options::Target::SlashEm.game();
    let rules = Rules {
        required_dungeons: &[],
        ..game.rules.clone()
    };
    let enumerate = |script: &Script| {
        let res = Resolver::with_rules(script, rules.clone()).expect("resolver");
        engine::Engine::new(&res, false, Budget::default())
            .run()
            .map(|_| ())
            .map_err(|e| e.what)
    };
    assert_eq!(enumerate(&mini_slashem()), Ok(()));
    // A positive entry: SLASH'EM reads it from the wrong record.
    let mut positive = mini_slashem();
    positive.dungeons[0].branches[0].entry = Some(2);
    assert!(enumerate(&positive).unwrap_err().contains("positive entry"));
    // A branch back up to an earlier dungeon.
    let mut back = mini_slashem();
    back.dungeons[4].branches.push(branch("Mines", 1, 0));
    assert!(enumerate(&back).unwrap_err().contains("back up"));
}

#[test]
fn a_chance_for_every_dungeon_matches_the_loader() {
    // dNetHack: a record without a chance rolls and stays; wizard mode
    // rolls too.
    let mut script = mini();
    script.dungeons[1].chance = 60;
    let rules = Rules {
        required_dungeons: &[],
        dungeon_chance: dgnkit_loader::DungeonChance::Every,
        wizard_skips_dungeon_chance: false,
        ..Rules::nethack_36()
    };
    check(&script, rules.clone(), false);
    check(&script, rules, true);
}

/// dNetHack's loader rules, without its hard-wired dungeons, with the
/// given inputs.
pub(super) fn dnethack_rules(inputs: dgnkit_loader::GameInputs) -> Rules {
    Rules {
        required_dungeons: &[],
        inputs,
        ..dgnkit::options::Target::DNetHack.game().rules.clone()
    }
}

/// `mini()` with three records named "Chaos Quest" (different sizes,
/// levels and a branch of their own) reached from the top, and one more
/// name with two records after them.
pub(super) fn mini_alternates() -> Script {
    let mut script = mini();
    script.dungeons[0]
        .branches
        .push(branch("Chaos Quest", 3, 2));
    let mut a = dungeon("Chaos Quest", b'C', 3, 0);
    a.levels.push(level("chaosf", 0, 1, 2));
    let mut b = dungeon("Chaos Quest", b'S', 2, 1);
    b.levels.push(level("ossa1", b'O', -1, 0));
    b.branches.push(branch("Side", 1, 2));
    let mut c = dungeon("Chaos Quest", 0, 4, 0);
    c.entry = -1;
    c.levels.push(level("frst1", 0, 2, 2));
    c.branches.push(branch("Side", 2, 0));
    let mut side_a = dungeon("Side", b'X', 2, 0);
    side_a.levels.push(level("s1", 0, 1, 1));
    let side_b = dungeon("Side", b'Y', 1, 1);
    script.dungeons.extend([a, b, c, side_a, side_b]);
    script
}

#[test]
fn dnethack_alternates_match_the_loader() {
    use dgnkit_loader::GameInputs;
    let script = mini_alternates();
    let random = dnethack_rules(GameInputs::default());
    check(&script, random.clone(), false);
    check(&script, random, true);
}

/// The chaos_quest option decides in wizard mode or in June (after the
/// draw); otherwise the draws do. One test per value, so that the
/// exhaustive comparisons (each a long one) run side by side.
fn dnethack_chaos_quest_option_matches_the_loader(chaosvar: u8) {
    use dgnkit_loader::GameInputs;
    let script = mini_alternates();
    let forced = GameInputs {
        chaosvar,
        ..GameInputs::default()
    };
    check(&script, dnethack_rules(forced), true);
    check(&script, dnethack_rules(forced), false);
    let june = GameInputs {
        is_june: true,
        ..forced
    };
    check(&script, dnethack_rules(june), false);
}

#[test]
fn dnethack_chaos_quest_temple_matches_the_loader() {
    dnethack_chaos_quest_option_matches_the_loader(1);
}

#[test]
fn dnethack_chaos_quest_mithardir_matches_the_loader() {
    dnethack_chaos_quest_option_matches_the_loader(2);
}

#[test]
fn dnethack_chaos_quest_mordor_matches_the_loader() {
    dnethack_chaos_quest_option_matches_the_loader(3);
}

/// `mini()` with dNetHack's Quest: 5-7 levels, its locate level the record
/// before last, reached by a portal chained to "oracle".
pub(super) fn mini_quest() -> Script {
    let mut script = mini();
    let mut portal = branch("The Quest", 1, 2);
    portal.chain = 0;
    portal.branch_type = BranchType::Portal;
    script.dungeons[0].branches.push(portal);
    let mut quest = dungeon("The Quest", b'Q', 5, 3);
    quest.levels.push(level("x-strt", 0, 1, 1));
    quest.levels.push(level("x-loca", b'L', 3, 1));
    quest.levels.push(level("x-goal", 0, -1, 0));
    script.dungeons.push(quest);
    script
}

#[test]
fn dnethack_quest_locate_matches_the_loader() {
    use dgnkit_loader::GameInputs;
    for nemesis in [false, true] {
        let inputs = GameInputs {
            quest_nemesis_blibdoolpoolp: nemesis,
            ..GameInputs::default()
        };
        check(&mini_quest(), dnethack_rules(inputs), false);
        check(&mini_quest(), dnethack_rules(inputs), true);
    }
}

#[test]
fn dnethack_bones_rules_match_the_loader() {
    // No bottom, branch or portal rule; a branch level is judged by the
    // other end of the first branch ending there: in the Quest (rule 11),
    // or a no-bones level judged without branch rules (rule 12; "medusa"
    // and "castle" of the top, Sokoban's marker, "wizard1" below Hell's
    // branch to the tower).
    use dgnkit_loader::GameInputs;
    let bones = dgnkit::options::Target::DNetHack.game().bones_options();
    let mut quest = mini_quest();
    quest.dungeons[4].entry = 1;
    let rules = dnethack_rules(GameInputs::default());
    let exact = check_bones(&quest, rules.clone(), false, &bones);
    // Both rules decide somewhere, and the bottom never does.
    for rule in [
        dgnkit_bones::Rule::QuestBranch,
        dgnkit_bones::Rule::BranchToNoBones,
    ] {
        assert!(
            exact
                .bones
                .iter()
                .any(|c| c.bones.possible[rule.category()]),
            "{rule} never decides"
        );
    }
    assert!(exact
        .bones
        .iter()
        .all(|c| !c.bones.possible[dgnkit_bones::Rule::Bottom.category()]));
    check_bones(&quest, rules.clone(), true, &bones);
    check_bones(&mini_alternates(), rules.clone(), false, &bones);
    let healer = dnethack_rules(GameInputs {
        quest_nemesis_blibdoolpoolp: true,
        ..GameInputs::default()
    });
    check_bones(&mini_quest(), healer, false, &bones);
    check_bones(&mini(), Rules::nethack_36(), false, &bones);
    // Rule 10 for a Madman: the level above the locate level.
    let madman = BonesOptions {
        role: Some("Madman".into()),
        ..bones.clone()
    };
    let exact = check_bones(&quest, rules.clone(), false, &madman);
    let home = dgnkit_bones::Rule::MadmanHome.category();
    assert!(exact.bones.iter().any(|c| c.bones.possible[home]));
    check_bones(&quest, rules, true, &madman);
}
