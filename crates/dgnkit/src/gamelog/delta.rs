//! A gamelog's deltas (`../shared/spec/gamelog-format.md`): the change
//! between two states as the document's `mergeDelta` applies it, and
//! `mergeDelta` itself, checked.
//!
//! In a delta an array is an object holding its length under `"&LEN"` and
//! its changed elements under their indices; a key that goes away is
//! `"&RM"`. A raw JSON array never appears in a delta: `mergeDelta` would
//! make it an object keyed `"0"`, `"1"`, ...

use serde_json::{Map, Value};
use std::fmt;

/// `DELTA_LIST_LENGTH`, as the framework's server writes it.
pub const LEN: &str = "&LEN";
/// `DELTA_REMOVED`.
pub const RM: &str = "&RM";

/// `value` as a delta from nothing: every array in delta form.
pub fn encode(value: &Value) -> Value {
    match value {
        Value::Array(items) => {
            let mut m = Map::new();
            m.insert(LEN.to_string(), Value::from(items.len()));
            for (i, v) in items.iter().enumerate() {
                m.insert(i.to_string(), encode(v));
            }
            Value::Object(m)
        }
        Value::Object(fields) => {
            Value::Object(fields.iter().map(|(k, v)| (k.clone(), encode(v))).collect())
        }
        scalar => scalar.clone(),
    }
}

/// The delta that takes `old` to `new` (both objects at the top), or
/// `None` when they are equal.
pub fn diff(old: &Value, new: &Value) -> Option<Value> {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            let mut m = Map::new();
            for (k, v) in b {
                match a.get(k) {
                    Some(was) => {
                        if let Some(d) = diff_value(was, v) {
                            m.insert(k.clone(), d);
                        }
                    }
                    None => {
                        m.insert(k.clone(), encode(v));
                    }
                }
            }
            for k in a.keys() {
                if !b.contains_key(k) {
                    m.insert(k.clone(), Value::from(RM));
                }
            }
            (!m.is_empty()).then_some(Value::Object(m))
        }
        (Value::Array(a), Value::Array(b)) => {
            let mut m = Map::new();
            for (i, v) in b.iter().enumerate() {
                match a.get(i) {
                    Some(was) => {
                        if let Some(d) = diff_value(was, v) {
                            m.insert(i.to_string(), d);
                        }
                    }
                    None => {
                        m.insert(i.to_string(), encode(v));
                    }
                }
            }
            if m.is_empty() && a.len() == b.len() {
                return None;
            }
            // Always with the length: a reader may take an object without
            // it for a plain object.
            m.insert(LEN.to_string(), Value::from(b.len()));
            Some(Value::Object(m))
        }
        _ => (old != new).then(|| encode(new)),
    }
}

/// [`diff`] of a member: a container into a container of the same kind
/// merges; anything else is replaced whole.
pub fn diff_value(old: &Value, new: &Value) -> Option<Value> {
    let same_kind = matches!(
        (old, new),
        (Value::Object(_), Value::Object(_)) | (Value::Array(_), Value::Array(_))
    );
    if same_kind {
        diff(old, new)
    } else {
        (old != new).then(|| encode(new))
    }
}

/// What is wrong with a delta, and where (a JSON path from the state's
/// top, `/game/levels/3`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.path, self.message)
    }
}

/// The two markers a gamelog's `constants` name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Markers {
    /// `DELTA_LIST_LENGTH`.
    pub len: String,
    /// `DELTA_REMOVED`.
    pub rm: String,
}

impl Default for Markers {
    fn default() -> Self {
        Markers {
            len: LEN.to_string(),
            rm: RM.to_string(),
        }
    }
}

/// The document's `mergeDelta(state, delta)`, refusing what it would turn
/// into a state no game has: an `"&LEN"` that is not a length, an array
/// left with holes or longer than its `"&LEN"`, `"&RM"` inside an array,
/// an index that is not one. `path` names `state` in errors.
pub fn merge(
    state: &mut Value,
    delta: &Map<String, Value>,
    path: &str,
    marks: &Markers,
) -> Result<(), MergeError> {
    let (len_key, rm) = (marks.len.as_str(), marks.rm.as_str());
    let err = |at: &str, message: String| MergeError {
        path: if at.is_empty() {
            path.to_string()
        } else {
            format!("{path}/{at}")
        },
        message,
    };
    let len = match delta.get(len_key) {
        None => None,
        Some(v) => match v.as_u64().and_then(|n| usize::try_from(n).ok()) {
            Some(n) if n <= MAX_ARRAY => Some(n),
            _ => {
                return Err(err(
                    len_key,
                    format!(
                        "\"{len_key}\" must be an array's length (0 to {MAX_ARRAY}), found {v}"
                    ),
                ))
            }
        },
    };
    match state {
        Value::Array(items) => {
            let Some(len) = len else {
                return Err(err(
                    "",
                    format!("a change to an array must give its length under \"{len_key}\""),
                ));
            };
            items.truncate(len);
            for (k, d) in delta {
                if k == len_key {
                    continue;
                }
                let Some(i) = k.parse::<usize>().ok().filter(|&i| i < len) else {
                    return Err(err(
                        k,
                        format!("`{k}` is not an index of this array of length {len}"),
                    ));
                };
                if d.as_str() == Some(rm) {
                    return Err(err(
                        k,
                        format!("\"{rm}\" inside an array (it shrinks by \"{len_key}\")"),
                    ));
                }
                // Each key fills at most one element: an index past what
                // the delta's keys can reach leaves a hole for sure (and a
                // forged one would cost memory out of proportion).
                if i >= items.len() + delta.len() {
                    return Err(err(
                        k,
                        format!(
                            "index {i} leaves elements {}..{i} of the array unset",
                            items.len()
                        ),
                    ));
                }
                if i >= items.len() {
                    // Indices come in any order ("10" before "2"): what is
                    // skipped holds `null` until its own index comes; one
                    // that never comes is a hole ([`holes`]).
                    items.resize(i + 1, Value::Null);
                }
                let here = format!("{path}/{k}");
                set(&mut items[i], d, &here, marks)?;
            }
            if items.len() != len {
                return Err(err(
                    len_key,
                    format!(
                        "the array's length is {len}, but the delta gives elements up to {} only",
                        items.len()
                    ),
                ));
            }
            Ok(())
        }
        Value::Object(fields) => {
            if len.is_some() {
                return Err(err(
                    len_key,
                    format!(
                        "\"{len_key}\" on `{}`, which is an object, not an array",
                        leaf(path)
                    ),
                ));
            }
            for (k, d) in delta {
                if d.as_str() == Some(rm) {
                    fields.remove(k);
                    continue;
                }
                let here = format!("{path}/{k}");
                let slot = fields.entry(k.clone()).or_insert(Value::Null);
                set(slot, d, &here, marks)?;
            }
            Ok(())
        }
        _ => Err(err(
            "",
            "a delta for a value that is not an object or array".into(),
        )),
    }
}

/// The longest array a gamelog may describe: far above any dungeon's
/// (`MAXDUNGEON * MAXLEVEL` levels), low enough that a forged `"&LEN"`
/// cannot ask for gigabytes.
pub const MAX_ARRAY: usize = 1 << 16;

/// `state[key] = d` as `mergeDelta` does it: a container into a
/// container merges, a container anywhere else starts afresh.
fn set(slot: &mut Value, d: &Value, path: &str, marks: &Markers) -> Result<(), MergeError> {
    match d {
        Value::Object(delta) => {
            let container = matches!(slot, Value::Object(_) | Value::Array(_));
            if !container {
                *slot = if delta.contains_key(&marks.len) {
                    Value::Array(Vec::new())
                } else {
                    Value::Object(Map::new())
                };
            }
            merge(slot, delta, path, marks)
        }
        Value::Array(_) => Err(MergeError {
            path: path.to_string(),
            message: format!(
                "a JSON array in a delta (arrays are objects with \"{}\" in a gamelog)",
                marks.len
            ),
        }),
        scalar => {
            *slot = scalar.clone();
            Ok(())
        }
    }
}

/// The first `null` element of an array in `state` that a delta left as
/// a hole (an index it skipped), as a path. The states dgnkit writes hold
/// no `null` array element.
pub fn holes(state: &Value, path: &str) -> Option<String> {
    match state {
        Value::Array(items) => items.iter().enumerate().find_map(|(i, v)| {
            if v.is_null() {
                Some(format!("{path}/{i}"))
            } else {
                holes(v, &format!("{path}/{i}"))
            }
        }),
        Value::Object(fields) => fields
            .iter()
            .find_map(|(k, v)| holes(v, &format!("{path}/{k}"))),
        _ => None,
    }
}

fn leaf(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fold(states: &[Value]) -> Value {
        let mut state = json!({});
        let mut prev = json!({});
        for s in states {
            if let Some(Value::Object(d)) = diff(&prev, s) {
                merge(&mut state, &d, "", &Markers::default()).expect("a written delta merges");
            }
            assert_eq!(&state, s);
            prev = s.clone();
        }
        state
    }

    #[test]
    fn diffs_fold_back_to_each_state() {
        fold(&[
            json!({"a": 1, "l": [1, 2, 3], "o": {"x": {"id": "1"}}}),
            json!({"a": 2, "l": [1, 5], "o": {"x": {"id": "1"}, "y": [{"k": 1}]}}),
            json!({"l": [1, 5, {"n": [true]}], "o": {"y": [{"k": 2}, {"k": 3}]}}),
            json!({"l": [], "o": {}}),
            json!({"l": [[1], [2, [3]]], "o": null}),
        ]);
    }

    #[test]
    fn a_shrinking_array_gives_its_length_and_a_removed_key_rm() {
        let d = diff(&json!({"l": [1, 2, 3], "k": 1}), &json!({"l": [1, 2]})).unwrap();
        assert_eq!(d, json!({"l": {"&LEN": 2}, "k": "&RM"}));
    }

    #[test]
    fn broken_deltas_are_refused_with_their_place() {
        let mut s = json!({"l": [1, 2]});
        let cases = [
            (json!({"l": {"&LEN": -1}}), "/l/&LEN"),
            (json!({"l": {"&LEN": 3}}), "/l/&LEN"),
            (json!({"l": {"&LEN": 2, "x": 1}}), "/l/x"),
            (json!({"l": {"&LEN": 2, "1": "&RM"}}), "/l/1"),
            (json!({"l": {"0": 1}}), "/l"),
            (json!({"m": [1]}), "/m"),
            (json!({"l": {"&LEN": 99999999}}), "/l/&LEN"),
        ];
        for (d, at) in cases {
            let Value::Object(d) = d else { unreachable!() };
            let e = merge(&mut s.clone(), &d, "", &Markers::default()).unwrap_err();
            assert_eq!(e.path, at, "{e}");
        }
        let Value::Object(d) = json!({"l": {"&LEN": 4, "3": 7}}) else {
            unreachable!()
        };
        merge(&mut s, &d, "", &Markers::default()).unwrap();
        assert_eq!(holes(&s, "").as_deref(), Some("/l/2"));
    }
}
