//! Plain-text tables for terminals and logs: aligned columns, and
//! percentages written the way `dgn stats` writes them, so that every
//! command that repeats a figure prints it alike.

/// A probability as a percentage: whole numbers without decimals, one
/// decimal otherwise, small ones in scientific notation, and never
/// "100%" for a chance below 1.
pub fn percent(p: f64) -> String {
    let v = p * 100.0;
    if v == 0.0 {
        "0%".into()
    } else if v < 0.1 {
        format!("{v:.1e}%")
    } else if v > 99.9 && v < 100.0 {
        format!("{v:.3}%")
    } else if (v - v.round()).abs() < 0.05 {
        format!("{}%", v.round())
    } else {
        format!("{v:.1}%")
    }
}

/// A loader failure as `dgn stats` lists it: its code, where (the quoted
/// dungeon and level), its probability and an example seed's message.
pub fn failure_line(prefix: &str, f: &dgnkit_stats::FailureStat) -> String {
    let place = [f.dungeon.as_deref(), f.level.as_deref()]
        .iter()
        .flatten()
        .map(|x| format!("\"{x}\""))
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "  {prefix}{} {place}: {}\n    e.g. {}",
        f.code,
        percent(f.probability),
        f.example
    )
}

/// A distribution in a few characters: "25..29, mean 27.0", "12" for a
/// single value, "-" for none.
pub fn range_mean(d: &dgnkit_stats::Dist) -> String {
    let (Some((&lo, _)), Some((&hi, _))) = (d.iter().next(), d.iter().next_back()) else {
        return "-".into();
    };
    if lo == hi {
        return lo.to_string();
    }
    format!("{lo}..{hi}, mean {:.1}", mean(d))
}

/// The mean of a distribution (0 for an empty one).
pub fn mean(d: &dgnkit_stats::Dist) -> f64 {
    d.iter().map(|(&k, &p)| f64::from(k) * p).sum()
}

/// Rows as columns two spaces apart, each row indented by two; a column
/// whose `right` flag is set is right-aligned. Trailing spaces are
/// trimmed.
pub fn aligned(rows: &[Vec<String>], right: &[bool]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut s = String::new();
    for r in rows {
        let mut line = String::from("  ");
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c].saturating_sub(cell.chars().count());
            if right.get(c).copied().unwrap_or(false) {
                line += &" ".repeat(pad);
                line += cell;
            } else {
                line += cell;
                line += &" ".repeat(pad);
            }
            line += "  ";
        }
        s += line.trim_end();
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_read_as_dgn_stats_writes_them() {
        for (p, text) in [
            (0.0, "0%"),
            (0.2, "20%"),
            (0.125, "12.5%"),
            (0.0005, "5.0e-2%"),
            (0.99995, "99.995%"),
            (1.0, "100%"),
        ] {
            assert_eq!(percent(p), text, "{p}");
        }
    }

    #[test]
    fn distributions_in_brief() {
        let d = |pairs: &[(i32, f64)]| pairs.iter().copied().collect::<dgnkit_stats::Dist>();
        assert_eq!(range_mean(&d(&[])), "-");
        assert_eq!(range_mean(&d(&[(12, 1.0)])), "12");
        assert_eq!(range_mean(&d(&[(5, 0.5), (9, 0.5)])), "5..9, mean 7.0");
    }

    #[test]
    fn columns_align_by_characters() {
        let rows = vec![
            vec!["level".to_string(), "p".to_string()],
            vec!["château".to_string(), "20%".to_string()],
        ];
        assert_eq!(
            aligned(&rows, &[false, true]),
            "  level      p\n  château  20%\n"
        );
    }
}
