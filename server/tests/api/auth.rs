//! Both authentication modes and their refusals.

use jsonwebtoken::Algorithm;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::harness::*;

fn b64(s: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s)
}

#[tokio::test]
async fn jwt_hs256_hs384_hs512_are_accepted() {
    let Some(h) = Harness::start().await else {
        return;
    };
    for alg in [Algorithm::HS256, Algorithm::HS384, Algorithm::HS512] {
        let token = h.jwt_with(alg, SECRET, h.clock.now());
        let resp = h
            .http
            .get(h.url("/partner/routines"))
            .header("x-client-id", CLIENT)
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{alg:?}");
    }
}

#[tokio::test]
async fn missing_or_unknown_client_id_is_403() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let r = h.http.get(h.url("/partner/routines")).bearer_auth(h.jwt());
    assert_error(r, 403, "forbidden", "x-client-id").await;
    let r = h
        .http
        .get(h.url("/partner/routines"))
        .header("x-client-id", "nobody")
        .bearer_auth(h.jwt());
    assert_error(r, 403, "forbidden", "unknown client id").await;
}

#[tokio::test]
async fn missing_authorization_is_401() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let r = h
        .http
        .get(h.url("/partner/routines"))
        .header("x-client-id", CLIENT);
    assert_error(r, 401, "unauthorized", "authorization").await;
    let r = h
        .http
        .get(h.url("/partner/routines"))
        .header("x-client-id", CLIENT)
        .header("authorization", h.jwt());
    assert_error(r, 401, "unauthorized", "Bearer").await;
}

#[tokio::test]
async fn wrong_secret_is_401() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let token = h.jwt_with(Algorithm::HS256, "not-the-secret", h.clock.now());
    let r = h
        .http
        .get(h.url("/partner/routines"))
        .header("x-client-id", CLIENT)
        .bearer_auth(token);
    assert_error(r, 401, "unauthorized", "invalid JWT").await;
}

#[tokio::test]
async fn wrong_algorithm_is_401() {
    let Some(h) = Harness::start().await else {
        return;
    };
    // An RS256 header over an HMAC signature: refused for the algorithm before any check.
    let good = h.jwt();
    let mut parts = good.splitn(2, '.');
    let (_, rest) = (parts.next(), parts.next().unwrap());
    let token = format!("{}.{rest}", b64(r#"{"alg":"RS256","typ":"JWT"}"#));
    let r = h
        .http
        .get(h.url("/partner/routines"))
        .header("x-client-id", CLIENT)
        .bearer_auth(token);
    assert_error(r, 401, "unauthorized", "algorithm").await;
}

#[tokio::test]
async fn iat_outside_the_leeway_is_401_both_ways() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let old = h.jwt_with(Algorithm::HS256, SECRET, h.clock.now() - 301);
    let r = h
        .http
        .get(h.url("/partner/routines"))
        .header("x-client-id", CLIENT)
        .bearer_auth(old);
    assert_error(r, 401, "unauthorized", "iat").await;
    let future = h.jwt_with(Algorithm::HS256, SECRET, h.clock.now() + 301);
    let r = h
        .http
        .get(h.url("/partner/routines"))
        .header("x-client-id", CLIENT)
        .bearer_auth(future);
    assert_error(r, 401, "unauthorized", "iat").await;
    // Inside the 5 minutes: fine.
    let recent = h.jwt_with(Algorithm::HS256, SECRET, h.clock.now() - 299);
    let resp = h
        .http
        .get(h.url("/partner/routines"))
        .header("x-client-id", CLIENT)
        .bearer_auth(recent)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_token_expires_as_the_clock_moves_and_the_leeway_is_configurable() {
    let Some(h) = Harness::start_with(|c| c.jwt_leeway = std::time::Duration::from_secs(30)).await
    else {
        return;
    };
    let token = h.jwt();
    h.clock.advance(31);
    let r = h
        .http
        .get(h.url("/partner/routines"))
        .header("x-client-id", CLIENT)
        .bearer_auth(token);
    assert_error(r, 401, "unauthorized", "30 s").await;
}

#[tokio::test]
async fn replayed_jti_is_401() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let token = h.jwt();
    let send = || {
        h.http
            .get(h.url("/partner/routines"))
            .header("x-client-id", CLIENT)
            .bearer_auth(&token)
    };
    assert_eq!(send().send().await.unwrap().status(), StatusCode::OK);
    assert_error(send(), 401, "unauthorized", "replay").await;
}

#[tokio::test]
async fn missing_claims_are_401() {
    let Some(h) = Harness::start().await else {
        return;
    };
    for claims in [
        json!({"iss": "u", "jti": "a"}),
        json!({"iat": h.clock.now(), "jti": "b"}),
        json!({"iat": h.clock.now(), "iss": "u"}),
    ] {
        let token = jsonwebtoken::encode(
            &jsonwebtoken::Header::default(),
            &claims,
            &jsonwebtoken::EncodingKey::from_secret(SECRET.as_bytes()),
        )
        .unwrap();
        let r = h
            .http
            .get(h.url("/partner/routines"))
            .header("x-client-id", CLIENT)
            .bearer_auth(token);
        assert_error(r, 401, "unauthorized", "missing field").await;
    }
}

async fn admin_token(h: &Harness) -> String {
    let resp = h
        .http
        .post(h.url("/partner/authenticate"))
        .header("x-api-key", API_KEY)
        .json(&json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["userId"], "admin-acme");
    body["adminAccessToken"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn legacy_token_works_on_the_same_documents_until_it_expires() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let created = h.create("u1", "g1", "draft").await;
    let id = created["documentId"].as_str().unwrap();
    let token = admin_token(&h).await;
    let get = || {
        h.http
            .get(h.url(&format!("/partner/documents/{id}")))
            .header("x-api-key", API_KEY)
            .header("authorization", &token)
    };
    // Reusable, unlike a JWT.
    for _ in 0..2 {
        let (status, body) = send_json(get()).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["id"], id);
    }
    h.clock.advance(24 * 3600 + 1);
    assert_error(get(), 401, "unauthorized", "expired").await;
}

#[tokio::test]
async fn legacy_refusals() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let auth = |key: Option<&str>, password: &str| {
        let mut r = h
            .http
            .post(h.url("/partner/authenticate"))
            .json(&json!({"email": ADMIN_EMAIL, "password": password}));
        if let Some(k) = key {
            r = r.header("x-api-key", k);
        }
        r
    };
    // Invalid login on the token endpoint: 403 (spec 2.10.8).
    assert_error(
        auth(Some(API_KEY), "wrong"),
        403,
        "forbidden",
        "invalid email or password",
    )
    .await;
    assert_error(auth(None, ADMIN_PASSWORD), 403, "forbidden", "x-api-key").await;
    assert_error(
        auth(Some("other"), ADMIN_PASSWORD),
        403,
        "forbidden",
        "unknown x-api-key",
    )
    .await;
    let r = h
        .http
        .post(h.url("/partner/authenticate"))
        .header("x-api-key", API_KEY)
        .json(&json!({"email": ADMIN_EMAIL}));
    assert_error(r, 412, "precondition_failed", "password").await;
    // A made-up admin token.
    let r = h
        .http
        .get(h.url("/partner/routines"))
        .header("x-api-key", API_KEY)
        .header("authorization", "0123456789abcdef");
    assert_error(r, 401, "unauthorized", "admin access token").await;
    let r = h
        .http
        .get(h.url("/partner/routines"))
        .header("x-api-key", API_KEY);
    assert_error(r, 401, "unauthorized", "authorization").await;
}

#[tokio::test]
async fn deprecated_users_authenticate_returns_access_and_refresh_tokens() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let (status, body) = send_json(
        h.http
            .post(h.url("/users/authenticate"))
            .header("x-api-key", API_KEY)
            .json(&json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["refreshToken"].as_str().is_some_and(|t| t.len() == 32));
    let token = body["accessToken"].as_str().unwrap();
    let resp = h
        .http
        .get(h.url("/partner/templates/word"))
        .header("x-api-key", API_KEY)
        .header("authorization", token)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
}

/// A token signed with the client's secret carrying `claims` (fresh `jti`, `iat` now).
fn jwt_claims(h: &Harness, extra: Value) -> String {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let mut claims =
        json!({"iat": h.clock.now(), "iss": "partner-user", "jti": format!("time-{n}")});
    for (k, v) in extra.as_object().unwrap() {
        claims[k] = v.clone();
    }
    jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(SECRET.as_bytes()),
    )
    .unwrap()
}

#[tokio::test]
async fn exp_and_nbf_are_honoured_with_the_iat_leeway() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let now = h.clock.now();
    let call = |token: String| {
        h.http
            .get(h.url("/partner/routines"))
            .header("x-client-id", CLIENT)
            .bearer_auth(token)
    };
    // Expired more than the leeway (300 s) ago: refused; within it, or not yet: accepted.
    assert_error(
        call(jwt_claims(&h, json!({"exp": now - 300}))),
        401,
        "unauthorized",
        "JWT expired: exp",
    )
    .await;
    assert_error(
        call(jwt_claims(&h, json!({"exp": now - 3600}))),
        401,
        "unauthorized",
        "exp",
    )
    .await;
    for exp in [now - 299, now, now + 3600] {
        let resp = call(jwt_claims(&h, json!({"exp": exp})))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "exp {exp}");
    }
    // Not valid before a time more than the leeway ahead: refused; within it or past: accepted.
    assert_error(
        call(jwt_claims(&h, json!({"nbf": now + 301}))),
        401,
        "unauthorized",
        "JWT not yet valid: nbf",
    )
    .await;
    for nbf in [now + 300, now, now - 3600] {
        let resp = call(jwt_claims(&h, json!({"nbf": nbf})))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "nbf {nbf}");
    }
    // Both at once.
    let resp = call(jwt_claims(&h, json!({"nbf": now - 10, "exp": now + 60})))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_error(
        call(jwt_claims(&h, json!({"nbf": now - 10, "exp": now - 310}))),
        401,
        "unauthorized",
        "expired",
    )
    .await;
    // Not a number: an invalid token.
    assert_error(
        call(jwt_claims(&h, json!({"exp": "tomorrow"}))),
        401,
        "unauthorized",
        "invalid JWT",
    )
    .await;
}
