//! `dgn layout` end to end: argument parsing, inputs (built-in file, source,
//! compiled files), every output format, `--seeds`, `--trace`, errors and
//! exit codes.
//!
//! The SVG is checked here as XML (well-formed, the expected elements). Its
//! look is checked by rendering it: `dgn layout --format svg > d.svg`, then
//! `chromium --headless --no-sandbox --disable-gpu --no-first-run
//! --user-data-dir=$(mktemp -d) --screenshot=d.png --window-size=1100,1320
//! d.svg`, and looking at `d.png`.

use dgnkit::layout::Layout;
use dgnkit_cli::layout::{execute, parse_args, Terminal};

fn run(args: &[&str]) -> (u8, String, String) {
    dgnkit_tests::run_cli("layout", args, parse_args, |a, out, err| {
        execute(a, out, err, Terminal::default())
    })
}

fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dgnkit-layout-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn the_default_is_the_built_in_36_dungeon_shown_as_nethack_does() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let (code, out, err) = run(&[]);
    assert_eq!(code, 0, "{err}");
    let want =
        std::fs::read_to_string(shared.join("expected/overview/vanilla36.36.isaac64.seed0.txt"))
            .unwrap();
    assert_eq!(out, want);
    let (code, out, _) = run(&["--seed", "3", "--wizard"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        std::fs::read_to_string(
            shared.join("expected/overview/vanilla36.36.isaac64.wizard.seed3.txt")
        )
        .unwrap()
    );
}

#[test]
fn a_343_compiled_file_with_the_343_target() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let bin = shared.join("expected/compiled/vanilla343.343.bin");
    let (code, out, err) = run(&[
        "--target",
        "nethack-3.4.3",
        "--seed",
        "7",
        bin.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        std::fs::read_to_string(shared.join("expected/overview/vanilla343.343.glibc.seed7.txt"))
            .unwrap()
    );
}

#[test]
fn a_compiled_file_is_laid_out_as_the_version_its_header_states() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let bin343 = shared.join("expected/compiled/vanilla343.343.bin");
    let bin343 = bin343.to_str().unwrap();
    // No flags: NetHack 3.4.3's loader, glibc and its overview, byte for byte.
    for seed in 0..50 {
        let (code, out, err) = run(&["--seed", &seed.to_string(), bin343]);
        assert_eq!(code, 0, "{err}");
        let want = shared.join(format!(
            "expected/overview/vanilla343.343.glibc.seed{seed}.txt"
        ));
        assert_eq!(out, std::fs::read_to_string(want).unwrap(), "seed {seed}");
    }
    let (_, stated, _) = run(&["--seed", "53", bin343]);
    let (_, given, _) = run(&["--seed", "53", "--target", "nethack-3.4.3", bin343]);
    assert_eq!(stated, given);
    assert!(
        stated.contains("\n   Stair to The Gnomish Mines"),
        "{stated}"
    );
    // An explicit --target or --rng wins over the header.
    let (code, as36, _) = run(&["--seed", "53", "--target", "nethack-3.6", bin343]);
    assert_eq!(code, 0);
    assert_ne!(as36, stated);
    assert!(as36.contains("\n  Stair to The Gnomish Mines"), "{as36}");
    let rng_of = |args: &[&str]| {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()["rng"].clone()
    };
    assert_eq!(rng_of(&["--format", "json", bin343]), "glibc");
    assert_eq!(
        rng_of(&["--format", "json", "--rng", "isaac64", bin343]),
        "isaac64"
    );
    // 3.6.7's dgn_comp output: 3.6's loader and ISAAC-64, as by default.
    let bin36 = shared.join("expected/compiled/vanilla36.36.bin");
    let (_, out, _) = run(&["--seed", "4", bin36.to_str().unwrap()]);
    let want = shared.join("expected/overview/vanilla36.36.isaac64.seed4.txt");
    assert_eq!(out, std::fs::read_to_string(want).unwrap());
    // A 3.6.1 header: 3.6's loader with the C library's generator.
    let mut bytes = std::fs::read(&bin36).unwrap();
    bytes[1] = 1;
    let bin361 = temp_file("vanilla361.bin", &bytes);
    assert_eq!(
        rng_of(&["--format", "json", bin361.to_str().unwrap()]),
        "glibc"
    );
}

#[test]
fn a_compiled_file_of_a_version_not_reproduced_needs_a_target() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let mut bytes = std::fs::read(shared.join("expected/compiled/vanilla343.343.bin")).unwrap();
    // The header of NetHack 3.3.0's dgn_comp (same layout, other loader).
    bytes[1] = 0;
    bytes[2] = 3;
    let path = temp_file("vanilla330.bin", &bytes);
    let path = path.to_str().unwrap();
    let (code, out, err) = run(&["--seed", "1", path]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("NetHack 3.3.0's dgn_comp") && err.contains("--target"),
        "{err}"
    );
    let (code, _, err) = run(&["--seed", "1", "--target", "nethack-3.4.3", path]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn json_with_trace_is_the_expected_layout_line() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let src = shared.join("corpus/NetHack__NetHack/dungeon.def");
    let (code, out, err) = run(&[
        "--format",
        "json",
        "--trace",
        "--seed",
        "2",
        src.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1);
    let got: Layout = serde_json::from_str(&out).unwrap();
    let gz =
        std::fs::File::open(shared.join("expected/layouts/vanilla36.36.isaac64.jsonl.gz")).unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(gz), &mut text).unwrap();
    let want: Layout = serde_json::from_str(text.lines().nth(2).unwrap()).unwrap();
    assert_eq!(got, want);
    // Without --trace there is no draw log.
    let (_, plain, _) = run(&["--format", "json", "--seed", "2"]);
    assert!(!plain.contains("rng_calls"));
}

#[test]
fn trace_on_other_formats_goes_to_stderr() {
    let (code, out, err) = run(&["--trace", "--rng", "glibc", "--seed", "1"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("The Dungeons of Doom: levels"));
    let first = err.lines().next().unwrap();
    assert!(
        first.starts_with("rn2(5)=") && first.ends_with("@ size of \"The Dungeons of Doom\""),
        "{first}"
    );
    assert!(err.lines().filter(|l| l.contains("castle tune")).count() == 5);
}

#[test]
fn many_seeds_are_json_lines() {
    let (code, out, _) = run(&["--seeds", "10..13"]);
    assert_eq!(code, 0);
    let seeds: Vec<u64> = out
        .lines()
        .map(|l| serde_json::from_str::<Layout>(l).unwrap().seed)
        .collect();
    assert_eq!(seeds, [10, 11, 12]);
    let (_, out, _) = run(&["--seeds", "0..=2", "--format", "json", "--rng", "glibc"]);
    assert_eq!(out.lines().count(), 3);
    assert!(out.lines().all(|l| l.contains(r#""rng":"glibc""#)));
    assert_eq!(run(&["--seeds", "0..2", "--format", "svg"]).0, 2);
    assert_eq!(run(&["--seeds", "5..1"]).0, 2);
    assert_eq!(run(&["--seeds", "0..2", "--seed", "4"]).0, 2);
}

/// `--seeds` resolves ISAAC-64 seeds four at a time; every line must be
/// the layout of that seed alone, through a last, partial batch, and with
/// wizard mode.
#[test]
fn many_seeds_equal_each_seed_alone() {
    for rng in ["isaac64", "glibc"] {
        for wizard in [false, true] {
            let mut args = vec!["--seeds", "40..51", "--rng", rng];
            if wizard {
                args.push("--wizard");
            }
            let (code, out, _) = run(&args);
            assert_eq!(code, 0);
            assert_eq!(out.lines().count(), 11);
            for (line, seed) in out.lines().zip(40u64..) {
                let seed_arg = seed.to_string();
                let mut one = vec!["--seed", &seed_arg, "--format", "json", "--rng", rng];
                if wizard {
                    one.push("--wizard");
                }
                let (code, alone, _) = run(&one);
                assert_eq!(code, 0);
                let many: Layout = serde_json::from_str(line).unwrap();
                let alone: Layout = serde_json::from_str(&alone).unwrap();
                assert_eq!(many, alone, "seed {seed} ({rng}, wizard {wizard})");
            }
        }
    }
}

/// A game start's layouts carry the hero it made (`character`), in a list
/// of seeds as for one seed alone, byte for byte: NLE's random default and
/// NetHack 3.6's whole random hero, in a list's order.
#[test]
fn many_seeds_of_a_game_start_carry_the_hero() {
    let games: [&[&str]; 3] = [
        &["--target", "nle"],
        &["--target", "nethack-3.6", "--game-start"],
        &[
            "--target",
            "nethack-3.6",
            "--game-start",
            "--role",
            "random",
            "--wizard",
        ],
    ];
    for game in games {
        let mut args = game.to_vec();
        args.extend(["--seeds", "9,2,5"]);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.lines().count(), 3);
        for (line, seed) in out.lines().zip(["9", "2", "5"]) {
            let mut one = game.to_vec();
            one.extend(["--seed", seed, "--format", "json"]);
            let (code, alone, _) = run(&one);
            assert_eq!(code, 0);
            assert!(line.contains(r#""character":{"role":"#), "{line}");
            assert_eq!(line, alone.trim_end(), "seed {seed}, {game:?}");
        }
    }
}

/// Threads resolve chunks of seeds; the output is the same bytes in the
/// same order for any number of them.
#[test]
fn jobs_change_nothing_but_the_speed() {
    let (code, one, _) = run(&["--seeds", "0..700", "-j", "1"]);
    assert_eq!(code, 0);
    assert_eq!(one.lines().count(), 700);
    for jobs in ["2", "3"] {
        let (code, many, _) = run(&["--seeds", "0..700", "--jobs", jobs]);
        assert_eq!(code, 0);
        assert!(many == one, "--jobs {jobs}");
    }
    assert_eq!(run(&["--seeds", "0..10", "-j", "0"]).0, 2);
}

#[test]
fn resolution_errors_exit_1_with_the_condition() {
    // A dungeon file without The Quest: NetHack aborts, we report it.
    let src =
        b"DUNGEON: \"The Dungeons of Doom\" \"D\" (10, 0)\nLEVEL: \"oracle\" \"O\" @ (5, 0)\n";
    let p = temp_file("noquest.def", src);
    let (code, out, err) = run(&["--format", "json", p.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["error"]["code"], "missing-dungeon");
    assert_eq!(
        v["error"]["nethack"],
        "Couldn't resolve dungeon number for name \"The Quest\"."
    );
    assert!(err.contains("The Quest"));
    // The native target has no hard-wired names.
    let (code, out, _) = run(&["--target", "native", p.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("oracle: 5"));
    // Many seeds, on several threads: one error line per seed, in order.
    let (code, out, _) = run(&["--seeds", "3..600", "-j", "2", p.to_str().unwrap()]);
    assert_eq!(code, 1);
    let seeds: Vec<u64> = out
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["error"]["code"], "missing-dungeon");
            v["seed"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(seeds, (3..600).collect::<Vec<_>>());
}

#[test]
fn source_errors_and_unreadable_files() {
    let p = temp_file("broken.def", b"DUNGEON: \"Oops\" (3\n");
    let (code, _, err) = run(&[p.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("has errors"), "{err}");
    assert_eq!(run(&["/nonexistent/dungeon.def"]).0, 2);
    assert_eq!(run(&["--rng", "mt19937"]).0, 2);
    assert_eq!(run(&["--format", "pdf"]).0, 2);
}

/// A minimal XML well-formedness check: balanced tags, quoted attributes,
/// known entities, one root. Returns the element names in document order.
fn xml_elements(doc: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut stack: Vec<String> = Vec::new();
    let mut rest = doc.trim();
    let mut roots = 0;
    let check_text = |t: &str| -> Result<(), String> {
        let mut s = t;
        while let Some(i) = s.find('&') {
            let end = s[i..].find(';').ok_or("unterminated entity")?;
            let ent = &s[i + 1..i + end];
            if !matches!(ent, "amp" | "lt" | "gt" | "quot" | "apos") && !ent.starts_with('#') {
                return Err(format!("unknown entity &{ent};"));
            }
            s = &s[i + end..];
        }
        if t.contains('<') {
            return Err("stray <".into());
        }
        Ok(())
    };
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            check_text(rest)?;
            break;
        };
        let text = &rest[..lt];
        if stack.is_empty() && !text.trim().is_empty() {
            return Err(format!("text outside the root: {text:?}"));
        }
        check_text(text)?;
        let gt = rest[lt..].find('>').ok_or("unterminated tag")? + lt;
        let tag = &rest[lt + 1..gt];
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack
                .pop()
                .ok_or(format!("</{name}> without an opening tag"))?;
            if open != name.trim() {
                return Err(format!("</{name}> closes <{open}>"));
            }
        } else {
            let self_closing = tag.ends_with('/');
            let body = tag.trim_end_matches('/');
            let name: String = body.chars().take_while(|c| !c.is_whitespace()).collect();
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':')
            {
                return Err(format!("bad element name in <{tag}>"));
            }
            // Attributes: name="value" pairs.
            let mut attrs = body[name.len()..].trim();
            while !attrs.is_empty() {
                let eq = attrs
                    .find('=')
                    .ok_or(format!("attribute without value in <{name}>"))?;
                let after = &attrs[eq + 1..];
                if !after.starts_with('"') {
                    return Err(format!("unquoted attribute in <{name}>"));
                }
                let close = after[1..].find('"').ok_or("unterminated attribute")? + 1;
                check_text(&after[1..close])?;
                attrs = after[close + 1..].trim_start();
            }
            if stack.is_empty() {
                roots += 1;
            }
            names.push(name.clone());
            if !self_closing {
                stack.push(name);
            }
        }
        rest = &rest[gt + 1..];
    }
    if !stack.is_empty() {
        return Err(format!("unclosed <{}>", stack.join("> <")));
    }
    if roots != 1 {
        return Err(format!("{roots} root elements"));
    }
    Ok(names)
}

#[test]
fn the_xml_checker_rejects_broken_documents() {
    assert!(xml_elements("<svg><g></svg>").is_err());
    assert!(xml_elements("<svg a=b></svg>").is_err());
    assert!(xml_elements("<svg>&nbsp;</svg>").is_err());
    assert!(xml_elements("<svg/><svg/>").is_err());
    assert_eq!(
        xml_elements("<svg><g a=\"&amp;\"/></svg>").unwrap(),
        ["svg", "g"]
    );
}

#[test]
fn svg_is_well_formed_with_the_expected_elements() {
    let (code, out, err) = run(&["--format", "svg", "--seed", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    let names = xml_elements(&out).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    assert_eq!(names.first().map(String::as_str), Some("svg"));
    let count = |needle: &str| out.matches(needle).count();
    // Eight dungeon columns; every level of every dungeon drawn.
    assert_eq!(count("<g class=\"dungeon\""), 8);
    let layout: Layout =
        serde_json::from_str(&run(&["--format", "json", "--seed", "4"]).1).unwrap();
    let total: i32 = layout.dungeons.iter().map(|d| d.num_levels).sum();
    assert_eq!(count("<rect class=\"level"), total as usize);
    assert_eq!(count("<rect class=\"level special\""), layout.levels.len());
    for l in &layout.levels {
        assert!(
            out.contains(&format!(">{}", l.name)),
            "no label for {}",
            l.name
        );
    }
    // Branches: stairs, portals (one floating: Fort Ludios), one-way ends.
    assert_eq!(count("<path class=\"branch "), layout.branches.len() - 1);
    assert_eq!(count("class=\"branch floating\""), 1);
    assert!(
        out.contains("class=\"branch portal\"")
            && out.contains("marker-end=\"url(#arrow-portal)\"")
    );
    assert!(out.contains("marker-start=\"url(#bar)\"") && out.contains("marker-end=\"url(#bar)\""));
    assert!(out.contains(&format!("♪ {}", layout.tune)));
    assert!(names.iter().any(|n| n == "title") && names.iter().any(|n| n == "marker"));
}

#[test]
fn svg_escapes_names() {
    let src = b"DUNGEON: \"Tom & Jerry's <Den>\" \"D\" (3, 0)\nLEVEL: \"a&b\" \"none\" @ (1, 0)\n";
    let p = temp_file("escape.def", src);
    let (code, out, err) = run(&["--target", "native", "--format", "svg", p.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    xml_elements(&out).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    assert!(out.contains("Tom &amp; Jerry&apos;s &lt;Den&gt;"));
}

#[test]
fn a_variants_file_laid_out_with_the_default_target_says_so_and_names_its_target() {
    let src = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/nethack-3.6.def"),
    )
    .unwrap();
    let dir = std::env::temp_dir().join(format!(
        "dgnkit-layout-cli-{}/DynaHack/dat",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dungeon.def");
    std::fs::write(&path, &src).unwrap();
    let p = path.display().to_string();
    for format in ["overview", "json", "svg"] {
        let (code, _, err) = run(&["--seed", "3", "--format", format, &p]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("note: ")
                && err.contains("this looks like a DynaHack file (its path names DynaHack), answered with NetHack 3.6's rules; for DynaHack's own, use `--target dynahack`"),
            "{format}: {err}"
        );
    }
    let (_, _, err) = run(&["--seed", "3", "--target", "nethack-3.6", &p]);
    assert!(!err.contains("looks like"), "{err}");
    // A family dgnkit has no target for is an approximation, said so.
    let ext = dir.parent().unwrap().join("SLASHEM-Extended");
    std::fs::create_dir_all(&ext).unwrap();
    let ext = ext.join("dungeon.def");
    std::fs::write(&ext, &src).unwrap();
    let (code, _, err) = run(&["--seed", "3", &ext.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("SLASH'EM Extended") && err.contains("an approximation"),
        "{err}"
    );
}

#[test]
fn the_shared_variant_files_are_never_answered_silently_by_default() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    for (dir, target) in [
        ("DynaMoHack__DynaHack", "dynahack"),
        ("k21971__UnNetHack", "unnethack"),
        ("dirkz__slashem-iphone", "slashem"),
        ("Chris-plus-alphanumericgibberish__dNAO@HEAD", "dnethack"),
        ("k21971__EvilHack@HEAD", "evilhack"),
        ("k21971__GnollHack", "gnollhack"),
    ] {
        let p = shared.join("corpus").join(dir).join("dungeon.def");
        let (_, _, err) = run(&["--seed", "1", &p.display().to_string()]);
        assert!(
            err.contains(&format!("use `--target {target}`")),
            "{dir}: {err}"
        );
    }
}

/// Without FILE, `--target F` lays out F's own game (its built-in
/// description), not NetHack 3.6's dungeon under F's loader: for every
/// family of `../shared/expected/variants/`, the first lines of its default
/// fixture (the game's own `init_dungeons()`) come out whole, draws and all.
#[test]
fn each_target_s_built_in_description_is_its_own_game_s() {
    let Some(families) = dgnkit_tests::variants::families() else {
        return;
    };
    for fam in &families {
        if let Some(why) = &fam.unknown {
            panic!("{why}");
        }
        if !fam.target.game().loader_proven() {
            // Refused, with the reason, never another game's layout.
            let (code, out, err) = run(&["--target", fam.target.name(), "--seed", "0"]);
            assert_ne!(code, 0, "{}: {out}", fam.dir);
            assert!(
                err.contains("does not yet reproduce") && out.is_empty(),
                "{}: {err}",
                fam.dir
            );
            continue;
        }
        if fam.target.game().reads_lua {
            // NetHack 3.7's forks record game starts, not layout lines:
            // `forks37_parity::each_forks_built_in_description_resolves_like_its_own_file`.
            continue;
        }
        let lines = dgnkit_tests::variants::layout_lines(&fam.dir).unwrap();
        // `layouts.<rng>.jsonl.gz`: the game's defaults.
        let default: Vec<_> = lines
            .iter()
            .filter(|(at, _)| dgnkit_tests::variants::setup_of(at).is_empty())
            .take(5)
            .collect();
        assert!(!default.is_empty(), "{}: no default fixture", fam.dir);
        for (at, want) in default {
            let seed = want.seed.to_string();
            let (code, out, err) = run(&[
                "--target",
                fam.target.name(),
                "--seed",
                &seed,
                "--format",
                "json",
                "--trace",
            ]);
            assert_eq!(code, 0, "{}: {err}", fam.dir);
            let got: dgnkit::layout::Layout =
                serde_json::from_str(out.trim()).expect("a layout line");
            assert!(
                got == *want,
                "{}: {at}: the built-in description lays out otherwise",
                fam.dir
            );
        }
    }
}

/// A role dgnkit knows nothing of is answered with the target's own roles,
/// not every variant's; another game's role, with the target's list.
#[test]
fn an_unknown_role_lists_the_target_s_own_roles() {
    let (code, _, err) = run(&["--target", "nethack-3.7", "--role", "Foo", "--seed", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("NetHack 3.7's roles"), "{err}");
    assert!(err.contains("Valkyrie (Val)"), "{err}");
    assert!(
        !err.contains("Madman") && !err.contains("Flame Mage"),
        "{err}"
    );
    let (code, _, err) = run(&[
        "--target",
        "nethack-3.7",
        "--role",
        "Convict",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("NetHack 3.7 has no role Convict"), "{err}");
    assert!(!err.contains("Madman"), "{err}");
}

/// A target whose loader reads no race refuses `--race` instead of
/// ignoring it.
#[test]
fn race_is_refused_by_a_game_that_does_not_read_it() {
    let (code, out, err) = run(&["--target", "nethack-3.7", "--race", "elf", "--seed", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("reads no race"), "{err}");
    // dNetHack reads it (a Drow Healer's Quest).
    let (code, _, err) = run(&[
        "--target", "dnethack", "--race", "Drow", "--role", "Hea", "--seed", "1",
    ]);
    assert_eq!(code, 0, "{err}");
}
