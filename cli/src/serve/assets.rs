//! The page, built into the binary: `web/dist` (made by `npm run build` in
//! `web/`, checked in so that `cargo build` needs no Node.js), and the
//! API's OpenAPI description.

use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use std::io::Write;
use std::sync::OnceLock;

/// `web/dist/index.html`.
pub const INDEX_HTML: &str = include_str!("../../../web/dist/index.html");
/// `web/dist/app.js`: the page's script (CodeMirror included), minified.
pub const APP_JS: &str = include_str!("../../../web/dist/app.js");
/// `web/dist/app.css`.
pub const APP_CSS: &str = include_str!("../../../web/dist/app.css");
/// `web/dist/favicon.ico`: a `>`, the down stairs.
pub const FAVICON: &[u8] = include_bytes!("../../../web/dist/favicon.ico");
/// The API's OpenAPI 3 description, served at `/api`.
pub const OPENAPI: &str = include_str!("openapi.json");

/// Each text asset gzipped once, on first use: `app.js` is some 400 KB
/// and a tenth of that gzipped.
struct Gzipped {
    index: OnceLock<Vec<u8>>,
    app_js: OnceLock<Vec<u8>>,
    app_css: OnceLock<Vec<u8>>,
    openapi: OnceLock<Vec<u8>>,
}

static GZIPPED: Gzipped = Gzipped {
    index: OnceLock::new(),
    app_js: OnceLock::new(),
    app_css: OnceLock::new(),
    openapi: OnceLock::new(),
};

fn gzip(body: &str) -> Vec<u8> {
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = z.write_all(body.as_bytes());
    z.finish().unwrap_or_default()
}

/// Whether the request takes gzip (`Accept-Encoding: gzip`, not `gzip;q=0`).
fn takes_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

fn asset(
    headers: &HeaderMap,
    body: &'static str,
    gzipped: &'static OnceLock<Vec<u8>>,
    content_type: &'static str,
) -> Response {
    let mut r = if takes_gzip(headers) {
        let mut r = gzipped
            .get_or_init(|| gzip(body))
            .as_slice()
            .into_response();
        r.headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        r
    } else {
        body.into_response()
    };
    let h = r.headers_mut();
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    r
}

pub async fn index(headers: HeaderMap) -> Response {
    let mut r = asset(
        &headers,
        INDEX_HTML,
        &GZIPPED.index,
        "text/html; charset=utf-8",
    );
    r.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-src blob: data:",
        ),
    );
    r
}

pub async fn app_js(headers: HeaderMap) -> Response {
    asset(
        &headers,
        APP_JS,
        &GZIPPED.app_js,
        "text/javascript; charset=utf-8",
    )
}

pub async fn app_css(headers: HeaderMap) -> Response {
    asset(
        &headers,
        APP_CSS,
        &GZIPPED.app_css,
        "text/css; charset=utf-8",
    )
}

pub async fn openapi(headers: HeaderMap) -> Response {
    asset(&headers, OPENAPI, &GZIPPED.openapi, "application/json")
}

pub async fn favicon() -> Response {
    let mut r = FAVICON.into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/vnd.microsoft.icon"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("max-age=86400"),
    );
    r
}
