//! A session file's bytes, plain or gzipped JSON, to a [`Session`]: what
//! `dgn session` needs of it (seed, character, wizard mode, the recording
//! tree, each step's RNG log and screen) and nothing else.

use super::character::{self, Character};
use serde_json::Value;
use std::fmt;
use std::io::Read;

/// The most a gzipped session may inflate to. A real one is a few
/// megabytes; a file beyond this is refused rather than read whole.
pub const MAX_INFLATED: u64 = 256 << 20;

/// Why a file is not a session dgnkit can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// Named `.gz` but not gzip data.
    NotGzip,
    /// Gzip data that does not inflate.
    BadGzip(String),
    /// Inflates to more than [`MAX_INFLATED`] bytes.
    TooLarge,
    /// Not JSON: serde_json's message, with its line and column.
    NotJson(String),
    /// JSON, but not a session: what is missing or wrong.
    NotASession(String),
    /// No `version`.
    NoVersion,
    /// A `version` other than 3 and 4, as written.
    UnknownVersion(String),
    /// Neither `seed` nor (v4) `env.NETHACK_SEED`.
    NoSeed,
    /// A seed that is not a whole number from 0 to 2^64-1, or two that
    /// disagree.
    BadSeed(String),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::NotGzip => write!(
                f,
                "not gzip: the name ends in .gz but the data does not start as gzip does (1f 8b)"
            ),
            SessionError::BadGzip(e) => write!(f, "bad gzip: {e}"),
            SessionError::TooLarge => write!(
                f,
                "too large: it inflates to more than {} MiB, more than any session",
                MAX_INFLATED >> 20
            ),
            SessionError::NotJson(e) => write!(f, "not JSON: {e}"),
            SessionError::NotASession(why) => write!(f, "not a session file: {why}"),
            SessionError::NoVersion => write!(
                f,
                "no `version`: a session file (format v3 or v4) states its format"
            ),
            SessionError::UnknownVersion(v) => write!(
                f,
                "unknown version {v}: dgnkit reads session formats 3 and 4"
            ),
            SessionError::NoSeed => write!(
                f,
                "no seed: the file has neither `seed` nor `env.NETHACK_SEED`"
            ),
            SessionError::BadSeed(why) => write!(f, "bad seed: {why}"),
        }
    }
}

impl std::error::Error for SessionError {}

/// Where a step is in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepPlace {
    /// v3's deprecated `startup` object, before `steps`.
    Startup,
    /// `steps[i]`.
    Step(usize),
}

impl fmt::Display for StepPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepPlace::Startup => f.write_str("startup"),
            StepPlace::Step(i) => write!(f, "step {i}"),
        }
    }
}

/// One step: its RNG log, as written, and its screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub place: StepPlace,
    pub rng: Vec<String>,
    pub screen: Option<String>,
}

/// What `dgn session` reads of a session file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// 3 or 4.
    pub version: u32,
    pub seed: u64,
    /// The character the options state (v3 `options`, v4 `nethackrc`).
    pub options: Character,
    pub wizard: bool,
    /// `recorded_with.nethack_c`: the C tree that played the game.
    pub nethack_c: Option<String>,
    /// `source`: who recorded it (`c` for the C game).
    pub source: Option<String>,
    /// `regen.mode`: how it was recorded (`chargen`: the character was
    /// chosen in the game, whatever the options say).
    pub regen_mode: Option<String>,
    pub steps: Vec<Step>,
}

/// Reads a session file; `named_gz`: its name ends in `.gz`, so it must
/// be gzip data. Gzip data is recognised by its magic bytes either way.
pub fn read(bytes: &[u8], named_gz: bool) -> Result<Session, SessionError> {
    let inflated;
    let json = if bytes.starts_with(&[0x1f, 0x8b]) {
        inflated = inflate(bytes, MAX_INFLATED)?;
        &inflated[..]
    } else if named_gz {
        return Err(SessionError::NotGzip);
    } else {
        bytes
    };
    if json.iter().all(u8::is_ascii_whitespace) {
        return Err(SessionError::NotJson("the file is empty".to_string()));
    }
    let value: Value =
        serde_json::from_slice(json).map_err(|e| SessionError::NotJson(e.to_string()))?;
    from_json(&value)
}

fn inflate(bytes: &[u8], limit: u64) -> Result<Vec<u8>, SessionError> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .take(limit + 1)
        .read_to_end(&mut out)
        .map_err(|e| SessionError::BadGzip(e.to_string()))?;
    if out.len() as u64 > limit {
        return Err(SessionError::TooLarge);
    }
    Ok(out)
}

/// A session from its JSON.
pub fn from_json(value: &Value) -> Result<Session, SessionError> {
    let Some(top) = value.as_object() else {
        return Err(SessionError::NotASession(format!(
            "the JSON is {}, not an object",
            kind(value)
        )));
    };
    let steps = match top.get("steps") {
        Some(Value::Array(steps)) => steps,
        Some(v) => {
            return Err(SessionError::NotASession(format!(
                "`steps` is {}, not an array",
                kind(v)
            )))
        }
        None => {
            return Err(SessionError::NotASession(
                "no `steps` (a session's RNG log is in its steps)".to_string(),
            ))
        }
    };
    let version = match top.get("version") {
        None | Some(Value::Null) => return Err(SessionError::NoVersion),
        Some(v) => match v.as_u64() {
            Some(n @ (3 | 4)) => n as u32,
            _ => return Err(SessionError::UnknownVersion(v.to_string())),
        },
    };
    let seed = seed_of(top, version)?;
    let (options, wizard) = if version == 3 {
        let options = top.get("options").unwrap_or(&Value::Null);
        let wizard = options
            .get("wizard")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        (character::from_v3_options(options), wizard)
    } else {
        let rc = match top.get("nethackrc") {
            None | Some(Value::Null) => character::Rc::default(),
            Some(Value::String(s)) => character::from_nethackrc(s),
            Some(v) => {
                return Err(SessionError::NotASession(format!(
                    "`nethackrc` is {}, not a string",
                    kind(v)
                )))
            }
        };
        (rc.character, rc.wizard)
    };
    let mut out = Vec::with_capacity(steps.len() + 1);
    // v3 files before the `startup` object was folded into `steps[0]`.
    if let Some(startup) = top.get("startup").filter(|s| !s.is_null()) {
        out.push(step(startup, StepPlace::Startup)?);
    }
    for (i, s) in steps.iter().enumerate() {
        out.push(step(s, StepPlace::Step(i))?);
    }
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    Ok(Session {
        version,
        seed,
        options,
        wizard,
        nethack_c: text(top.get("recorded_with").and_then(|r| r.get("nethack_c"))),
        source: text(top.get("source")),
        regen_mode: text(top.get("regen").and_then(|r| r.get("mode"))),
        steps: out,
    })
}

/// `seed` (a number, or a string of digits), and in v4 `env.NETHACK_SEED`
/// (a string), which must agree when both are there.
fn seed_of(top: &serde_json::Map<String, Value>, version: u32) -> Result<u64, SessionError> {
    let parse = |what: &str, v: &Value| -> Result<u64, SessionError> {
        let n = match v {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().parse::<u64>().ok(),
            _ => None,
        };
        n.ok_or_else(|| {
            SessionError::BadSeed(format!(
                "`{what}` is {v}, not a whole number from 0 to 18446744073709551615"
            ))
        })
    };
    let seed = top
        .get("seed")
        .filter(|v| !v.is_null())
        .map(|v| parse("seed", v))
        .transpose()?;
    let env = if version >= 4 {
        top.get("env")
            .and_then(|e| e.get("NETHACK_SEED"))
            .filter(|v| !v.is_null())
            .map(|v| parse("env.NETHACK_SEED", v))
            .transpose()?
    } else {
        None
    };
    match (seed, env) {
        (Some(a), Some(b)) if a != b => Err(SessionError::BadSeed(format!(
            "`seed` is {a} but `env.NETHACK_SEED` is {b}"
        ))),
        (Some(s), _) | (None, Some(s)) => Ok(s),
        (None, None) => Err(SessionError::NoSeed),
    }
}

fn step(v: &Value, place: StepPlace) -> Result<Step, SessionError> {
    let bad = |what: String| SessionError::NotASession(format!("{place}: {what}"));
    let Some(obj) = v.as_object() else {
        return Err(bad(format!("is {}, not an object", kind(v))));
    };
    let rng = match obj.get("rng") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, e)| {
                e.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| bad(format!("rng[{i}] is {}, not a string", kind(e))))
            })
            .collect::<Result<_, _>>()?,
        Some(v) => return Err(bad(format!("`rng` is {}, not an array", kind(v)))),
    };
    let screen = obj
        .get("screen")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(Step { place, rng, screen })
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    const V4: &str = r#"{"version": 4, "seed": 312, "env": {"NETHACK_SEED": "312"},
        "nethackrc": "OPTIONS=name:Agent,role:Valkyrie,race:human,gender:female,align:neutral\nWIZARD=Agent\n",
        "recorded_with": {"nethack_c": "79c688cc6"}, "source": "c",
        "steps": [{"key": null, "rng": ["rn2(2)=0 @ f(o_init.c:88)", ">x"], "screen": "s"}, {"key": " "}]}"#;

    #[test]
    fn a_v4_session_plain_or_gzipped() {
        let s = read(V4.as_bytes(), false).unwrap();
        assert_eq!((s.version, s.seed, s.wizard), (4, 312, true));
        assert_eq!(s.options.describe(), "neutral female human Valkyrie");
        assert_eq!(s.nethack_c.as_deref(), Some("79c688cc6"));
        assert_eq!(s.steps.len(), 2);
        assert_eq!(s.steps[0].rng.len(), 2);
        assert_eq!(s.steps[1].rng.len(), 0);
        assert_eq!(read(&gz(V4.as_bytes()), true).unwrap(), s);
        assert_eq!(read(&gz(V4.as_bytes()), false).unwrap(), s);
    }

    #[test]
    fn a_v3_session_with_its_startup() {
        let text = r#"{"version": 3, "seed": 7, "options": {"role": "Priest", "wizard": true},
            "startup": {"rng": ["rn2(2)=1 @ x"]}, "steps": [{"key": null, "rng": []}]}"#;
        let s = read(text.as_bytes(), false).unwrap();
        assert_eq!((s.version, s.seed, s.wizard), (3, 7, true));
        assert_eq!(s.options.role.as_deref(), Some("Priest"));
        assert!(!s.options.whole());
        assert_eq!(s.steps[0].place, StepPlace::Startup);
        assert_eq!(s.steps[1].place.to_string(), "step 0");
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let err = |bytes: &[u8], gz: bool| read(bytes, gz).unwrap_err().to_string();
        assert!(err(b"{}", true).starts_with("not gzip"));
        let mut cut = gz(V4.as_bytes());
        cut.truncate(cut.len() / 2);
        assert!(
            err(&cut, true).starts_with("bad gzip"),
            "{}",
            err(&cut, true)
        );
        assert!(err(b"version 4", false).starts_with("not JSON"));
        assert_eq!(err(b" \n", false), "not JSON: the file is empty");
        assert!(err(b"[1]", false).contains("an array, not an object"));
        assert!(err(b"{}", false).contains("no `steps`"));
        assert!(err(br#"{"steps": 1}"#, false).contains("not an array"));
        assert!(err(br#"{"steps": []}"#, false).starts_with("no `version`"));
        assert!(err(br#"{"steps": [], "version": 5}"#, false).starts_with("unknown version 5"));
        assert!(err(br#"{"steps": [], "version": "4"}"#, false).contains("unknown version \"4\""));
        assert!(err(br#"{"steps": [], "version": 4}"#, false).starts_with("no seed"));
        assert!(err(
            br#"{"steps": [], "version": 3, "env": {"NETHACK_SEED": "1"}}"#,
            false
        )
        .starts_with("no seed"));
        assert!(err(br#"{"steps": [], "version": 4, "seed": -1}"#, false).starts_with("bad seed"));
        assert!(err(
            br#"{"steps": [], "version": 4, "seed": 1, "env": {"NETHACK_SEED": "2"}}"#,
            false
        )
        .contains("`env.NETHACK_SEED` is 2"));
        assert!(err(
            br#"{"steps": [{"rng": [1]}], "version": 4, "seed": 1}"#,
            false
        )
        .contains("step 0: rng[0] is a number"));
        assert!(err(br#"{"steps": [3], "version": 4, "seed": 1}"#, false)
            .contains("step 0: is a number, not an object"));
        let s = read(
            br#"{"steps": [], "version": 4, "env": {"NETHACK_SEED": "18446744073709551615"}}"#,
            false,
        )
        .unwrap();
        assert_eq!(s.seed, u64::MAX);
    }

    #[test]
    fn a_gzip_bomb_is_refused() {
        let big = gz(&[b' '; 1001]);
        assert_eq!(inflate(&big, 1000), Err(SessionError::TooLarge));
        assert_eq!(inflate(&big, 1001).map(|v| v.len()), Ok(1001));
    }
}
