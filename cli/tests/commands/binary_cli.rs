//! `dgn compile`, `dgn decompile` and the `dgn_comp` drop-in, run as
//! processes: outputs, exit statuses, and the original's command-line
//! behaviour.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const DGN: &str = env!("CARGO_BIN_EXE_dgn");
const DGN_COMP: &str = env!("CARGO_BIN_EXE_dgn_comp");

/// A vanilla-style file small enough to read in a test, with every kind of
/// statement that changes the bytes.
const SOURCE: &str = "DUNGEON:\t\"The Dungeons of Doom\" \"D\" (25, 5)
ALIGNMENT:\tunaligned
BRANCH:\t\t\"The Gnomish Mines\" @ (2, 3)
LEVEL:\t\t\"rogue\" \"R\" @ (15, 4)
LEVELDESC:\troguelike
LEVEL:\t\t\"oracle\" \"O\" @ (5, 5)
LEVALIGN:\tneutral
CHAINBRANCH:\t\"Sokoban\" \"oracle\" + (1, 0) up
RNDLEVEL:\t\"bigrm\" \"B\" @ (10, 3) 40 10
CHAINBRANCH:\t\"The Quest\" \"oracle\" + (6, 2) portal
LEVEL:\t\t\"castle\" \"none\" @ (-1, 0)
CHAINBRANCH:\t\"Vlad's Tower\" \"castle\" + (0, 0) no_down

DUNGEON:\t\"The Gnomish Mines\" \"M\" (8, 2)
ALIGNMENT:\tlawful
DESCRIPTION:\tmazelike
RNDLEVEL:\t\"minetn\" \"T\" @ (3, 2) 7
LEVELDESC:\ttown
RNDLEVEL:\t\"minend\" \"E\" @ (-1, 0) 3

DUNGEON:\t\"The Quest\" \"Q\" (5, 2)
LEVEL:\t\t\"x-strt\" \"none\" @ (1, 1)
LEVEL:\t\t\"x-loca\" \"L\" @ (3, 1)
LEVEL:\t\t\"x-goal\" \"none\" @ (-1, 0)

DUNGEON:\t\"Sokoban\" \"none\" (4, 0)
DESCRIPTION:\tmazelike
ALIGNMENT:\tneutral
ENTRY:\t\t-1
RNDLEVEL:\t\"soko1\" \"none\" @ (1, 0) 2
RNDLEVEL:\t\"soko2\" \"none\" @ (2, 0) 2

DUNGEON:\t\"Vlad's Tower\" \"T\" (3, 0)
PROTOFILE:\t\"tower\"
DESCRIPTION:\tmazelike
ENTRY:\t\t-1
LEVEL:\t\t\"tower1\" \"none\" @ (1, 0)
";

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("dgnkit-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        Dir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn write(&self, name: &str, text: &[u8]) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).expect("write");
        p
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(bin: &str, args: &[&str], dir: &Path, env: &[(&str, &str)], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(bin);
    cmd.args(args)
        .current_dir(dir)
        .env_remove("DGN_COMP_TARGET")
        .env_remove("DGN_COMP_DIALECT");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    if let (Some(input), Some(mut pipe)) = (stdin, child.stdin.take()) {
        use std::io::Write;
        // A program that refuses its command line exits without reading
        // its input, maybe before this write: the broken pipe is not the
        // test's failure (its exit status and messages are checked).
        if let Err(e) = pipe.write_all(input) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "stdin: {e}");
        }
    }
    child.wait_with_output().expect("wait")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn dgn_compile_writes_each_target_and_nothing_on_errors() {
    let dir = Dir::new("compile");
    dir.write("d.def", SOURCE.as_bytes());
    let o = run(DGN, &["compile", "d.def"], &dir.0, &[], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v36 = std::fs::read(dir.path("d")).expect("default output is the name without extension");
    assert_eq!(
        dgnkit::binary::detect(&v36),
        Ok(dgnkit::binary::BinaryFormat::NetHack36)
    );

    let o = run(
        DGN,
        &["compile", "--target", "nethack-3.4.3", "d.def", "-o", "-"],
        &dir.0,
        &[],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        o.stdout.get(40..),
        v36.get(48..),
        "3.4.3 and 3.6 differ only in the header"
    );
    let v343 = o.stdout;

    let o = run(
        DGN,
        &["compile", "--target", "native", "d.def", "-o", "n.bin"],
        &dir.0,
        &[],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let native = dgnkit::binary::read(&std::fs::read(dir.path("n.bin")).expect("native"), None)
        .expect("reads");
    let from36 = dgnkit::binary::read(&v36, None).expect("reads");
    assert_eq!(native.script, from36.script);

    // --header-from copies the header of a file of the same version only.
    dir.write("old343", &v343);
    let o = run(
        DGN,
        &[
            "compile",
            "--target",
            "nethack-3.4.3",
            "--header-from",
            "old343",
            "d.def",
            "-o",
            "h",
        ],
        &dir.0,
        &[],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.path("h")).expect("h"), v343);
    let o = run(
        DGN,
        &["compile", "--header-from", "old343", "d.def", "-o", "h2"],
        &dir.0,
        &[],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nethack-3.4.3 file"), "{}", stderr(&o));
    assert!(!dir.path("h2").exists());

    // Errors: diagnostics, exit 1, no output.
    dir.write("bad.def", b"DUNGEON: \"x\" \"xy\" (1, 0)\n");
    let o = run(DGN, &["compile", "bad.def"], &dir.0, &[], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("error"), "{}", stderr(&o));
    assert!(!dir.path("bad").exists());

    // No extension: refusing beats overwriting the input.
    dir.write("noext", SOURCE.as_bytes());
    let o = run(DGN, &["compile", "noext"], &dir.0, &[], None);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        std::fs::read(dir.path("noext")).expect("input kept"),
        SOURCE.as_bytes()
    );

    let o = run(DGN, &["compile", "missing.def"], &dir.0, &[], None);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn dgn_decompile_gives_text_that_compiles_back() {
    let dir = Dir::new("decompile");
    dir.write("d.def", SOURCE.as_bytes());
    for target in ["nethack-3.4.3", "nethack-3.6", "native"] {
        let o = run(
            DGN,
            &["compile", "--target", target, "d.def", "-o", "first"],
            &dir.0,
            &[],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let o = run(
            DGN,
            &["decompile", "first", "-o", "back.def"],
            &dir.0,
            &[],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = std::fs::read_to_string(dir.path("back.def")).expect("text");
        assert!(text.starts_with("# Decompiled from"));
        assert!(
            text.contains("CHAINBRANCH:\t\"Sokoban\" \"oracle\" + (1, 0) up\n"),
            "{text}"
        );
        let o = run(
            DGN,
            &["compile", "--target", target, "back.def", "-o", "second"],
            &dir.0,
            &[],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(
            std::fs::read(dir.path("first")).ok(),
            std::fs::read(dir.path("second")).ok(),
            "{target}"
        );
    }
    // A forced wrong layout fails with a hint; garbage fails with the offset.
    let o = run(
        DGN,
        &["compile", "--target", "nethack-3.6", "d.def", "-o", "v36"],
        &dir.0,
        &[],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let o = run(
        DGN,
        &["decompile", "--from", "nethack-3.4.3", "v36"],
        &dir.0,
        &[],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("try --from nethack-3.6"),
        "{}",
        stderr(&o)
    );
    let o = run(
        DGN,
        &["decompile", "--format", "json", "v36"],
        &dir.0,
        &[],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["layout"], "nethack-3.6");
    assert!(v["text"].as_str().unwrap().contains("DUNGEON:"), "{v}");
    let o = run(DGN, &["decompile", "d.def"], &dir.0, &[], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("at byte 0"), "{}", stderr(&o));
}

#[test]
fn dgn_comp_has_nethacks_command_line() {
    let dir = Dir::new("dgn-comp");
    dir.write("dungeon.pdf", SOURCE.as_bytes());

    // Files: NAME.pdf -> NAME, 3.6 by default.
    let o = run(DGN_COMP, &["dungeon.pdf"], &dir.0, &[], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
    let v36 = std::fs::read(dir.path("dungeon")).expect("output named without .pdf");
    assert_eq!(
        dgnkit::binary::detect(&v36),
        Ok(dgnkit::binary::BinaryFormat::NetHack36)
    );

    // No argument: standard input to standard output.
    let o = run(DGN_COMP, &[], &dir.0, &[], Some(SOURCE.as_bytes()));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, v36);

    // Target from the environment, overridden by the flag.
    let o = run(
        DGN_COMP,
        &[],
        &dir.0,
        &[("DGN_COMP_TARGET", "nethack-3.4.3")],
        Some(SOURCE.as_bytes()),
    );
    assert_eq!(
        dgnkit::binary::detect(&o.stdout),
        Ok(dgnkit::binary::BinaryFormat::NetHack343)
    );
    let o = run(
        DGN_COMP,
        &["--target", "nethack-3.6"],
        &dir.0,
        &[("DGN_COMP_TARGET", "nethack-3.4.3")],
        Some(SOURCE.as_bytes()),
    );
    assert_eq!(o.stdout, v36);
    let o = run(
        DGN_COMP,
        &[],
        &dir.0,
        &[("DGN_COMP_TARGET", "bogus")],
        Some(SOURCE.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(1));

    // Names not ending in .pdf are refused as the original does; the
    // other files are still compiled, and the status is failure.
    std::fs::remove_file(dir.path("dungeon")).expect("rm");
    let o = run(
        DGN_COMP,
        &["dungeon.def", "dungeon.pdf", "absent.pdf"],
        &dir.0,
        &[],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("Error - file name \"dungeon.def\" in wrong format.\n"),
        "{err}"
    );
    assert!(err.contains("Can't open absent.pdf for input.\n"), "{err}");
    assert_eq!(std::fs::read(dir.path("dungeon")).ok(), Some(v36));

    // Errors in dgn_comp's format, and no output.
    dir.write(
        "bad.pdf",
        b"DUNGEON: \"x\" \"y\" (1, 0)\nLEVEL: \"a\" \"bb\" @ (1, 0)\n",
    );
    let o = run(DGN_COMP, &["bad.pdf"], &dir.0, &[], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("bad.pdf : line 2 : "),
        "{}",
        stderr(&o)
    );
    assert!(!dir.path("bad").exists());
    let o = run(
        DGN_COMP,
        &[],
        &dir.0,
        &[],
        Some(b"LEVEL: \"a\" \"b\" @ (1, 0)\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).starts_with("(stdin) : line 1 : "),
        "{}",
        stderr(&o)
    );
}

/// NetHack 3.7's fields survive the native format: dgnkit's own
/// `corpus/nethack-3.7.lua` (themerooms, lvlfill, the unconnected
/// Tutorial) compiled with `--target native` lays out exactly as the
/// `.lua` does, converts back to a dungeon.lua that reads to the same
/// script, and `dgn decompile` refuses it rather than drop the fields.
#[test]
fn dungeon_lua_round_trips_through_the_native_format() {
    let dir = Dir::new("lua-native");
    let lua = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/nethack-3.7.lua");
    let lua = lua.to_str().unwrap();
    let o = run(
        DGN,
        &["compile", "--target", "native", lua, "-o", "d.bin"],
        &dir.0,
        &[],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let bin = std::fs::read(dir.path("d.bin")).unwrap();
    assert_eq!(&bin[8..12], &[1, 0, 1, 0], "format 1.1: it has 3.7 fields");
    let read = dgnkit::binary::read(&bin, None).expect("reads");
    let opts = dgnkit::frontend::CheckOptions {
        target: dgnkit::options::Target::NetHack37,
        ..Default::default()
    };
    let src = std::fs::read(lua).unwrap();
    let original = dgnkit::frontend::analyze_as(dgnkit::frontend::SourceKind::Lua, &src, &opts)
        .script
        .expect("the built-in file has no errors");
    assert!(original.dungeons.iter().any(|d| d.lua.unconnected));
    assert_eq!(read.script, original, "nothing is lost");

    for args in [
        ["--seed", "7", "--wizard"].as_slice(),
        ["--seed", "12345", "--role", "Wizard"].as_slice(),
    ] {
        let layout = |file: &str| {
            let mut a = vec!["layout", "--target", "nethack-3.7", "--format", "json"];
            a.extend_from_slice(args);
            a.push(file);
            let o = run(DGN, &a, &dir.0, &[], None);
            assert!(o.status.success(), "{}", stderr(&o));
            o.stdout
        };
        assert_eq!(layout("d.bin"), layout(lua), "layout {args:?}");
    }

    let o = run(
        DGN,
        &["convert", "--to", "lua", "d.bin", "-o", "back.lua"],
        &dir.0,
        &[],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let back = std::fs::read(dir.path("back.lua")).unwrap();
    let again = dgnkit::frontend::analyze_as(dgnkit::frontend::SourceKind::Lua, &back, &opts);
    assert_eq!(again.script.as_ref(), Some(&original));

    let o = run(DGN, &["decompile", "d.bin"], &dir.0, &[], None);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("dgn convert --to lua"),
        "{}",
        stderr(&o)
    );
}
