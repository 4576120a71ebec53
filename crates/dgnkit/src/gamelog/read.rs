//! Reading a gamelog back (`dgn replay`): gzipped or plain JSON, its
//! shape checked, and its deltas folded with `mergeDelta` up to any draw,
//! refusing what does not make a state: a bad `"&LEN"`, a reference to no
//! game object, a state that is not a layout.

use super::delta::{holes, merge, Markers, MergeError};
use crate::layout::Layout;
use serde_json::{Map, Value};
use std::fmt;
use std::io::Read;

/// The largest gamelog inflated: dgnkit's are a few hundred kilobytes; a
/// gzip bomb stops here.
pub const MAX_INFLATED: u64 = 256 << 20;

/// Why a file is not a gamelog dgnkit can replay, and where.
#[derive(Debug)]
pub enum ReadError {
    /// A gzip stream that does not inflate (truncated, corrupt).
    Gzip(String),
    /// Not JSON: serde's message, with line and column.
    Json(String),
    /// JSON, but not a gamelog: what is missing or of the wrong kind.
    Shape(String),
    /// A delta that does not merge: its index in `deltas`, and where.
    Delta { index: usize, error: MergeError },
    /// A shallow reference to no game object.
    Reference {
        index: usize,
        path: String,
        id: String,
    },
    /// The state folded so far is not a layout.
    Layout { draws: usize, message: String },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Gzip(e) => write!(f, "the gzip stream does not inflate: {e}"),
            ReadError::Json(e) => write!(f, "not JSON: {e}"),
            ReadError::Shape(e) => write!(f, "not a gamelog: {e}"),
            ReadError::Delta { index, error } => {
                write!(f, "delta {index} (`deltas[{index}].game`) does not merge {error}")
            }
            ReadError::Reference { index, path, id } => write!(
                f,
                "delta {index}: `{path}` refers to game object \"{id}\", which the state does not hold"
            ),
            ReadError::Layout { draws, message } => write!(
                f,
                "the state after {draws} draws is not a dungeon layout: {message}"
            ),
        }
    }
}

/// One delta of the log.
#[derive(Debug)]
pub struct Delta {
    /// `start`, `ran`, `over`, ... as written.
    pub kind: String,
    pub data: Option<Value>,
    pub game: Option<Map<String, Value>>,
}

/// A gamelog, read and checked for shape.
#[derive(Debug)]
pub struct Gamelog {
    pub game_name: String,
    pub session: String,
    pub settings: Map<String, Value>,
    pub markers: Markers,
    pub deltas: Vec<Delta>,
}

impl Gamelog {
    /// Reads `bytes`: gzip when they start with gzip's magic, else JSON
    /// (as the framework's viewer does, which inflates a file that does not
    /// start with `{`).
    pub fn parse(bytes: &[u8]) -> Result<Gamelog, ReadError> {
        let text;
        let json: &[u8] = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut out = Vec::new();
            flate2::read::MultiGzDecoder::new(bytes)
                .take(MAX_INFLATED + 1)
                .read_to_end(&mut out)
                .map_err(|e| ReadError::Gzip(e.to_string()))?;
            if out.len() as u64 > MAX_INFLATED {
                return Err(ReadError::Gzip(format!(
                    "it inflates past {} MB",
                    MAX_INFLATED >> 20
                )));
            }
            text = out;
            &text
        } else {
            bytes
        };
        let value: Value =
            serde_json::from_slice(json).map_err(|e| ReadError::Json(e.to_string()))?;
        Gamelog::from_value(value)
    }

    pub fn from_value(value: Value) -> Result<Gamelog, ReadError> {
        let shape = |m: &str| ReadError::Shape(m.to_string());
        let Value::Object(mut top) = value else {
            return Err(shape("the top level is not a JSON object"));
        };
        let text = |top: &Map<String, Value>, k: &str| match top.get(k) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(Value::Number(n)) => Ok(n.to_string()),
            _ => Err(ReadError::Shape(format!(
                "no `{k}` string at the top level"
            ))),
        };
        let game_name = text(&top, "gameName")?;
        let session = text(&top, "gameSession")?;
        let markers = match top.get("constants") {
            Some(Value::Object(c)) => {
                let get = |k: &str| match c.get(k) {
                    Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
                    _ => Err(ReadError::Shape(format!(
                        "`constants` has no `{k}` (the markers a delta uses)"
                    ))),
                };
                Markers {
                    len: get("DELTA_LIST_LENGTH")?,
                    rm: get("DELTA_REMOVED")?,
                }
            }
            _ => return Err(shape("no `constants` object at the top level")),
        };
        let settings = match top.remove("settings") {
            Some(Value::Object(s)) => s,
            None => Map::new(),
            Some(_) => return Err(shape("`settings` is not an object")),
        };
        let Some(Value::Array(raw)) = top.remove("deltas") else {
            return Err(shape("no `deltas` array at the top level"));
        };
        let mut deltas = Vec::with_capacity(raw.len());
        for (i, d) in raw.into_iter().enumerate() {
            let Value::Object(mut d) = d else {
                return Err(ReadError::Shape(format!("deltas[{i}] is not an object")));
            };
            let kind = match d.remove("type") {
                Some(Value::String(s)) => s,
                _ => {
                    return Err(ReadError::Shape(format!(
                        "deltas[{i}] has no `type` string"
                    )))
                }
            };
            let game = match d.remove("game") {
                Some(Value::Object(g)) => Some(g),
                None | Some(Value::Null) => None,
                Some(_) => {
                    return Err(ReadError::Shape(format!(
                        "deltas[{i}].game is not an object"
                    )))
                }
            };
            if kind == "ran" {
                check_ran(i, d.get("data"))?;
            }
            deltas.push(Delta {
                kind,
                data: d.remove("data"),
                game,
            });
        }
        match deltas.first() {
            Some(d) if d.kind == "start" => {}
            _ => return Err(shape("the first delta is not `start`")),
        }
        Ok(Gamelog {
            game_name,
            session,
            settings,
            markers,
            deltas,
        })
    }

    /// The number of draws: the `ran` deltas.
    pub fn draws(&self) -> usize {
        self.deltas.iter().filter(|d| d.kind == "ran").count()
    }

    /// The `ran` delta of draw `n` (1-based).
    pub fn draw(&self, n: usize) -> Option<&Delta> {
        self.deltas
            .iter()
            .filter(|d| d.kind == "ran")
            .nth(n.checked_sub(1)?)
    }

    /// The state after `step` draws (`None`: after every delta, `over`
    /// included), each delta merged and its references checked.
    pub fn state_at(&self, step: Option<usize>) -> Result<Value, ReadError> {
        let mut state = Value::Object(Map::new());
        let mut ran = 0;
        for (index, d) in self.deltas.iter().enumerate() {
            if d.kind == "ran" {
                if step.is_some_and(|s| ran >= s) {
                    break;
                }
                ran += 1;
            }
            if let Some(game) = &d.game {
                merge(&mut state, game, "", &self.markers)
                    .map_err(|error| ReadError::Delta { index, error })?;
                check_references(index, &state, &Value::Object(game.clone()), "")?;
            }
        }
        if let Some(at) = holes(&state, "") {
            return Err(ReadError::Delta {
                index: self.deltas.len().saturating_sub(1),
                error: MergeError {
                    path: at,
                    message: "an array element no delta set (a hole)".to_string(),
                },
            });
        }
        check_references(self.deltas.len().saturating_sub(1), &state, &state, "")?;
        Ok(state)
    }

    /// The layout of a state ([`Gamelog::state_at`]): the state without its
    /// game objects, as `--format json` writes a layout.
    pub fn layout(state: &Value, draws: usize) -> Result<Layout, ReadError> {
        let mut plain = state.clone();
        if let Value::Object(m) = &mut plain {
            m.remove("gameObjects");
        }
        serde_json::from_value(plain).map_err(|e| ReadError::Layout {
            draws,
            message: e.to_string(),
        })
    }

    /// A setting as text (`target`, `file`, ...).
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings.get(key).and_then(Value::as_str)
    }
}

fn check_ran(i: usize, data: Option<&Value>) -> Result<(), ReadError> {
    let bad = |what: &str| ReadError::Shape(format!("deltas[{i}] (`ran`) {what}"));
    let data = data.ok_or_else(|| bad("has no `data`"))?;
    let run = data.get("run").ok_or_else(|| bad("has no `data.run`"))?;
    if !run.get("functionName").is_some_and(Value::is_string) {
        return Err(bad("has no `data.run.functionName`"));
    }
    if !run.get("args").is_some_and(Value::is_object) {
        return Err(bad("has no `data.run.args` object"));
    }
    if data.get("returned").is_none() {
        return Err(bad("has no `data.returned`"));
    }
    Ok(())
}

/// Every shallow reference (`{"id": X}`, an object of that one key) in
/// `part`, checked against `state.gameObjects`.
fn check_references(
    index: usize,
    state: &Value,
    part: &Value,
    path: &str,
) -> Result<(), ReadError> {
    let objects = state.get("gameObjects").and_then(Value::as_object);
    let mut stack = vec![(part, path.to_string())];
    while let Some((v, at)) = stack.pop() {
        match v {
            Value::Object(m) => {
                if m.len() == 1 {
                    if let Some(Value::String(id)) = m.get("id") {
                        if !objects.is_some_and(|o| o.contains_key(id)) {
                            return Err(ReadError::Reference {
                                index,
                                path: at,
                                id: id.clone(),
                            });
                        }
                        continue;
                    }
                }
                stack.extend(m.iter().map(|(k, v)| (v, format!("{at}/{k}"))));
            }
            Value::Array(items) => {
                stack.extend(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, v)| (v, format!("{at}/{i}"))),
                );
            }
            _ => {}
        }
    }
    Ok(())
}
