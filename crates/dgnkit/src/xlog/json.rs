//! JSON pieces written straight into a buffer: the per-game lines are the
//! hot path of `--format json`, so they are not built through serde.

use super::reader::Split;

/// Appends `bytes` as a JSON string (invalid UTF-8 replaced by U+FFFD).
pub fn string(out: &mut String, bytes: &[u8]) {
    escaped(bytes, |s| out.push_str(s));
}

/// [`string`] into bytes.
pub fn string_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    escaped(bytes, |s| out.extend_from_slice(s.as_bytes()));
}

/// `bytes` as a JSON string, in pieces.
fn escaped(bytes: &[u8], mut push: impl FnMut(&str)) {
    push("\"");
    // Nearly every field is plain ASCII with nothing to escape.
    if bytes.iter().all(|&b| plain(b)) {
        if let Ok(s) = std::str::from_utf8(bytes) {
            push(s);
            push("\"");
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
            push(&s[last..i]);
            if esc.is_empty() {
                push(&format!("\\u{b:04x}"));
            } else {
                push(esc);
            }
            last = i + 1;
        }
        push(&s[last..]);
        if !chunk.invalid().is_empty() {
            push("\u{FFFD}");
        }
    }
    push("\"");
}

/// Whether a byte goes into a JSON string as it is (printable ASCII other
/// than `"` and `\\`).
fn plain(b: u8) -> bool {
    (0x20..0x80).contains(&b) && b != b'"' && b != b'\\'
}

/// The `"key":"value"` members of an xlogfile line's fields, as
/// [`super::reader::fields`] splits them.
pub fn fields(out: &mut Vec<u8>, line: &[u8]) {
    let mut split = Split::default();
    split.fill(line);
    fields_split(out, &split);
}

/// [`fields`] of a line already split: the hot path of
/// `dgn xlog --format json`. Nearly every line is plain and keyed, so its
/// keys and values are copied as they are, sixteen bytes at a time from
/// the padded line, each store over the tail of the one before (the
/// buffer is grown first, then cut to what was written). Any other line
/// goes field by field through [`string_bytes`].
pub fn fields_split(out: &mut Vec<u8>, split: &Split) {
    let line = split.line();
    if !(split.plain() && split.keyed()) {
        for (i, s) in split.spans().iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            string_bytes(out, s.key(line));
            out.push(b':');
            string_bytes(out, s.value(line));
        }
        return;
    }
    let src = split.padded();
    let mark = out.len();
    // `"key":"value"` and a comma each, and room for the last store.
    let size: usize = split.spans().iter().map(|s| s.end - s.start + 6).sum();
    out.resize(mark + size + 16, 0);
    let buf = &mut out[mark..];
    let mut j = 0;
    for (i, s) in split.spans().iter().enumerate() {
        let ((ks, ke), (vs, ve)) = s.parts();
        let lead: &[u8; 4] = if i == 0 { b"\"\0\0\0" } else { b",\"\0\0" };
        put(buf, j, lead);
        j += if i == 0 { 1 } else { 2 };
        j = copy(buf, j, src, ks, ke);
        put(buf, j, b"\":\"\0");
        j += 3;
        j = copy(buf, j, src, vs, ve);
        put(buf, j, b"\"\0\0\0");
        j += 1;
    }
    out.truncate(mark + j);
}

/// Stores four bytes at `j` (none past the buffer's end, which the
/// buffer's size in [`fields_split`] keeps every store from).
#[inline]
fn put(buf: &mut [u8], j: usize, bytes: &[u8; 4]) {
    if let Some(dst) = buf.get_mut(j..j + 4) {
        dst.copy_from_slice(bytes);
    }
}

/// Copies `src[a..b]` to `j`, sixteen bytes at a time (`src` is padded);
/// returns where it ends. One block holds nearly every key and value.
#[inline]
fn copy(buf: &mut [u8], j: usize, src: &[u8], a: usize, b: usize) -> usize {
    let n = b.saturating_sub(a);
    let mut k = 0;
    loop {
        if let (Some(dst), Some(from)) =
            (buf.get_mut(j + k..j + k + 16), src.get(a + k..a + k + 16))
        {
            dst.copy_from_slice(from);
        }
        k += 16;
        if k >= n {
            break;
        }
    }
    j + n
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
            let mut b = Vec::new();
            string_bytes(&mut b, input);
            assert_eq!(b, s.as_bytes());
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
            let mut fast = b"{".to_vec();
            fields(&mut fast, line);
            fast.push(b'}');
            let fast = String::from_utf8(fast).unwrap();
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
