//! Parity of the `nethack-5.0` target with the real C NetHack 5.0.0: every
//! line of `tests/data/nethack-5.0.0/init_dungeons.jsonl` (a game start
//! recorded on 5.0.0, in `expected/nethack37`'s form; its README says
//! where each came from) is resolved again with the line's seed, role and
//! mode, and checked draw for draw as the 3.7 starts are: the object
//! shuffles' count (199 in 5.0.0), the role's draws, `nhlib.lua`'s pair and
//! every draw of `init_dungeons()`. The description is dgnkit's built-in
//! one, and NetHack 3.7's own `dungeon.lua` when `../shared` is there
//! (5.0.0's differs from it only in a comment).

use super::nethack37_parity::{check_line, read_script};
use dgnkit::options::Target;
use dgnkit::script::Script;
use serde_json::Value;

fn starts() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/nethack-5.0.0/init_dungeons.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("init_dungeons.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

fn built_in() -> Script {
    let (_, bytes) = dgnkit_cli::layout::built_in(Target::NetHack50);
    read_script(bytes, Target::NetHack50)
}

/// Every start, by `target` from `script`: the failures, one a line.
fn failures(target: Target, script: &Script, starts: &[Value]) -> Vec<String> {
    starts
        .iter()
        .filter_map(|line| {
            check_line(target, script, line).err().map(|e| {
                format!(
                    "seed {} ({}, wizard {}): {e}",
                    line["seed"], line["options"]["role"], line["wizard"]
                )
            })
        })
        .collect()
}

#[test]
fn every_recorded_nethack50_game_start_draws_the_same() {
    let starts = starts();
    assert!(starts.len() >= 2, "too few recorded starts");
    let mut scripts = vec![("the built-in description", built_in())];
    if let Some(shared) = dgnkit_tests::shared_dir() {
        let src = std::fs::read(shared.join("corpus/NetHack__NetHack@3.7/dungeon.lua"))
            .expect("dungeon.lua");
        scripts.push(("3.7's dungeon.lua", read_script(&src, Target::NetHack50)));
    }
    for (what, script) in &scripts {
        let failed = failures(Target::NetHack50, script, &starts);
        assert!(
            failed.is_empty(),
            "{what}: {} of {} game starts differ:\n{}",
            failed.len(),
            starts.len(),
            failed.join("\n")
        );
    }
}

/// The same starts are not 3.7's: 3.7 has one wand fewer to shuffle, so
/// `nethack-3.7` is told apart at the object draws.
#[test]
fn nethack37_would_miss_the_wand_of_stasis() {
    let starts = starts();
    let failed = failures(Target::NetHack37, &built_in(), &starts);
    assert_eq!(failed.len(), starts.len(), "{failed:?}");
    for f in &failed {
        assert!(
            f.contains("o_init: 199 draws recorded, dgnkit made 198"),
            "{f}"
        );
    }
}
