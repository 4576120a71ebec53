//! The answers for every place a line can name, computed once per dungeon
//! description from the exact statistics ([`crate::stats::places`]), so
//! that a line costs a table lookup.

use super::json;
use super::release::Cites;
use crate::bones::depth_chance;
use crate::bones::rules::{CAT_ELIGIBLE, CAT_SHALLOW};
use crate::stats::{self, Method, PlaceStat, Places};
use std::fmt::Write;

/// What a death at one (dungeon number, depth) means, conditional on that
/// place existing in the game's layout.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaceAnswer {
    pub dnum: i32,
    pub depth: i32,
    /// Dungeon names and their chances (one entry when the numbering does
    /// not depend on the layout).
    pub dungeons: Vec<(String, f64)>,
    /// Level numbers within the dungeon.
    pub levels: Vec<(i32, f64)>,
    /// Special levels lying there; the rest is a filler level.
    pub specials: Vec<(String, f64)>,
    /// Chance that a death here in a normal game left bones.
    pub bones_p: f64,
    /// Why, in words.
    pub bones_why: String,
    /// Chance that the level passes the rules that do not depend on the
    /// game (rules 1-7 of bones.md): it "can hold bones".
    pub bones_level_p: f64,
    /// `"dungeon":..,"level":..,"special":[..]` of the JSON object.
    pub json: String,
    /// `,"bones_p":..,"bones_why":".."` of a game in a normal mode, and of
    /// one whose line records no mode.
    pub bones_json: String,
    pub bones_json_unrecorded: String,
}

/// `bones_why` of a game whose line records no mode.
pub fn unrecorded(why: &str) -> String {
    format!("{why} (the line records no game mode: a normal game is assumed)")
}

/// The JSON members `,"bones_p":p,"bones_why":why`.
pub fn bones_json(p: f64, why: &str) -> String {
    let mut j = format!(",\"bones_p\":{},\"bones_why\":", json::num(p));
    json::string(&mut j, why.as_bytes());
    j
}

impl PlaceAnswer {
    /// The likeliest dungeon name.
    pub fn dungeon(&self) -> &str {
        likeliest(&self.dungeons).map_or("", String::as_str)
    }

    /// The likeliest special level, if a special level is likelier than a
    /// filler level.
    pub fn special(&self) -> Option<&str> {
        let filler = 1.0 - self.specials.iter().map(|s| s.1).sum::<f64>();
        likeliest(&self.specials)
            .filter(|name| {
                self.specials
                    .iter()
                    .any(|(n, p)| n == *name && *p >= filler)
            })
            .map(String::as_str)
    }
}

fn likeliest<T>(v: &[(T, f64)]) -> Option<&T> {
    v.iter()
        .fold(None, |best: Option<&(T, f64)>, x| match best {
            Some(b) if b.1 >= x.1 => Some(b),
            _ => Some(x),
        })
        .map(|x| &x.0)
}

/// Every place of one dungeon description.
#[derive(Debug)]
pub struct Answers {
    pub method: Method,
    pub failure: f64,
    pub places: Vec<PlaceAnswer>,
    /// Per dungeon number: the first depth and per depth from there the
    /// index into `places`.
    index: Vec<(i32, Vec<u32>)>,
}

const NONE: u32 = u32::MAX;

impl Answers {
    pub fn new(places: &Places, cites: &Cites) -> Answers {
        let mut answers: Vec<PlaceAnswer> = places
            .places
            .iter()
            .map(|p| answer(places, p, cites))
            .collect();
        if let Method::Sampled { .. } = places.method {
            let how = method_words(&places.method);
            for a in &mut answers {
                a.bones_why = format!("{} (chances {how})", a.bones_why);
            }
        }
        for a in &mut answers {
            a.bones_json = bones_json(a.bones_p, &a.bones_why);
            a.bones_json_unrecorded = bones_json(a.bones_p, &unrecorded(&a.bones_why));
        }
        let mut index: Vec<(i32, Vec<u32>)> = Vec::new();
        for (i, a) in answers.iter().enumerate() {
            let Ok(d) = usize::try_from(a.dnum) else {
                continue;
            };
            if index.len() <= d {
                index.resize(d + 1, (0, Vec::new()));
            }
            let (first, slots) = &mut index[d];
            if slots.is_empty() {
                *first = a.depth;
            }
            // Places come sorted by (dnum, depth).
            let at = (a.depth - *first) as usize;
            if slots.len() <= at {
                slots.resize(at + 1, NONE);
            }
            slots[at] = i as u32;
        }
        Answers {
            method: places.method.clone(),
            failure: places.failure,
            places: answers,
            index,
        }
    }

    /// The index of the place at `(dnum, depth)` in [`Self::places`].
    pub fn find(&self, dnum: i64, depth: i64) -> Option<usize> {
        let (first, slots) = self.index.get(usize::try_from(dnum).ok()?)?;
        let at = usize::try_from(depth.checked_sub(i64::from(*first))?).ok()?;
        match slots.get(at) {
            Some(&i) if i != NONE => Some(i as usize),
            _ => None,
        }
    }

    /// The dungeon numbers and depths that exist, for messages.
    pub fn describe_dnums(&self) -> String {
        self.index
            .iter()
            .enumerate()
            .filter(|(_, (_, s))| !s.is_empty())
            .map(|(d, (first, s))| format!("{d}: depths {first} to {}", first + s.len() as i32 - 1))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// How a table's chances were computed, in words.
pub fn method_words(method: &Method) -> String {
    match method {
        Method::Exact { .. } => "exact".into(),
        Method::Sampled {
            samples,
            rng,
            ci95,
            reason,
            ..
        } => format!(
            "sampled over {samples} layouts ({rng}; a chance is within {} at 95%): {reason}",
            percent(*ci95)
        ),
    }
}

/// A probability in words: "always", "never" or a percentage.
pub fn percent(p: f64) -> String {
    if p >= 1.0 {
        "100%".into()
    } else if p <= 0.0 {
        "0%".into()
    } else {
        let v = p * 100.0;
        let s = if v >= 10.0 {
            format!("{v:.2}")
        } else if v >= 0.01 {
            format!("{v:.3}")
        } else {
            format!("{v:.2e}")
        };
        let s = if s.contains('.') && !s.contains('e') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        };
        format!("{s}%")
    }
}

fn answer(places: &Places, p: &PlaceStat, cites: &Cites) -> PlaceAnswer {
    let name = |names: &[String], i: u32| names.get(i as usize).cloned().unwrap_or_default();
    let dungeons: Vec<(String, f64)> = p
        .dungeons
        .iter()
        .map(|&(r, w)| (name(&places.dungeon_names, r), w))
        .collect();
    let specials: Vec<(String, f64)> = p
        .specials
        .iter()
        .map(|&(l, w)| (name(&places.level_names, l), w))
        .collect();
    let b = &p.bones;
    // categories: rules 1-7 and 9-12 forbid, the depth roll cannot succeed, eligible.
    let passes = b.categories[CAT_SHALLOW] + b.categories[CAT_ELIGIBLE];
    let (num, den) = depth_chance(p.depth);
    let mut why = Vec::new();
    for (c, &q) in b.categories.iter().enumerate() {
        let rule = crate::bones::Rule::of_category(c);
        if let Some(rule) = rule.filter(|_| b.possible[c] && c != CAT_SHALLOW && c != CAT_ELIGIBLE)
        {
            why.push(if q >= 1.0 {
                format!("never: rule {} ({})", rule.number(), rule.summary())
            } else {
                format!(
                    "rule {} ({}) in {} of layouts",
                    rule.number(),
                    rule.summary(),
                    percent(q)
                )
            });
        }
    }
    if b.possible[CAT_SHALLOW] || b.possible[CAT_ELIGIBLE] {
        let lead = if passes >= 1.0 {
            "the level can hold bones in every layout".to_string()
        } else {
            format!("the level can hold bones in {} of layouts", percent(passes))
        };
        why.push(if num == 0 {
            format!(
                "{lead}, but at depth {} the depth roll rn2(1 + depth/4) always gives 0 ({})",
                p.depth, cites.depth_roll
            )
        } else {
            format!(
                "{lead}; the depth roll rn2(1 + {}/4) saves with chance {num}/{den} ({})",
                p.depth, cites.depth_roll
            )
        });
    }
    let bones_p = b.leave_chance;
    let bones_why = why.join("; ");
    let mut j = String::new();
    j.push_str("\"dungeon\":");
    if let [(n, _)] = dungeons.as_slice() {
        json::string(&mut j, n.as_bytes());
    } else {
        j.push('[');
        for (i, (n, w)) in dungeons.iter().enumerate() {
            if i > 0 {
                j.push(',');
            }
            j.push_str("{\"name\":");
            json::string(&mut j, n.as_bytes());
            let _ = write!(j, ",\"p\":{}}}", json::num(*w));
        }
        j.push(']');
    }
    j.push_str(",\"level\":");
    if let [(l, _)] = p.levels.as_slice() {
        let _ = write!(j, "{l}");
    } else {
        j.push('[');
        for (i, (l, w)) in p.levels.iter().enumerate() {
            if i > 0 {
                j.push(',');
            }
            let _ = write!(j, "{{\"level\":{l},\"p\":{}}}", json::num(*w));
        }
        j.push(']');
    }
    j.push_str(",\"special\":[");
    for (i, (n, w)) in specials.iter().enumerate() {
        if i > 0 {
            j.push(',');
        }
        j.push_str("{\"name\":");
        json::string(&mut j, n.as_bytes());
        let _ = write!(j, ",\"p\":{}}}", json::num(*w));
    }
    j.push(']');
    PlaceAnswer {
        dnum: p.dnum,
        depth: p.depth,
        dungeons,
        levels: p.levels.clone(),
        specials,
        bones_p,
        bones_why,
        bones_level_p: passes,
        json: j,
        bones_json: String::new(),
        bones_json_unrecorded: String::new(),
    }
}

/// The places table of a script for a target, as the exact statistics give
/// it.
pub fn compute(script: &crate::script::Script, target: crate::options::Target) -> Places {
    compute_with(script, target, None)
}

/// [`compute`] with a release's own bones rules instead of the target's.
pub fn compute_with(
    script: &crate::script::Script,
    target: crate::options::Target,
    bones: Option<&crate::bones::rules::BonesRules>,
) -> Places {
    stats::places(
        script,
        &stats::StatsOptions {
            game: target.game().loader_game(),
            bones: match bones {
                Some(rules) => crate::bones::BonesOptions::for_rules(rules),
                None => target.game().bones_options(),
            },
            ..Default::default()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages() {
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(0.25), "25%");
        assert_eq!(percent(1.0 / 3.0), "33.33%");
        assert_eq!(percent(0.05), "5%");
        assert_eq!(percent(1e-7), "1.00e-5%");
    }
}
