//! `/openapi.json` against the router.

use std::collections::BTreeSet;

use reqwest::{Method, StatusCode};
use sdconv_server::api::ROUTES;
use serde_json::Value;

use crate::harness::*;

#[tokio::test]
async fn openapi_lists_exactly_the_routes() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let resp = h.http.get(h.url("/openapi.json")).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let doc: Value = resp.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["servers"][0]["url"], h.server.url());
    let mut documented = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            documented.insert((method.clone(), path.clone()));
        }
    }
    // OpenAPI has no catch-all parameter: `{*path}` is documented as `{path}`.
    let routed: BTreeSet<(String, String)> = ROUTES
        .iter()
        .map(|(m, p)| (m.to_string(), p.replace("{*path}", "{path}")))
        .collect();
    assert_eq!(documented, routed);
    // Only the PDF export goes beyond the partner spec, and it says so.
    let flagged: Vec<&String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, item)| {
            item.as_object()
                .unwrap()
                .values()
                .any(|op| op["x-sdconv-extension"] == true)
        })
        .map(|(path, _)| path)
        .collect();
    assert_eq!(flagged, ["/partner/documents/{id}/export/pdf"]);
    assert_eq!(doc["tags"][0]["name"], "extension");
    // Every $ref resolves.
    let text = doc.to_string();
    for part in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
        let name = part.split('"').next().unwrap();
        assert!(doc["components"]["schemas"][name].is_object(), "{name}");
    }
}

#[tokio::test]
async fn every_listed_route_is_served() {
    let Some(h) = Harness::start().await else {
        return;
    };
    for (method, path) in ROUTES {
        let concrete = path.replace("{*path}", "x/y.png").replace(['{', '}'], "");
        let method = Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap();
        let (status, body) = send_json(h.req(method.clone(), &concrete)).await;
        assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        assert_ne!(body["error"], "no_route", "{method} {path}");
        assert!(status.as_u16() < 500, "{method} {path}: {status} {body}");
    }
    let (status, body) = send_json(h.get("/partner/nothing-here")).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("no_route"))
    );
    // What axum itself refuses comes in the same error shape.
    let (status, body) = send_json(h.get("/partner/documents/list?groupId=a&groupId=b")).await;
    assert_eq!(
        (status.as_u16(), body["error"].as_str()),
        (412, Some("precondition_failed")),
        "{body}"
    );
    let (status, body) = send_json(h.req(Method::PUT, "/partner/documents/create")).await;
    assert_eq!(
        (status.as_u16(), body["error"].as_str()),
        (405, Some("method_not_allowed")),
        "{body}"
    );
    let (status, body) = send_json(h.http.get(h.url("/health"))).await;
    assert_eq!(
        (status, body["status"].as_str()),
        (StatusCode::OK, Some("ok"))
    );
}
