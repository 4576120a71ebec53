//! The server's settings, from `initializationOptions` and
//! `workspace/didChangeConfiguration`, under the `dgnkit` section:
//! `target` ("nethack-3.4.3", "nethack-3.6", "native", ...: what a
//! `dungeon.def` is checked for), `luaTarget` (the same for a `dungeon.lua`;
//! "nethack-3.7" unless set), `dialect` (a dialect
//! name), `defines` and `undefines` (`%FLAG` names, like `-D`/`-U`), and
//! `allow`, `warn`, `deny` (lint names, like `--allow` and friends), and
//! `statistics` ("background", "inline" or "off": when hovers and inlay
//! hints get exact probabilities).

use dgnkit::options::Target;
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub target: Target,
    /// What a `dungeon.lua` is checked for: only NetHack 3.7 reads one.
    pub lua_target: Target,
    /// The dialect name as given; `None` for the default.
    pub dialect: Option<String>,
    pub defines: Vec<String>,
    pub undefines: Vec<String>,
    pub allow: Vec<String>,
    pub warn: Vec<String>,
    pub deny: Vec<String>,
    /// When exact statistics are computed for hovers and hints.
    pub statistics: crate::statistics::Mode,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            target: Target::default(),
            lua_target: Target::NetHack37,
            dialect: None,
            defines: Vec::new(),
            undefines: Vec::new(),
            allow: Vec::new(),
            warn: Vec::new(),
            deny: Vec::new(),
            statistics: crate::statistics::Mode::default(),
        }
    }
}

impl Config {
    /// The settings a document is checked with: a `dungeon.lua` gets
    /// `luaTarget` as its target.
    pub fn for_source(&self, lua: bool) -> Config {
        let mut config = self.clone();
        if lua {
            config.target = self.lua_target;
        }
        config
    }

    /// Reads settings from a JSON value: either `{"dgnkit": {...}}` or the
    /// section itself. Keys that are absent keep the values of `base`; values
    /// of the wrong shape are reported and ignored.
    pub fn from_json(base: &Config, value: &Value) -> (Config, Vec<String>) {
        let mut config = base.clone();
        let mut problems = Vec::new();
        let section = match value.get("dgnkit") {
            Some(inner) => inner,
            None => value,
        };
        let Some(map) = section.as_object() else {
            if !section.is_null() {
                problems.push("dgnkit settings must be an object".to_string());
            }
            return (config, problems);
        };
        for (key, slot, default) in [
            ("target", &mut config.target, Target::default()),
            ("luaTarget", &mut config.lua_target, Target::NetHack37),
        ] {
            if let Some(v) = map.get(key) {
                match v.as_str().and_then(Target::parse) {
                    Some(t) => *slot = t,
                    None if v.is_null() => *slot = default,
                    None => problems.push(format!(
                        "dgnkit.{key}: unknown target {v} (expected one of {}); keeping {}",
                        Target::names(),
                        slot.name()
                    )),
                }
            }
        }
        if let Some(v) = map.get("dialect") {
            match v {
                Value::Null => config.dialect = None,
                Value::String(s) if s.is_empty() => config.dialect = None,
                Value::String(s) => match crate::analysis::check_dialect(s) {
                    Ok(()) => config.dialect = Some(s.clone()),
                    Err(e) => problems.push(format!("dgnkit.dialect: {e}")),
                },
                other => problems.push(format!("dgnkit.dialect must be a string, not {other}")),
            }
        }
        for (key, slot) in [
            ("defines", &mut config.defines),
            ("undefines", &mut config.undefines),
        ] {
            if let Some(v) = map.get(key) {
                match string_list(v) {
                    Some(list) => *slot = list,
                    None => problems.push(format!("dgnkit.{key} must be an array of flag names")),
                }
            }
        }
        if let Some(v) = map.get("statistics") {
            match v.as_str().and_then(crate::statistics::Mode::parse) {
                Some(m) => config.statistics = m,
                None => problems.push(format!(
                    "dgnkit.statistics: expected \"background\", \"inline\" or \"off\", not {v}"
                )),
            }
        }
        for (key, slot) in [
            ("allow", &mut config.allow),
            ("warn", &mut config.warn),
            ("deny", &mut config.deny),
        ] {
            if let Some(v) = map.get(key) {
                match string_list(v) {
                    Some(list) => {
                        for name in list.iter().filter(|n| !dgnkit::lint::is_known(n)) {
                            problems.push(format!(
                                "dgnkit.{key}: unknown lint \"{name}\" (see `dgn explain`)"
                            ));
                        }
                        *slot = list;
                    }
                    None => problems.push(format!("dgnkit.{key} must be an array of lint names")),
                }
            }
        }
        (config, problems)
    }
}

fn string_list(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::Null => Some(Vec::new()),
        Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().map(|s| s.trim_start_matches('%').to_string()))
            .collect(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_section_or_bare_object() {
        let (c, p) = Config::from_json(
            &Config::default(),
            &json!({"dgnkit": {"target": "native", "defines": ["%FOO", "BAR"]}}),
        );
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(c.target, Target::Native);
        assert_eq!(c.defines, vec!["FOO", "BAR"]);
        let (c2, _) = Config::from_json(&c, &json!({"target": "nethack-3.4.3"}));
        assert_eq!(c2.target, Target::NetHack343);
        assert_eq!(c2.defines, vec!["FOO", "BAR"]);
        assert_eq!(c2.lua_target, Target::NetHack37);
        assert_eq!(c2.for_source(true).target, Target::NetHack37);
        assert_eq!(c2.for_source(false).target, Target::NetHack343);
        let (c3, p) = Config::from_json(&c2, &json!({"luaTarget": "native"}));
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(c3.for_source(true).target, Target::Native);
    }

    #[test]
    fn bad_values_are_reported_and_ignored() {
        let (c, p) = Config::from_json(
            &Config::default(),
            &json!({"dgnkit": {"target": "zork", "defines": "X", "dialect": 3}}),
        );
        assert_eq!(c, Config::default());
        assert_eq!(p.len(), 3, "{p:?}");
        let (_, p) = Config::from_json(&Config::default(), &json!(5));
        assert_eq!(p.len(), 1);
        let (_, p) = Config::from_json(&Config::default(), &json!(null));
        assert!(p.is_empty());
    }
}
