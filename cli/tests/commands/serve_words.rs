//! `dgn serve` gives a command's messages in the API's words: an option is
//! named by the parameter that sets it (`` `given` ``, the target
//! `` `native` ``), never as the command line spells it (`--given`,
//! `--target native`), the pasted overview is "the overview" (not a name
//! of the server's own), and there is no advice to run another command;
//! the command line's own messages are unchanged.

use crate::common::Server;
use dgnkit_cli::serve::Limits;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::time::Duration;

const DGN: &str = env!("CARGO_BIN_EXE_dgn");

/// POST `/api/ENDPOINT` with `body`: the status, the `X-Dgn-Stderr` notes
/// and the body.
fn post(addr: SocketAddr, endpoint: &str, body: &Value) -> (u16, String, String) {
    let body = body.to_string();
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "POST /api/{endpoint} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let raw = String::from_utf8(raw).expect("UTF-8");
    let (head, body) = raw.split_once("\r\n\r\n").expect("a header's end");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status");
    let notes = head
        .lines()
        .find_map(|l| l.strip_prefix("x-dgn-stderr: "))
        .unwrap_or_default()
        .to_string();
    (status, notes, body.to_string())
}

fn error_of(body: &str) -> String {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{body}"))
        .to_string()
}

/// `dgn ARGS`: its standard error.
fn cli_stderr(args: &[&str]) -> String {
    let out = Command::new(DGN)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("dgn");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const ONLY_DOOM: &str =
    "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"oracle\" \"O\" @ (5, 5)\n";

#[test]
fn messages_name_the_api_s_parameters_not_the_command_line_s_options() {
    let server = Server::start(Limits::default());
    let addr = server.addr;

    // A variant's loader without its dungeons: "or use the target `native`".
    let (status, _, body) = post(
        addr,
        "layout",
        &json!({"target": "dnethack", "text": ONLY_DOOM, "name": "dungeon.def", "format": "svg"}),
    );
    let e = error_of(&body);
    assert_eq!(status, 400, "{body}");
    assert!(e.contains("(or use the target `native`)"), "{e}");

    // A query with a mistake: "`given` has errors".
    let (status, _, body) = post(addr, "stats", &json!({"given": "oracle.depht == 9"}));
    let e = error_of(&body);
    assert_eq!(status, 400, "{body}");
    assert!(e.contains("dgn stats: `given` has errors"), "{e}");

    // A pasted overview: its lines are the overview's, and wizard mode is
    // the parameter `wizard`.
    let overview = "The Dungeons of Doom: levels 1 to 9\n   Level 3: [bigrm]\n      A very big room.\n   Level 4:\n      A dragon was here.\n";
    let (_, notes, body) = post(addr, "stats", &json!({"given_overview": overview}));
    let said = format!("{notes}\n{body}");
    assert!(
        said.contains(
            "the overview: levels named in brackets are printed in wizard mode only: give `wizard`"
        ),
        "{said}"
    );
    assert!(
        said.contains("the overview:5: `A dragon was here.`"),
        "{said}"
    );
    assert!(!said.contains("given_overview>"), "{said}");

    // A description with errors: the diagnostics, and no command to run.
    let (status, _, body) = post(addr, "diff", &json!({"old": ONLY_DOOM, "new": "bogus"}));
    let e = error_of(&body);
    assert_eq!(status, 400, "{body}");
    assert!(
        e.contains("E0116") && e.ends_with("`new.def` has errors; fix them first"),
        "{e}"
    );

    for (what, text) in [("messages", &e), ("notes", &said)] {
        assert!(!text.contains("--"), "{what}: {text}");
        assert!(!text.contains("dgn check"), "{what}: {text}");
    }
}

#[test]
fn the_command_line_s_own_messages_keep_its_words() {
    let e = cli_stderr(&["stats", "--given", "oracle.depht == 9"]);
    assert!(e.contains("dgn stats: --given has errors"), "{e}");
    let dir = std::env::temp_dir().join(format!("dgn-serve-words-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("dungeon.def");
    std::fs::write(&file, ONLY_DOOM).unwrap();
    let e = cli_stderr(&[
        "layout",
        "--target",
        "dnethack",
        "--format",
        "svg",
        file.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(e.contains("(or use --target native)"), "{e}");
}
