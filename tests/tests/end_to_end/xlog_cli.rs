//! `dgn xlog` end to end: xlogfiles we write (tests/data, or generated
//! here) for NetHack 3.4.3 and 3.6, the JSON shape, the answers against the
//! exact statistics, bad lines and the exit status, the other formats.

use dgnkit::frontend::{analyze_verdict, CheckOptions};
use dgnkit::options::Target;
use dgnkit::stats::{self, StatsOptions};
use dgnkit_cli::xlog::{execute, parse_args};
use serde_json::Value;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str], input: &[u8]) -> (u8, String, String) {
    dgnkit_tests::run_cli("xlog", args, parse_args, |a, out, err| {
        execute(a, input, out, err, false)
    })
}

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn stats_of(file: &str, target: Target) -> stats::Stats {
    let src = std::fs::read(root().join("corpus").join(file)).unwrap();
    let opts = CheckOptions {
        target,
        ..Default::default()
    };
    let script = analyze_verdict(&src, &opts).script.unwrap();
    stats::exact(
        &script,
        &StatsOptions {
            game: target.game().loader_game(),
            ..Default::default()
        },
    )
    .unwrap()
}

fn line36(version: &str, dnum: i32, depth: i32, death: &str, flags: &str) -> String {
    format!(
        "version={version}\tpoints=100\tdeathdnum={dnum}\tdeathlev={depth}\tmaxlvl={depth}\thp=-1\tmaxhp=20\tdeaths=1\tdeathdate=20201010\tbirthdate=20201010\tuid=1\trole=Arc\trace=Dwa\tgender=Fem\talign=Law\tname=t{depth}\tdeath={death}\tconduct=0x0\tturns=100\tachieve=0x0\trealtime=10\tstarttime=1\tendtime=2\tgender0=Fem\talign0=Law\tflags={flags}\n"
    )
}

#[test]
fn nethack_343_file_with_bad_lines() {
    let data = std::fs::read(root().join("tests/data/nethack-3.4.3.xlog")).unwrap();
    let (code, out, _) = run(&["--format", "json"], &data);
    assert_eq!(code, 1, "bad lines make the exit status 1");
    let v = json_lines(&out);
    assert_eq!(v.len(), 5);
    assert_eq!(v[0]["line"], 1);
    assert_eq!(v[0]["target"], "nethack-3.4.3");
    assert_eq!(v[0]["dungeon"], "The Dungeons of Doom");
    assert_eq!(v[0]["level"], 5);
    assert_eq!(v[0]["fields"]["role"], "Val");
    // Depth 5 of 3.4.3's main dungeon: the Oracle's chance from the
    // statistics (the main dungeon always reaches depth 5).
    let st = stats_of("nethack-3.4.3.def", Target::NetHack343);
    let oracle = st.levels.iter().find(|l| l.name == "oracle").unwrap();
    let p = v[0]["special"][0]["p"].as_f64().unwrap();
    assert_eq!(v[0]["special"][0]["name"], "oracle");
    assert!((p - oracle.depth[&5]).abs() < 1e-12);
    assert!(v[0]["bones_why"].as_str().unwrap().contains("no game mode"));
    assert_eq!(v[1]["how"], "quit");
    assert_eq!(v[1]["bones_p"], 0.0);
    assert_eq!(v[1]["dungeon"], "The Gnomish Mines");
    assert_eq!(v[2]["line"], 3);
    assert!(v[2]["error"]
        .as_str()
        .unwrap()
        .contains("no level at depth 30"));
    assert!(v[3]["error"]
        .as_str()
        .unwrap()
        .contains("missing field `death`"));
    let s = &v[4]["summary"];
    assert_eq!(s["games"], 2);
    assert_eq!(s["bad_lines"], 2);
    // The human form says the same on stderr and still prints the summary.
    let (code, out, err) = run(&[], &data);
    assert_eq!(code, 1);
    assert!(out.contains("2 games (1 deaths), 2 bad lines"), "{out}");
    assert!(err.contains("line 3:") && err.contains("line 4:"), "{err}");
}

/// A death on every depth of NetHack 3.6's main dungeon: each special
/// level's chance there is its depth distribution over the chance that the
/// dungeon reaches that depth; the summary adds the games' bones chances.
#[test]
fn nethack_36_main_dungeon_against_the_statistics() {
    let st = stats_of("nethack-3.6.def", Target::NetHack36);
    let dod = &st.dungeons[0];
    let reach = |d: i32| -> f64 {
        dod.num_levels
            .iter()
            .filter(|(n, _)| **n >= d)
            .map(|(_, p)| p)
            .sum()
    };
    let mut data = String::new();
    for d in 1..=29 {
        data += &line36("3.6.6", 0, d, "killed by a hill orc", "0x4");
    }
    let (code, out, err) = run(&["--format", "json"], data.as_bytes());
    assert_eq!(code, 0, "{err}");
    let v = json_lines(&out);
    assert_eq!(v.len(), 30);
    let mut sum = 0.0;
    for (i, g) in v[..29].iter().enumerate() {
        let depth = i as i32 + 1;
        assert_eq!(g["depth"], depth);
        assert_eq!(g["level"], depth);
        for lev in st
            .levels
            .iter()
            .filter(|l| l.dungeon == "The Dungeons of Doom")
        {
            let want = lev.exists * lev.depth.get(&depth).copied().unwrap_or(0.0) / reach(depth);
            let got = g["special"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["name"] == lev.name.as_str())
                .map_or(0.0, |s| s["p"].as_f64().unwrap());
            assert!(
                (got - want).abs() < 1e-9,
                "{} at depth {depth}: {got} != {want}",
                lev.name
            );
        }
        let cell = st
            .bones
            .iter()
            .find(|b| b.dungeon == "The Dungeons of Doom" && b.level == depth)
            .unwrap();
        let p = g["bones_p"].as_f64().unwrap();
        assert!((p - cell.bones.leave_chance).abs() < 1e-9, "depth {depth}");
        sum += p;
    }
    let s = &v[29]["summary"];
    assert!((s["expected_bones"].as_f64().unwrap() - sum).abs() < 1e-9);
    assert_eq!(s["deaths"], 29);
    // Depth 1 to 3 never leave bones; the castle (bottom) never does.
    assert_eq!(v[0]["bones_p"], 0.0);
    assert!(v[0]["bones_why"]
        .as_str()
        .unwrap()
        .contains("always gives 0"));
}

#[test]
fn file_overrides_the_built_in_description() {
    // Vlad's Tower's middle level: a "none" special level since 3.6.1, a
    // filler level in 3.6.0's file.
    let x = dgnkit::xlog::release::for_version(b"3.6.0", None, |_| false).unwrap();
    let script = dgnkit::xlog::builtin_script(x).unwrap();
    let places = dgnkit::xlog::answers::compute(&script, Target::NetHack36);
    let tower = places
        .places
        .iter()
        .find(|p| {
            places.dungeon_names[p.dungeons[0].0 as usize] == "Vlad's Tower"
                && p.levels.iter().any(|l| l.0 == 2)
        })
        .unwrap();
    let data = line36(
        "3.6.6",
        tower.dnum,
        tower.depth,
        "killed by a vampire lord",
        "0x4",
    );
    let (_, out, _) = run(&["--format", "json"], data.as_bytes());
    assert_eq!(json_lines(&out)[0]["bones_p"], 0.0);
    let file = root().join("corpus/nethack-3.6.0.def");
    let (code, out, err) = run(
        &["--format", "json", "--file", file.to_str().unwrap()],
        data.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(json_lines(&out)[0]["bones_p"].as_f64().unwrap() > 0.0);
}

#[test]
fn where_formats_and_usage_errors() {
    let mut data = String::new();
    data += &line36("3.6.1", 0, 10, "killed by a soldier ant", "0x4");
    data += &line36("3.6.1", 2, 6, "killed by a dwarf", "0x4");
    data += &line36("3.6.1", 0, 10, "ascended", "0x4");
    data += &line36("3.6.1", 0, 8, "killed by a jackal", "0x2");
    let (code, out, _) = run(
        &[
            "--format",
            "json",
            "--where",
            "how = died and not mode = explore",
        ],
        data.as_bytes(),
    );
    assert_eq!(code, 0);
    let v = json_lines(&out);
    assert_eq!(v.len(), 3);
    assert_eq!(v[2]["summary"]["filtered_out"], 2);
    let (_, out, _) = run(
        &["--where", "dungeon = \"The Gnomish Mines\"", "--games"],
        data.as_bytes(),
    );
    assert!(out.starts_with("line 2: killed by a dwarf"), "{out}");
    let (code, out, _) = run(&["--format", "html"], data.as_bytes());
    assert_eq!(code, 0);
    assert!(out.starts_with("<!DOCTYPE html>") && out.contains("<svg"));
    assert!(!out.contains("<script") && !out.contains("src=") && !out.contains("href="));
    let (code, _, err) = run(&["--where", "role ="], data.as_bytes());
    assert_eq!(code, 2);
    assert!(err.contains("expected a value"), "{err}");
    let (code, _, err) = run(&["--file", "/nonexistent/dungeon.def"], data.as_bytes());
    assert_eq!(code, 2, "{err}");
    let (code, out, _) = run(
        &["--target", "nethack-3.4.3", "--format", "json"],
        data.as_bytes(),
    );
    assert_eq!(code, 1);
    assert!(out.contains("not the target nethack-3.4.3"));
}

/// The built-in descriptions dgn xlog adds compile byte for byte to what
/// the releases' own dgn_comp made of their dungeon.def (for the variants,
/// `expected/variants/<family>/dungeon.bin`).
#[test]
fn built_in_descriptions_compile_as_the_games_own_files() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    for (release, expected, target) in [
        (
            "3.4.3",
            "Vanilla-NetHack__NetHack-3.4.3.343.bin",
            Target::NetHack343,
        ),
        ("3.6.0", "NetHack__NetHack@3.6.0.36.bin", Target::NetHack36),
        ("3.6.6", "NetHack__NetHack.36.bin", Target::NetHack36),
        (
            "UNH-6.0.15",
            "../variants/unnethack/dungeon.bin",
            Target::UnNetHack,
        ),
        (
            "DNH-3.23.0",
            "../variants/dnethack/dungeon.bin",
            Target::DNetHack,
        ),
        ("0.0.8", "../variants/slashem/dungeon.bin", Target::SlashEm),
        (
            "0.9.3",
            "../variants/evilhack/dungeon.bin",
            Target::EvilHack,
        ),
        (
            "4.3.0",
            "../variants/gnollhack/dungeon.bin",
            Target::GnollHack,
        ),
        (
            "0.0.1",
            "../variants/dynahack/dungeon.bin",
            Target::DynaHack,
        ),
    ] {
        let r = dgnkit::xlog::release::for_version(release.as_bytes(), Some(target), |_| false)
            .unwrap();
        assert_eq!(r.target, target);
        let script = dgnkit::xlog::builtin_script(r).unwrap();
        let ours = dgnkit::binary::write(&script, target, None).unwrap();
        let theirs = std::fs::read(shared.join("expected/compiled").join(expected)).unwrap();
        assert!(
            ours == theirs,
            "{release}: {} differs from {expected}",
            r.builtin.as_ref().unwrap().file
        );
    }
}

/// The built-ins of older releases and of TNNT state the same dungeon as
/// the game's own file of that release in `../shared/corpus`: the same
/// bytes from dgnkit's compiler (proven byte-identical to each game's
/// dgn_comp on the corpus), or for a `dungeon.lua` the same native format;
/// TNNT 2018's also equals the bytes NetHack 3.6's own dgn_comp wrote.
#[test]
fn older_built_ins_state_their_releases_files() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let compile = |src: &[u8], r: &dgnkit::xlog::release::Release| {
        let opts = CheckOptions {
            target: r.target,
            dialect: r.target.game().dialect,
            ..Default::default()
        };
        let script = analyze_verdict(src, &opts)
            .script
            .unwrap_or_else(|| panic!("{}: the game's file does not compile", r.name));
        let target = if r.target.game().reads_lua {
            Target::Native
        } else {
            r.target
        };
        dgnkit::binary::write(&script, target, None).unwrap()
    };
    for (release, folder) in [
        ("tnnt-2018", "tnnt-devteam__tnnt/dungeon.def"),
        ("tnnt-2019", "entrez__tnnt@HEAD/dungeon.def"),
        ("tnnt-2026", "tnnt-devteam__tnnt@3.7/dungeon.lua"),
        ("unnethack-5", "MaddTheSane__UnNetHack/dungeon.def"),
        ("unnethack-6.0.0", "NHTangles__UnNetHack/dungeon.def"),
        ("unnethack-6.0", "k21971__UnNetHack/dungeon.def"),
        ("gnollhack-4", "k21971__GnollHack/dungeon.def"),
    ] {
        let r = dgnkit::xlog::release::by_name(release).unwrap();
        let ours = compile(r.builtin.as_ref().unwrap().source, r);
        let theirs = compile(
            &std::fs::read(shared.join("corpus").join(folder)).unwrap(),
            r,
        );
        assert!(ours == theirs, "{release} differs from {folder}");
    }
    let r = dgnkit::xlog::release::by_name("tnnt-2018").unwrap();
    let c = std::fs::read(shared.join("expected/compiled/tnnt-devteam__tnnt.36.bin")).unwrap();
    assert!(compile(r.builtin.as_ref().unwrap().source, r) == c);
}

/// `--game` names the game of every line; `--releases` lists the games
/// answered with another's release.
#[test]
fn game_option_and_the_strangers() {
    let tnnt_line = line36("3.6.6", 9, -5, "killed by a soldier", "0x0");
    let (code, out, err) = run(
        &["--game", "tnnt", "--format", "json"],
        tnnt_line.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["release"], "tnnt-2019", "{}", lines[0]);
    assert_eq!(lines[0]["dungeon"], "The Elemental Planes");
    let (code, _, err) = run(&["--game", "nope"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("unknown game `nope`"), "{err}");
    let (code, _, err) = run(&["--game", "tnnt-2026", "--target", "nethack-3.6"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("not the --target nethack-3.6"), "{err}");
    // A game dgnkit does not describe: answered, and said so on the line
    // and in the summary.
    let ace = "version=3.6.0:points=10:deathdnum=0:deathlev=3:maxlvl=3:hp=0:maxhp=9:deaths=1:deathdate=20110701:birthdate=20110701:uid=1:role=Val:race=Hum:gender=Fem:align=Neu:name=u:death=killed by a jackal:event=0:carried=0\n";
    let (code, out, err) = run(&["--games"], ace.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[AceHack 3.6.0 is not a game dgnkit describes: answered with release nethack-3.4.3's description"), "{out}");
    assert!(out.contains("1 games: AceHack 3.6.0"), "{out}");
    let (_, out, _) = run(&["--releases"], b"");
    assert!(
        out.contains("acehack") && out.contains("sporkhack") && out.contains("nethack4"),
        "{out}"
    );
}

/// A dNetHack game is answered with dNAO's built-in description, exactly
/// (its three 25-level side branches are one deferred run of the
/// statistics), with dNetHack's bones rules.
#[test]
fn dnethack_games_are_answered_exactly() {
    let data = line36("DNH-3.23.0", 0, 5, "killed by a jackal", "0x0");
    let (code, out, err) = run(&["--format", "json"], data.as_bytes());
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    let game = &lines[0];
    assert_eq!(game["target"], "dnethack", "{game}");
    assert!(
        game["bones_why"].as_str().unwrap().contains("dNAO"),
        "{game}"
    );
    let summary = &lines.last().unwrap()["summary"];
    let by = summary["answered_by"].as_object().unwrap();
    assert_eq!(by.len(), 1, "{by:?}");
    assert_eq!(by.values().next().unwrap(), "exact", "{by:?}");
}

/// `dgn xlog --releases` lists every release dgnkit answers, with its
/// versions, the field that tells it apart and its built-in description,
/// and reads no input.
/// NetHack 5.0.0's lines are NetHack 5.0's: the release `nethack-5.0`,
/// laid out by `nethack-5.0`, with 5.0.0's own sources in the verdict; a
/// 3.7.0 line beside it stays 3.7's, and `--target` keeps them apart.
#[test]
fn nethack_50_lines_name_nethack_50() {
    let mut data = String::new();
    for version in ["3.7.0", "5.0.0"] {
        data.push_str(&line36(version, 0, 12, "killed by a soldier ant", "0x0"));
    }
    let (code, out, err) = run(&["--format", "json"], data.as_bytes());
    assert_eq!(code, 0, "{err}");
    let v = json_lines(&out);
    assert_eq!(
        (&v[0]["release"], &v[0]["target"]),
        (&"nethack-3.7".into(), &"nethack-3.7".into())
    );
    assert_eq!(
        (&v[1]["release"], &v[1]["target"]),
        (&"nethack-5.0".into(), &"nethack-5.0".into())
    );
    assert!(
        v[1]["bones_why"]
            .as_str()
            .unwrap()
            .contains("NetHack 5.0.0 src/bones.c"),
        "{}",
        v[1]["bones_why"]
    );
    // The same dungeon: the same answer but for the release.
    for key in ["dungeon", "level", "special", "bones_p"] {
        assert_eq!(v[0][key], v[1][key], "{key}");
    }
    let (code, out, _) = run(
        &["--format", "json", "--target", "nethack-5.0"],
        data.as_bytes(),
    );
    assert_eq!(code, 1, "the 3.7.0 line is not 5.0's: {out}");
    let v = json_lines(&out);
    assert!(v[0]["error"].is_string(), "{}", v[0]);
    assert_eq!(v[1]["release"], "nethack-5.0");
}

#[test]
fn releases_lists_what_is_known_without_reading_input() {
    let (code, out, err) = run(&["--releases"], b"not an xlogfile");
    assert_eq!(code, 0, "{err}");
    for r in dgnkit::xlog::release::RELEASES.iter() {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{} ", r.name)))
            .unwrap_or_else(|| panic!("{} missing:\n{out}", r.name));
        assert!(line.contains(&r.version_list()), "{line}");
        assert!(line.contains(r.target.name()), "{line}");
    }
    let (code, out, _) = run(&["--releases", "--format", "json"], b"");
    assert_eq!(code, 0);
    let lines = json_lines(&out);
    assert_eq!(
        lines.len(),
        dgnkit::xlog::release::RELEASES.len() + dgnkit::xlog::identify::STRANGERS.len()
    );
    let x = lines
        .iter()
        .find(|l| l["release"] == "xnethack-9.1")
        .unwrap();
    assert_eq!(x["versions"], "9.1.0");
    assert_eq!(x["game"], "xnethack");
    assert!(x["told_by"].as_str().unwrap().contains("polyinit"), "{x}");
    assert_eq!(x["builtin"], "xnethack-9.1.lua (built in)");
    let ace = lines.iter().find(|l| l["game"] == "acehack").unwrap();
    assert_eq!(ace["answered_with"], "nethack-3.4.3");
}
