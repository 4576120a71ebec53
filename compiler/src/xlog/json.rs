//! JSON pieces written straight into a buffer: the per-game lines are the
//! hot path of `--format json`, so they are not built through serde.

/// Appends `bytes` as a JSON string (invalid UTF-8 replaced by U+FFFD).
pub fn string(out: &mut String, bytes: &[u8]) {
    out.push('"');
    // Nearly every field is plain ASCII with nothing to escape.
    if bytes
        .iter()
        .all(|&b| (0x20..0x80).contains(&b) && b != b'"' && b != b'\\')
    {
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
    fn numbers() {
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(1.0), "1");
        assert_eq!(num(f64::NAN), "0");
        let tiny = num(1e-20);
        assert_eq!(tiny.parse::<f64>().unwrap(), 1e-20);
    }
}
