//! The page, built into the binary: `web/dist` (made by `npm run build` in
//! `web/`, checked in so that `cargo build` needs no Node.js), and the
//! API's OpenAPI description.

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

/// `web/dist/index.html`.
pub const INDEX_HTML: &str = include_str!("../../../web/dist/index.html");
/// `web/dist/app.js`: the page's script (CodeMirror included), minified.
pub const APP_JS: &str = include_str!("../../../web/dist/app.js");
/// `web/dist/app.css`.
pub const APP_CSS: &str = include_str!("../../../web/dist/app.css");
/// The API's OpenAPI 3 description, served at `/api`.
pub const OPENAPI: &str = include_str!("openapi.json");

fn asset(body: &'static str, content_type: &'static str) -> Response {
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    r
}

pub async fn index() -> Response {
    let mut r = asset(INDEX_HTML, "text/html; charset=utf-8");
    r.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-src blob: data:",
        ),
    );
    r
}

pub async fn app_js() -> Response {
    asset(APP_JS, "text/javascript; charset=utf-8")
}

pub async fn app_css() -> Response {
    asset(APP_CSS, "text/css; charset=utf-8")
}

pub async fn openapi() -> Response {
    asset(OPENAPI, "application/json")
}
