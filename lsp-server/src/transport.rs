//! Standard input/output with a guard in front of the protocol library.
//!
//! tower-lsp-server answers a malformed message (a bad header, a body that is
//! not UTF-8 or not JSON, JSON that is no JSON-RPC message) with an error and
//! then stops reading its input, which leaves the editor without a server.
//! This layer frames the input itself and passes on only well-formed
//! messages; each malformed one becomes a request to
//! [`MALFORMED_METHOD`], which the server answers with the JSON-RPC error
//! (`-32700` parse error or `-32600` invalid request, with the message's id
//! when it had a readable one), and serving goes on.

use serde::Deserialize;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tower_lsp_server::jsonrpc::{Request, Response};

/// The method a malformed message is turned into.
pub const MALFORMED_METHOD: &str = "dgnkit/malformedMessage";

/// JSON-RPC: the body is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: JSON, but not a valid request.
pub const INVALID_REQUEST: i64 = -32600;

/// Largest header block we wait for before declaring it garbage.
const MAX_HEADER: usize = 16 * 1024;
/// Largest message body accepted; larger ones are skipped with an error.
const MAX_BODY: usize = 256 * 1024 * 1024;

/// Parameters of [`MALFORMED_METHOD`].
#[derive(Debug, Deserialize)]
pub struct Malformed {
    pub code: i64,
    pub message: String,
}

/// What the framer found at the start of its buffer.
#[derive(Debug, PartialEq, Eq)]
enum Frame {
    /// A well-formed message body, to pass on.
    Message(Vec<u8>),
    /// A malformed message, to answer with an error.
    Error(Vec<u8>),
    /// A body too large to keep: answer with an error, then drop this many
    /// bytes as they arrive.
    Skip(Vec<u8>, usize),
}

fn synthetic(id: Value, code: i64, message: &str) -> Vec<u8> {
    let msg = json!({"jsonrpc": "2.0", "id": id, "method": MALFORMED_METHOD, "params": {"code": code, "message": message}});
    serde_json::to_vec(&msg).unwrap_or_default()
}

/// Checks a body: well-formed messages pass, anything else becomes a
/// synthetic request that answers with the right error.
fn check_body(body: &[u8]) -> Frame {
    let Ok(text) = std::str::from_utf8(body) else {
        return Frame::Error(synthetic(
            Value::Null,
            PARSE_ERROR,
            "Parse error: the message body is not UTF-8",
        ));
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return Frame::Error(synthetic(
                Value::Null,
                PARSE_ERROR,
                &format!("Parse error: {e}"),
            ))
        }
    };
    if serde_json::from_value::<Request>(value.clone()).is_ok()
        || serde_json::from_value::<Response>(value.clone()).is_ok()
    {
        return Frame::Message(body.to_vec());
    }
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    Frame::Error(synthetic(
        id,
        INVALID_REQUEST,
        "Invalid request: not a JSON-RPC 2.0 message",
    ))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Where the framer resynchronises after garbage.
const HEADER_NAME: &[u8] = b"content-length";

/// Drops the garbage at the front of `buf`: up to the next `Content-Length`
/// after its first byte, or, when there is none yet, all but the last bytes
/// (where one may be arriving). The first byte kept was already searched,
/// so it is overwritten to stay garbage: what is dropped must not depend on
/// how the input was split into reads, or a message after garbage would
/// pass or not depending on the timing of the client's writes.
fn skip_garbage(buf: &mut Vec<u8>) {
    match find(&buf.to_ascii_lowercase()[1..], HEADER_NAME) {
        Some(p) => {
            buf.drain(..p + 1);
        }
        None => {
            buf.drain(..buf.len().saturating_sub(HEADER_NAME.len()));
            if let Some(first) = buf.first_mut() {
                *first = 0;
            }
        }
    }
}

/// Takes the next frame off the front of `buf`; `None` when more input is
/// needed.
fn next_frame(buf: &mut Vec<u8>) -> Option<Frame> {
    // Blank lines between messages are harmless.
    let blank = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
    buf.drain(..blank);
    // A header starts with `Content-`; anything else before the next one
    // is garbage, reported once a header follows it. A start too short to
    // tell is a header only if it could still become one.
    let k = buf.len().min(8);
    let starts_header = buf[..k].eq_ignore_ascii_case(&b"content-"[..k]);
    if !starts_header {
        if buf.len() > MAX_HEADER || find(&buf.to_ascii_lowercase()[1..], HEADER_NAME).is_some() {
            skip_garbage(buf);
            return Some(Frame::Error(synthetic(
                Value::Null,
                PARSE_ERROR,
                "Parse error: text outside a message",
            )));
        }
        return None;
    }
    // Only the first MAX_HEADER bytes can hold the header's end, whether or
    // not more has arrived.
    let Some(header_end) = find(&buf[..buf.len().min(MAX_HEADER)], b"\r\n\r\n") else {
        if buf.len() >= MAX_HEADER {
            skip_garbage(buf);
            return Some(Frame::Error(synthetic(
                Value::Null,
                PARSE_ERROR,
                "Parse error: header too long",
            )));
        }
        return None;
    };
    let header = String::from_utf8_lossy(&buf[..header_end]).into_owned();
    let length = header.split("\r\n").find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim()
            .eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().ok())
    });
    let body_start = header_end + 4;
    match length {
        Some(Some(len)) if len > MAX_BODY => {
            let have = (buf.len() - body_start).min(len);
            buf.drain(..body_start + have);
            let err = synthetic(Value::Null, PARSE_ERROR, "Parse error: message too large");
            Some(Frame::Skip(err, len - have))
        }
        Some(Some(len)) => {
            if buf.len() < body_start + len {
                return None;
            }
            let frame = check_body(&buf[body_start..body_start + len]);
            buf.drain(..body_start + len);
            Some(frame)
        }
        _ => {
            // No usable Content-Length: skip this header block.
            buf.drain(..body_start);
            Some(Frame::Error(synthetic(
                Value::Null,
                PARSE_ERROR,
                "Parse error: missing or invalid Content-Length",
            )))
        }
    }
}

async fn write_frame<W: AsyncWrite + Unpin>(out: &mut W, body: &[u8]) -> std::io::Result<()> {
    out.write_all(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes())
        .await?;
    out.write_all(body).await?;
    out.flush().await
}

/// Copies well-formed messages from `input` to `output` (re-framed), turning
/// malformed ones into [`MALFORMED_METHOD`] requests. Ends at the end of the
/// input or when `output` closes.
pub async fn sanitize<R: AsyncRead + Unpin, W: AsyncWrite + Unpin>(mut input: R, mut output: W) {
    let mut buf: Vec<u8> = Vec::new();
    let mut skip = 0usize;
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        while skip == 0 {
            let Some(frame) = next_frame(&mut buf) else {
                break;
            };
            let (body, then_skip) = match frame {
                Frame::Message(b) | Frame::Error(b) => (b, 0),
                Frame::Skip(b, n) => (b, n),
            };
            if write_frame(&mut output, &body).await.is_err() {
                return;
            }
            skip = then_skip;
        }
        let n = match input.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let mut data = &chunk[..n];
        if skip > 0 {
            let dropped = skip.min(data.len());
            skip -= dropped;
            data = &data[dropped..];
        }
        buf.extend_from_slice(data);
    }
    let _ = output.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    fn method_and_code(frame: &Frame) -> (String, Option<i64>, Value) {
        let body = match frame {
            Frame::Message(b) | Frame::Error(b) | Frame::Skip(b, _) => b,
        };
        let v: Value = serde_json::from_slice(body).unwrap();
        (
            v["method"].as_str().unwrap_or("").to_string(),
            v["params"]["code"].as_i64(),
            v["id"].clone(),
        )
    }

    #[test]
    fn frames_pass_and_garbage_becomes_errors() {
        let mut buf = Vec::new();
        buf.extend(framed(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
        ));
        buf.extend(framed("{not json"));
        buf.extend(framed(r#"{"id":7,"foo":1}"#));
        buf.extend(b"Content-Length: 2\r\n".iter());
        let first = next_frame(&mut buf).unwrap();
        assert!(matches!(first, Frame::Message(_)));
        let second = next_frame(&mut buf).unwrap();
        assert_eq!(
            method_and_code(&second),
            (MALFORMED_METHOD.into(), Some(PARSE_ERROR), Value::Null)
        );
        let third = next_frame(&mut buf).unwrap();
        assert_eq!(
            method_and_code(&third),
            (MALFORMED_METHOD.into(), Some(INVALID_REQUEST), json!(7))
        );
        // An incomplete header waits for more input.
        assert_eq!(next_frame(&mut buf), None);
        buf.extend(b"\r\n{}".iter());
        let fourth = next_frame(&mut buf).unwrap();
        assert!(matches!(fourth, Frame::Error(_)));
        assert!(buf.is_empty());
    }

    /// The bodies passed on when `input` arrives as a first read of `first`
    /// bytes, then reads of `step` bytes.
    fn passed(input: &[u8], first: usize, step: usize) -> Vec<Vec<u8>> {
        let (head, rest) = input.split_at(first.min(input.len()));
        let mut buf = Vec::new();
        let mut out = Vec::new();
        for chunk in std::iter::once(head).chain(rest.chunks(step)) {
            buf.extend_from_slice(chunk);
            while let Some(frame) = next_frame(&mut buf) {
                if let Frame::Message(body) = frame {
                    out.push(body);
                }
            }
        }
        out
    }

    /// Found by fuzzing (fuzz/fuzz_targets/lsp_messages.rs): a message
    /// after a damaged header was passed on when the input came in small
    /// reads and dropped when it came at once, because a header end beyond
    /// MAX_HEADER was accepted once it had arrived. Garbage dropped at the
    /// limit could also cut a `Content-Length` in two, and a short start was
    /// taken for a header before it could be told apart.
    #[test]
    fn framing_does_not_depend_on_how_the_input_is_split() {
        let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let msg = framed(exit);
        let mut inputs = Vec::new();
        // A damaged header whose block would end only at the next message's.
        let mut long = b"Content-Length: 1x\r\n".to_vec();
        long.extend(vec![b'x'; MAX_HEADER]);
        long.extend(&msg);
        inputs.push(long);
        // Garbage whose limit falls inside the next header name.
        for cut in [11, 13, 14] {
            for before in [&b""[..], b"Content-"] {
                let mut input = vec![b'y'; MAX_HEADER + 1 - cut - before.len()];
                input.extend(before);
                input.extend(&msg);
                inputs.push(input);
            }
        }
        let mut short = b"{}\r\n\r\nContent-".to_vec();
        short.extend(&msg);
        inputs.push(short);
        for input in &inputs {
            let at_once = passed(input, input.len(), 1);
            assert_eq!(at_once, vec![exit.as_bytes().to_vec()]);
            for (first, step) in [(1, 1), (100, 100), (MAX_HEADER + 1, 1), (MAX_HEADER, 7)] {
                if first == 1 && input.len() > 100 {
                    continue; // byte by byte is quadratic in the garbage
                }
                assert_eq!(
                    passed(input, first, step),
                    at_once,
                    "reads of {first}, then {step}"
                );
            }
        }
    }

    #[test]
    fn bad_headers_and_bodies() {
        let mut buf = b"Content-Type: text/plain\r\n\r\n".to_vec();
        assert!(matches!(next_frame(&mut buf), Some(Frame::Error(_))));
        let mut buf = b"Content-Length: abc\r\n\r\n{}".to_vec();
        assert!(matches!(next_frame(&mut buf), Some(Frame::Error(_))));
        let mut buf = b"Content-Length: 3\r\n\r\n\xff\xfe\x00".to_vec();
        assert!(matches!(next_frame(&mut buf), Some(Frame::Error(_))));
        let mut buf = b"Content-Length: 999999999999\r\n\r\nabc".to_vec();
        assert!(
            matches!(next_frame(&mut buf), Some(Frame::Skip(_, n)) if n == 999_999_999_999 - 3)
        );
        let mut buf = vec![b'x'; MAX_HEADER + 10];
        buf.extend(framed(r#"{"jsonrpc":"2.0","method":"exit"}"#));
        assert!(matches!(next_frame(&mut buf), Some(Frame::Error(_))));
        assert!(matches!(next_frame(&mut buf), Some(Frame::Message(_))));
    }
}
