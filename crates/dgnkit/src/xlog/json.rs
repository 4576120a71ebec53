//! JSON pieces written straight into a buffer: the per-game lines are the
//! hot path of `--format json`, so they are not built through serde.

/// Appends `bytes` as a JSON string (invalid UTF-8 replaced by U+FFFD).
pub fn string(out: &mut String, bytes: &[u8]) {
    out.push('"');
    // Nearly every field is plain ASCII with nothing to escape.
    if bytes.iter().all(|&b| plain(b)) {
        if let Ok(s) = std::str::from_utf8(bytes) {
            out.push_str(s);
            out.push('"');
            return;
        }
    }
    for chunk in bytes.utf8_chunks() {
        let s = chunk.valid();
        let mut last = 0;
        for (i, b) in s.bytes().enumerate() {
            let esc: &str = match b {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0..=0x1f => "",
                _ => continue,
            };
            out.push_str(&s[last..i]);
            if esc.is_empty() {
                out.push_str(&format!("\\u{b:04x}"));
            } else {
                out.push_str(esc);
            }
            last = i + 1;
        }
        out.push_str(&s[last..]);
        if !chunk.invalid().is_empty() {
            out.push('\u{FFFD}');
        }
    }
    out.push('"');
}

/// Whether a byte goes into a JSON string as it is (printable ASCII other
/// than `"` and `\\`).
fn plain(b: u8) -> bool {
    (0x20..0x80).contains(&b) && b != b'"' && b != b'\\'
}

/// The `"key":"value"` members of an xlogfile line's fields, as
/// [`super::reader::fields`] splits them. A line whose bytes are all plain
/// (nearly every line) is checked once and written by slices; any other
/// goes field by field through [`string`].
pub fn fields(out: &mut String, line: &[u8]) {
    let sep = super::reader::separator(line);
    let whole = line
        .iter()
        .all(|&b| plain(b) || b == sep)
        .then(|| std::str::from_utf8(line).ok())
        .flatten();
    let Some(text) = whole else {
        for (i, (k, v)) in super::reader::fields(line).enumerate() {
            if i > 0 {
                out.push(',');
            }
            string(out, k);
            out.push(':');
            string(out, v);
        }
        return;
    };
    let mut first = true;
    let bytes = text.as_bytes();
    let mut start = 0;
    while start <= bytes.len() {
        let end = bytes[start..]
            .iter()
            .position(|&b| b == sep)
            .map_or(bytes.len(), |i| start + i);
        if end > start {
            // Every byte is ASCII, so any index is a char boundary.
            let (k, v) = match bytes[start..end].iter().position(|&b| b == b'=') {
                Some(i) => (&text[start..start + i], &text[start + i + 1..end]),
                None => ("", &text[start..end]),
            };
            if !first {
                out.push(',');
            }
            first = false;
            out.push('"');
            out.push_str(k);
            out.push_str("\":\"");
            out.push_str(v);
            out.push('"');
        }
        start = end + 1;
    }
}

/// A finite number as JSON (Rust's shortest round-trip form, which never
/// uses an exponent); anything else as 0.
pub fn num(v: f64) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "0".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_valid_json() {
        for input in [
            &b"plain"[..],
            b"quote\" back\\slash",
            b"ctl\x01\x1f tab\t",
            b"bad \xff utf8 \xc3",
            "é ünïcode".as_bytes(),
        ] {
            let mut s = String::new();
            string(&mut s, input);
            let back: String = serde_json::from_str(&s).unwrap();
            assert_eq!(back, String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn fields_are_the_readers() {
        for line in [
            &b"version=3.6.6\tname=a=b\tx\t\tdeath=killed by a \"quoted\" newt"[..],
            b"version=3.6.6\tname=plain\tdeath=killed by a jackal",
            b"version=3.4.3:name=colon:death=killed by a jackal",
            b"version=3.6.6\tname=\xff\xfe\tdeath=x",
            b"",
        ] {
            let mut fast = String::from("{");
            fields(&mut fast, line);
            fast.push('}');
            let slow: serde_json::Map<String, serde_json::Value> =
                super::super::reader::fields(line)
                    .map(|(k, v)| {
                        (
                            String::from_utf8_lossy(k).into_owned(),
                            serde_json::Value::String(String::from_utf8_lossy(v).into_owned()),
                        )
                    })
                    .collect();
            let got: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&fast).unwrap_or_else(|e| panic!("{fast}: {e}"));
            assert_eq!(got, slow, "{fast}");
        }
    }

    #[test]
    fn numbers() {
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(1.0), "1");
        assert_eq!(num(f64::NAN), "0");
        let tiny = num(1e-20);
        assert_eq!(tiny.parse::<f64>().unwrap(), 1e-20);
    }
}
