//! JSON pieces written straight into a buffer: the per-game lines are the
//! hot path of `--format json`, so they are not built through serde.

use super::reader::{Span, Split, PAD};

// The copies in [`fields_split`] read a block of sixteen from any byte of
// the line.
const _: () = assert!(PAD >= 16);

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
/// the padded line, each store over the tail of the one before (room is
/// reserved first, and the length set to what was written). Any other
/// line goes field by field through [`string_bytes`]. The copies are raw
/// stores: with a bounds check on each block's two ends they were most of
/// this function's instructions (callgrind: 14 % of the whole run).
pub fn fields_split(out: &mut Vec<u8>, split: &Split) {
    let line = split.line();
    // Every span lies in the line ([`Split::fill`] makes them so); checked
    // once a line all the same, as the copies below rely on it.
    let within = |s: &Span| {
        let ((ks, ke), (vs, ve)) = s.parts();
        ks <= ke && ke < vs && vs <= ve && ve <= line.len()
    };
    if !(split.plain() && split.keyed() && split.spans().iter().all(within)) {
        fields_escaped(out, split);
        return;
    }
    let src = split.padded();
    let spans = split.spans();
    // The spans are apart, so their keys and values are at most the
    // line; each adds five or six bytes of quotes, colon and comma, and
    // the last block or store runs over by at most fifteen.
    let size = line.len() + 6 * spans.len() + 16;
    out.reserve(size);
    let mark = out.len();
    // SAFETY: `out` has `size` bytes spare from `mark`, and what is
    // written stays within it (above). Each key and value is read from a
    // start within the line in blocks of sixteen, reaching at most
    // fifteen bytes past the line, into its `PAD` bytes of padding. The
    // bytes stored past the final length are left out of it.
    #[allow(unsafe_code)]
    unsafe {
        let base = out.as_mut_ptr().add(mark);
        let from = src.as_ptr();
        let mut d = base;
        for (i, s) in spans.iter().enumerate() {
            let ((ks, ke), (vs, ve)) = s.parts();
            if i == 0 {
                d.cast::<[u8; 4]>().write_unaligned(*b"\"\0\0\0");
                d = d.add(1);
            } else {
                d.cast::<[u8; 4]>().write_unaligned(*b",\"\0\0");
                d = d.add(2);
            }
            d = copy(d, from, ks, ke);
            d.cast::<[u8; 4]>().write_unaligned(*b"\":\"\0");
            d = d.add(3);
            d = copy(d, from, vs, ve);
            d.cast::<[u8; 4]>().write_unaligned(*b"\"\0\0\0");
            d = d.add(1);
        }
        out.set_len(mark + d.offset_from(base) as usize);
    }
}

/// Copies `from[a..b]` to `d` sixteen bytes at a time; returns where the
/// copy ends. One block holds nearly every key and value.
///
/// # Safety
/// `from` is readable to `b` plus fifteen, `d` writable to `b - a` plus
/// fifteen.
#[inline]
#[allow(unsafe_code)]
unsafe fn copy(d: *mut u8, from: *const u8, a: usize, b: usize) -> *mut u8 {
    let n = b - a;
    let mut k = 0;
    while k < n {
        // SAFETY: `k < n`, so the block starts before `b`.
        unsafe {
            d.add(k)
                .cast::<[u8; 16]>()
                .write_unaligned(from.add(a + k).cast::<[u8; 16]>().read_unaligned());
        }
        k += 16;
    }
    // SAFETY: `d + n` is within what the caller made writable.
    unsafe { d.add(n) }
}

/// [`fields_split`] field by field, each key and value escaped.
fn fields_escaped(out: &mut Vec<u8>, split: &Split) {
    let line = split.line();
    for (i, s) in split.spans().iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        string_bytes(out, s.key(line));
        out.push(b':');
        string_bytes(out, s.value(line));
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

    proptest::proptest! {
        /// The copied fields are the escaped ones, on plain keyed lines
        /// (the ones copied) of every length, whose keys and values span
        /// no block, one or several.
        #[test]
        fn copied_fields_are_the_escaped_ones(
            fields in proptest::collection::vec(
                // No `:` in a value: a line without a tab is split on it.
                ("[a-z0-9_]{1,20}", "[ -!#-9;-\\[\\]-~]{0,40}"),
                0..30,
            )
        ) {
            let line = fields
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("\t");
            let mut split = Split::default();
            split.fill(line.as_bytes());
            proptest::prop_assert!(split.plain() && split.keyed());
            let mut copied = b"{".to_vec();
            fields_split(&mut copied, &split);
            let mut escaped = b"{".to_vec();
            fields_escaped(&mut escaped, &split);
            proptest::prop_assert_eq!(copied, escaped);
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
