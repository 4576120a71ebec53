//! `dgn serve --access-log`: a line per request, in the Common Log Format
//! that web servers write and log tools read, with the seconds the answer
//! took at the end:
//!
//! ```text
//! 127.0.0.1 - - [29/Nov/2026:08:01:02 +0000] "GET /api/layout?seed=7 HTTP/1.1" 200 5123 0.004
//! ```

use axum::body::HttpBody;
use axum::extract::{ConnectInfo, Request};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Where the lines go.
pub struct AccessLog {
    out: Mutex<Box<dyn Write + Send>>,
}

impl AccessLog {
    /// `path`, appended to (`-`: standard error).
    pub fn open(path: &Path) -> std::io::Result<AccessLog> {
        let out: Box<dyn Write + Send> = if path == Path::new("-") {
            Box::new(std::io::stderr())
        } else {
            Box::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| {
                        std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
                    })?,
            )
        };
        Ok(AccessLog {
            out: Mutex::new(out),
        })
    }

    /// A log written to `out` (tests).
    pub fn to(out: Box<dyn Write + Send>) -> AccessLog {
        AccessLog {
            out: Mutex::new(out),
        }
    }

    fn write(&self, line: &str) {
        // A log that cannot be written (a full disk) does not stop the
        // server; a poisoned lock is a panic elsewhere, and the line is
        // written all the same.
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        let _ = out.write_all(line.as_bytes());
        let _ = out.flush();
    }
}

/// The middleware: answers `req`, then writes its line.
pub async fn record(
    log: Arc<AccessLog>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    let start = Instant::now();
    let request_line = format!(
        "{} {} {:?}",
        req.method(),
        req.uri()
            .path_and_query()
            .map_or_else(|| req.uri().path(), |p| p.as_str()),
        req.version()
    );
    let response = next.run(req).await;
    // The body's length when it is known before it is sent (every answer
    // but a stream), as the Content-Length hyper then writes.
    let size = response
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok().map(str::to_string))
        .or_else(|| response.body().size_hint().exact().map(|n| n.to_string()))
        .unwrap_or_else(|| "-".to_string());
    let line = format!(
        "{} - - [{}] \"{}\" {} {} {:.3}\n",
        peer.ip(),
        clf_time(SystemTime::now()),
        request_line.escape_debug(),
        response.status().as_u16(),
        size,
        start.elapsed().as_secs_f64()
    );
    log.write(&line);
    response
}

/// `29/Nov/2026:08:01:02 +0000` (UTC).
fn clf_time(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{d:02}/{}/{y}:{:02}:{:02}:{:02} +0000",
        MONTHS[(m - 1) as usize],
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Year, month (1-12) and day of the `days`th day after 1970-01-01, by
/// Howard Hinnant's `civil_from_days`.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_are_the_calendars() {
        let at = |s: u64| clf_time(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "01/Jan/1970:00:00:00 +0000");
        // 2000-02-29 12:34:56 UTC.
        assert_eq!(at(951_827_696), "29/Feb/2000:12:34:56 +0000");
        // 2026-11-29 08:01:02 UTC.
        assert_eq!(at(1_795_939_262), "29/Nov/2026:08:01:02 +0000");
    }
}
