//! Create, open, read, list, unseen, metadata, review, duplicate, archive, delete, the
//! deletion process, the freemium quota and the field limits.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::harness::*;

fn id_of(access: &Value) -> String {
    access["documentId"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn create_returns_an_access_result_and_the_record_has_every_field() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let mut body = creation("u1", "g1", "draft", "Quarterly report");
    body["subtitle"] = json!("Q3");
    body["filename"] = json!("report.docx");
    body["footer"] = json!("Confidential");
    body["supplemental"] = json!("partner-data");
    let (status, access) = send_json(h.post("/partner/documents/create").json(&body)).await;
    assert_eq!(status, StatusCode::OK);
    let link = access["documentAccessLink"].as_str().unwrap();
    assert!(link.starts_with(&h.url("/access/")), "{link}");
    // Document ids are the service's UUID v4; user ids keep their 24 hex digits.
    assert_eq!(access["userIdSD"].as_str().unwrap().len(), 24);
    let id = id_of(&access);
    assert!(sdconv_server::ids::is_uuid_v4(&id), "{id}");
    let (status, rec) = h.doc(&id, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(rec["title"], "Quarterly report");
    assert_eq!(rec["subtitle"], "Q3");
    assert_eq!(rec["filename"], "report.docx");
    assert_eq!(rec["footer"], "Confidential");
    assert_eq!(rec["supplemental"], "partner-data");
    assert_eq!(rec["status"], "draft");
    assert_eq!(rec["archived"], false);
    assert_eq!(rec["groupId"], "g1");
    assert_eq!(rec["creatorId"], "u1");
    assert_eq!(rec["creatorIdSD"], access["userIdSD"]);
    assert_eq!(rec["createdDate"], h.clock_now());
    assert_eq!(rec["modificationDate"], h.clock_now());
    assert_eq!(rec["sampleId"], "");
    assert_eq!(rec["tags"], json!([]));
    // Without userId the user-dependent fields are not filled.
    assert_eq!(rec["hasOpenedDocument"], false);
    assert_eq!(rec["hasUnreadSectionChanges"], false);
    // For the creator, who has not opened it yet: everything is unseen.
    let (_, rec) = h.doc(&id, Some("u1")).await;
    assert_eq!(rec["hasUnreadSectionChanges"], true);
    assert_eq!(rec["hasOpenedDocument"], false);
}

impl Harness {
    fn clock_now(&self) -> i64 {
        self.clock.now()
    }
}

#[tokio::test]
async fn create_from_an_sdox_template_and_unknown_template_is_412() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let mut body = creation("u1", "g1", "draft", "Contract");
    body["sampleId"] = json!("contract");
    let (status, access) = send_json(h.post("/partner/documents/create").json(&body)).await;
    assert_eq!(status, StatusCode::OK, "{access}");
    let (_, rec) = h.doc(&id_of(&access), None).await;
    assert_eq!(rec["sampleId"], "contract");
    body["sampleId"] = json!("no-such-template");
    assert_error(
        h.post("/partner/documents/create").json(&body),
        412,
        "precondition_failed",
        "sampleId",
    )
    .await;
}

#[tokio::test]
async fn one_over_each_field_limit_is_412_naming_the_field() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let cases: &[(&str, usize, &str)] = &[
        ("/user/email", 151, "user.email"),
        ("/user/firstname", 151, "user.firstname"),
        ("/user/lastname", 151, "user.lastname"),
        ("/user/company", 151, "user.company"),
        ("/title", 201, "title"),
        ("/description", 401, "description"),
        ("/supplemental", 401, "supplemental"),
        ("/subtitle", 301, "subtitle"),
        ("/filename", 201, "filename"),
    ];
    for &(pointer, len, field) in cases {
        let set = |len: usize| {
            let mut body = creation("u1", "g1", "draft", "T");
            let value = json!("x".repeat(len));
            match pointer.strip_prefix("/user/") {
                Some(key) => body["user"][key] = value,
                None => body[&pointer[1..]] = value,
            }
            body
        };
        let body = set(len);
        // At the limit it passes, one over it fails.
        let at = set(len - 1);
        let (ok, _) = send_json(h.post("/partner/documents/create").json(&at)).await;
        assert_eq!(ok, StatusCode::OK, "{field} at the limit");
        assert_error(
            h.post("/partner/documents/create").json(&body),
            412,
            "precondition_failed",
            &format!("{field}: {len} characters"),
        )
        .await;
    }
    // The same limits on the metadata endpoint.
    let id = id_of(&h.create("u1", "g1", "draft").await);
    for (field, len) in [
        ("title", 201),
        ("description", 401),
        ("subtitle", 301),
        ("filename", 201),
        ("supplemental", 401),
    ] {
        assert_error(
            h.post(&format!("/partner/documents/{id}/metadata"))
                .json(&json!({field: "y".repeat(len)})),
            412,
            "precondition_failed",
            field,
        )
        .await;
    }
}

#[tokio::test]
async fn wrong_or_missing_parameters_are_412() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let mut body = creation("u1", "g1", "draft", "T");
    body["userRole"] = json!("owner");
    assert_error(
        h.post("/partner/documents/create").json(&body),
        412,
        "precondition_failed",
        "userRole",
    )
    .await;
    let mut body = creation("u1", "g1", "draft", "T");
    body["user"]["language"] = json!("it_IT");
    assert_error(
        h.post("/partner/documents/create").json(&body),
        412,
        "precondition_failed",
        "user.language",
    )
    .await;
    let mut body = creation("u1", "g1", "final", "T");
    body["status"] = json!("final");
    assert_error(
        h.post("/partner/documents/create").json(&body),
        412,
        "precondition_failed",
        "status",
    )
    .await;
    let mut body = creation("u1", "g1", "draft", "T");
    body.as_object_mut().unwrap().remove("groupId");
    assert_error(
        h.post("/partner/documents/create").json(&body),
        412,
        "precondition_failed",
        "groupId",
    )
    .await;
    assert_error(
        h.post("/partner/documents/create").body("{not json"),
        412,
        "precondition_failed",
        "body",
    )
    .await;
}

#[tokio::test]
async fn unknown_or_foreign_documents_are_403_not_found() {
    let Some(h) = Harness::start_with(|c| {
        c.clients.insert(
            "other".into(),
            sdconv_server::config::Client {
                id: "other".into(),
                secret: "other-secret".into(),
            },
        );
    })
    .await
    else {
        return;
    };
    // Another client's document does not exist for this one.
    let theirs = id_of(&h.create("u1", "g1", "review").await);
    let r = h
        .http
        .get(h.url(&format!("/partner/documents/{theirs}")))
        .header("x-client-id", "other")
        .bearer_auth(h.jwt_with(
            jsonwebtoken::Algorithm::HS512,
            "other-secret",
            h.clock_now(),
        ));
    assert_error(r, 403, "not_found", &theirs).await;
    assert_error(
        h.get("/partner/documents/000000000000000000000000"),
        403,
        "not_found",
        "no document",
    )
    .await;
    for path in ["review", "archive", "unarchive"] {
        assert_error(
            h.post(&format!("/partner/documents/{UNKNOWN}/{path}")),
            403,
            "not_found",
            UNKNOWN,
        )
        .await;
    }
    assert_error(
        h.delete(&format!("/partner/documents/{UNKNOWN}")),
        403,
        "not_found",
        UNKNOWN,
    )
    .await;
    assert_error(h.get("/partner/users/nobody"), 403, "not_found", "nobody").await;
}

/// A well-formed document id no document has.
const UNKNOWN: &str = "6f1c1a0e-2b1d-4c3e-8f00-123456789abc";

#[tokio::test]
async fn ids_in_paths_are_uuid_v4_or_the_older_24_hex_form_and_nothing_else() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let id = id_of(&h.create("u1", "g1", "draft").await);
    assert!(sdconv_server::ids::is_uuid_v4(&id), "{id}");
    // Well-formed and unknown: the spec's 403 "Not Found", in either form.
    for unknown in [UNKNOWN, "0123456789abcdef01234567"] {
        assert_error(
            h.get(&format!("/partner/documents/{unknown}")),
            403,
            "not_found",
            unknown,
        )
        .await;
    }
    // Anything else cannot be an id: 412 naming the path parameter, on every document path.
    let upper = id.to_uppercase();
    let other_version = format!("{}1{}", &id[..14], &id[15..]);
    let long = "a".repeat(5000);
    for bad in [
        "nope",
        upper.as_str(),
        other_version.as_str(),
        long.as_str(),
    ] {
        assert_error(
            h.get(&format!("/partner/documents/{bad}")),
            412,
            "precondition_failed",
            "id:",
        )
        .await;
        for path in ["review", "archive", "unarchive"] {
            assert_error(
                h.post(&format!("/partner/documents/{bad}/{path}")),
                412,
                "precondition_failed",
                "id:",
            )
            .await;
        }
        assert_error(
            h.post(&format!("/partner/documents/{bad}/export/sdxml"))
                .json(&json!({"userId": "u1"})),
            412,
            "precondition_failed",
            "id:",
        )
        .await;
        assert_error(
            h.get(&format!("/partner/documents/background-upload/{bad}")),
            412,
            "precondition_failed",
            "jobId:",
        )
        .await;
    }
    assert_error(
        h.delete("/partner/documents/nope"),
        412,
        "precondition_failed",
        "id:",
    )
    .await;
}

#[tokio::test]
async fn open_updates_the_user_and_refuses_drafts_to_others() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let access = h.create("u1", "g1", "draft").await;
    let id = id_of(&access);
    let rights = |user: &str, first: &str| {
        json!({"user": {"userId": user, "firstname": first, "lastname": "L", "email": "e@x", "company": "C", "language": "de_DE"},
               "userRole": "editor", "documentExportDuplicate": true})
    };
    let (status, again) = send_json(
        h.post(&format!("/partner/documents/{id}"))
            .json(&rights("u1", "Grace")),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(again["documentAccessLink"], access["documentAccessLink"]);
    assert_eq!(again["userIdSD"], access["userIdSD"]);
    let (_, user) = send_json(h.get("/partner/users/u1")).await;
    assert_eq!(user["firstname"], "Grace");
    assert_eq!(user["settings"]["lang"], "de_DE");
    assert_eq!(user["_id"], access["userIdSD"]);
    assert_eq!(user["avatar_color"].as_array().unwrap().len(), 3);
    // Rule 1: a draft is visible only to its creator.
    assert_error(
        h.post(&format!("/partner/documents/{id}"))
            .json(&rights("u2", "Bob")),
        403,
        "forbidden",
        "draft",
    )
    .await;
    // After review, others may open it.
    assert_eq!(
        h.post(&format!("/partner/documents/{id}/review"))
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    let (status, _) = send_json(
        h.post(&format!("/partner/documents/{id}"))
            .json(&rights("u2", "Bob")),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn rule_1_a_draft_of_another_user_is_unknown_on_every_read_path() {
    let Some(h) = Harness::start().await else {
        return;
    };
    // a's draft and review document in g1; b belongs to g1 too (a document of b's there).
    let draft = id_of(&h.create("a", "g1", "draft").await);
    let review = id_of(&h.create("a", "g1", "review").await);
    let own = id_of(&h.create("b", "g1", "review").await);

    // The single document: for b, a's draft answers as an unknown document does.
    let (status, unknown) = h.doc(UNKNOWN, Some("b")).await;
    assert_eq!(status.as_u16(), 403);
    let (status, body) = h.doc(&draft, Some("b")).await;
    assert_eq!(status.as_u16(), 403, "{body}");
    assert_eq!(body["error"], "not_found");
    assert_eq!(
        body["message"],
        unknown["message"]
            .as_str()
            .unwrap()
            .replace(UNKNOWN, &draft),
        "no hint that the draft exists"
    );
    // For its creator and without a user (the partner's own view) it is there; review
    // documents are there for b.
    assert_eq!(h.doc(&draft, Some("a")).await.0, StatusCode::OK);
    assert_eq!(h.doc(&draft, None).await.0, StatusCode::OK);
    assert_eq!(h.doc(&review, Some("b")).await.0, StatusCode::OK);

    // The lists, in each combination naming b.
    for query in [
        vec![("userId", "b"), ("groupId", "g1")],
        vec![("userId", "b")],
        vec![("groupId", "g1")],
    ] {
        let listed = ids(&h, &query).await;
        assert!(!listed.contains(&draft), "{query:?}: {listed:?}");
    }
    assert_eq!(
        ids(&h, &[("userId", "b"), ("groupId", "g1")]).await,
        sorted(vec![review.clone(), own.clone()])
    );
    // The unseen list and counts: b sees the two review documents, never a's draft.
    let (status, unseen) = send_json(
        h.get("/partner/documents/unseen/list")
            .query(&[("userId", "b")]),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let mut unseen: Vec<String> = unseen
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    unseen.sort();
    assert_eq!(unseen, sorted(vec![review.clone(), own]));
    let (_, counts) = send_json(
        h.get("/partner/documents/unseen/count")
            .query(&[("userId", "b")]),
    )
    .await;
    assert_eq!(counts["numWithAnyChange"], 2, "{counts}");
    assert_eq!(counts["groups"][0]["numWithAnyChange"], 2, "{counts}");
    // a's own counts include the draft.
    let (_, counts) = send_json(
        h.get("/partner/documents/unseen/count")
            .query(&[("userId", "a")]),
    )
    .await;
    assert_eq!(counts["numWithAnyChange"], 3, "{counts}");
}

#[tokio::test]
async fn metadata_overwrites_tags_and_returns_an_empty_object() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let id = id_of(&h.create("u1", "g1", "draft").await);
    let path = format!("/partner/documents/{id}/metadata");
    let (status, body) = send_json(
        h.post(&path)
            .json(&json!({"tags": ["a", "b"], "title": "New"})),
    )
    .await;
    assert_eq!((status, body), (StatusCode::OK, json!({})));
    h.clock.advance(10);
    send_json(h.post(&path).json(&json!({"tags": ["c"], "footer": "F"}))).await;
    let (_, rec) = h.doc(&id, None).await;
    assert_eq!(rec["tags"], json!(["c"]));
    assert_eq!(rec["title"], "New");
    assert_eq!(rec["footer"], "F");
    assert_eq!(rec["modificationDate"], h.clock_now());
}

async fn ids(h: &Harness, query: &[(&str, &str)]) -> Vec<String> {
    let (status, list) = send_json(h.get("/partner/documents/list").query(query)).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let mut v: Vec<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[tokio::test]
async fn the_three_list_combinations_and_the_deletion_filter() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let a_draft_g1 = id_of(&h.create("a", "g1", "draft").await);
    let a_review_g1 = id_of(&h.create("a", "g1", "review").await);
    let _b_draft_g1 = id_of(&h.create("b", "g1", "draft").await);
    let a_draft_g2 = id_of(&h.create("a", "g2", "draft").await);
    let b_review_g2 = id_of(&h.create("b", "g2", "review").await);
    // 1. userId and groupId: the user's drafts of the group plus its review documents.
    assert_eq!(
        ids(&h, &[("userId", "a"), ("groupId", "g1")]).await,
        sorted(vec![a_draft_g1.clone(), a_review_g1.clone()])
    );
    // 2. groupId only: review documents of the group.
    assert_eq!(
        ids(&h, &[("groupId", "g1")]).await,
        vec![a_review_g1.clone()]
    );
    assert_eq!(
        ids(&h, &[("groupId", "g2")]).await,
        vec![b_review_g2.clone()]
    );
    // 3. userId only: all the user's drafts, no review documents.
    assert_eq!(
        ids(&h, &[("userId", "a")]).await,
        sorted(vec![a_draft_g1.clone(), a_draft_g2.clone()])
    );
    // userIdSD is an alternative to userId.
    let (_, user) = send_json(h.get("/partner/users/a")).await;
    let sd = user["_id"].as_str().unwrap();
    assert_eq!(
        ids(&h, &[("userIdSD", sd)]).await,
        sorted(vec![a_draft_g1.clone(), a_draft_g2.clone()])
    );
    // Unknown user: empty.
    assert!(ids(&h, &[("userId", "nobody")]).await.is_empty());
    // Neither: 412.
    assert_error(
        h.get("/partner/documents/list"),
        412,
        "precondition_failed",
        "groupId",
    )
    .await;
    assert_error(
        h.get("/partner/documents/list")
            .query(&[("groupId", "g1"), ("withDeletionProcess", "maybe")]),
        412,
        "precondition_failed",
        "withDeletionProcess",
    )
    .await;
    // List items carry the list fields only.
    let (_, list) = send_json(h.get("/partner/documents/list").query(&[("groupId", "g1")])).await;
    assert!(list[0].get("filename").is_none() && list[0].get("modificationDate").is_some());
    // withDeletionProcess.
    let (status, _) = send_json(
        h.post(&format!(
            "/partner/documents/{a_review_g1}/deletion-process"
        ))
        .json(&json!({"userId": "a"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        ids(&h, &[("groupId", "g1"), ("withDeletionProcess", "true")]).await,
        vec![a_review_g1.clone()]
    );
    assert!(
        ids(&h, &[("groupId", "g1"), ("withDeletionProcess", "false")])
            .await
            .is_empty()
    );
    assert_eq!(ids(&h, &[("groupId", "g1")]).await, vec![a_review_g1]);
}

#[tokio::test]
async fn review_makes_a_draft_visible_to_the_group() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let id = id_of(&h.create("a", "g1", "draft").await);
    assert!(ids(&h, &[("groupId", "g1")]).await.is_empty());
    let resp = h
        .post(&format!("/partner/documents/{id}/review"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.bytes().await.unwrap().is_empty(), "no response body");
    assert_eq!(ids(&h, &[("groupId", "g1")]).await, vec![id.clone()]);
    let (_, rec) = h.doc(&id, None).await;
    assert_eq!(rec["status"], "review");
}

#[tokio::test]
async fn duplicate_rules() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let draft = id_of(&h.create("a", "g1", "draft").await);
    let review = id_of(&h.create("a", "g1", "review").await);
    h.create("b", "g1", "draft").await; // makes user b known
    let dup = |src: &str, creator: &str| {
        h.post(&format!("/partner/documents/{src}/duplicate"))
            .json(&json!({"title": "Copy", "description": "d", "creatorUserId": creator}))
    };
    // Review source: any user.
    let (status, body) = send_json(dup(&review, "b")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let copy = body["documentId"].as_str().unwrap().to_string();
    assert_ne!(copy, review);
    let (_, rec) = h.doc(&copy, None).await;
    assert_eq!(rec["creatorId"], "b");
    assert_eq!(rec["title"], "Copy");
    assert_eq!(rec["status"], "draft");
    assert_eq!(rec["groupId"], "g1");
    // Draft source: only its creator.
    assert_error(dup(&draft, "b"), 403, "forbidden", "draft").await;
    let (status, _) = send_json(dup(&draft, "a")).await;
    assert_eq!(status, StatusCode::OK);
    // Archived source: refused.
    h.post(&format!("/partner/documents/{review}/archive"))
        .send()
        .await
        .unwrap();
    assert_error(dup(&review, "a"), 412, "precondition_failed", "archived").await;
    assert_error(dup(&draft, "ghost"), 403, "not_found", "creatorUserId").await;
    assert_error(
        h.post(&format!("/partner/documents/{draft}/duplicate"))
            .json(&json!({"title": "x"})),
        412,
        "precondition_failed",
        "description",
    )
    .await;
}

#[tokio::test]
async fn archive_and_unarchive_error_when_already_in_that_state() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let id = id_of(&h.create("a", "g1", "review").await);
    let arch = format!("/partner/documents/{id}/archive");
    let unarch = format!("/partner/documents/{id}/unarchive");
    assert_error(h.post(&unarch), 412, "precondition_failed", "not archived").await;
    assert_eq!(h.post(&arch).send().await.unwrap().status(), StatusCode::OK);
    let (_, rec) = h.doc(&id, None).await;
    assert_eq!(
        (rec["archived"].clone(), rec["status"].clone()),
        (json!(true), json!("review"))
    );
    assert_error(
        h.post(&arch),
        412,
        "precondition_failed",
        "already archived",
    )
    .await;
    // Archived documents stay in lists and can be opened (2.10.4).
    assert_eq!(ids(&h, &[("groupId", "g1")]).await, vec![id.clone()]);
    let rights = json!({"user": {"userId": "a"}, "userRole": "reader"});
    let (status, _) = send_json(h.post(&format!("/partner/documents/{id}")).json(&rights)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        h.post(&unarch).send().await.unwrap().status(),
        StatusCode::OK
    );
    let (_, rec) = h.doc(&id, None).await;
    assert_eq!(rec["archived"], false);
}

#[tokio::test]
async fn delete_removes_drafts_and_refuses_review_documents_with_400() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let draft = id_of(&h.create("a", "g1", "draft").await);
    let review = id_of(&h.create("a", "g1", "review").await);
    let (status, body) = send_json(h.delete(&format!("/partner/documents/{draft}"))).await;
    assert_eq!((status, body), (StatusCode::OK, json!({})));
    assert_error(
        h.get(&format!("/partner/documents/{draft}")),
        403,
        "not_found",
        &draft,
    )
    .await;
    assert_error(
        h.delete(&format!("/partner/documents/{review}")),
        400,
        "bad_request",
        "deletion-process",
    )
    .await;
}

#[tokio::test]
async fn deletion_process_immediate_delayed_cancelled_and_swept_after_15_days() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let draft = id_of(&h.create("a", "g1", "draft").await);
    let start = |id: &str, body: Value| {
        h.post(&format!("/partner/documents/{id}/deletion-process"))
            .json(&body)
    };
    let cancel = |id: &str, body: Value| {
        h.delete(&format!("/partner/documents/{id}/deletion-process"))
            .json(&body)
    };
    assert_error(
        start(&draft, json!({"userId": "a"})),
        412,
        "precondition_failed",
        "draft",
    )
    .await;
    assert_error(
        start(&draft, json!({})),
        412,
        "precondition_failed",
        "userId",
    )
    .await;

    // Immediate: gone at once; the other users get the message.
    let now = id_of(&h.create("a", "g1", "review").await);
    let rights = json!({"user": {"userId": "b"}, "userRole": "reader"});
    send_json(h.post(&format!("/partner/documents/{now}")).json(&rights)).await;
    let (status, body) = send_json(start(
        &now,
        json!({"userId": "a", "immediate": true, "message": "bye"}),
    ))
    .await;
    assert_eq!((status, body), (StatusCode::OK, json!({})));
    assert_error(
        h.get(&format!("/partner/documents/{now}")),
        403,
        "not_found",
        &now,
    )
    .await;
    let b = h
        .server
        .state
        .store
        .user(CLIENT, "b")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        h.server.state.store.notifications(&b.id).await.unwrap(),
        vec!["bye".to_string()]
    );

    // Delayed, cancelled with a message, started again, deleted by the sweeper after 15 days.
    let later = id_of(&h.create("a", "g1", "review").await);
    assert_error(
        cancel(&later, json!({})),
        412,
        "precondition_failed",
        "no active deletion process",
    )
    .await;
    let (status, _) = send_json(start(&later, json!({"userId": "a"}))).await;
    assert_eq!(status, StatusCode::OK);
    assert_error(
        start(&later, json!({"userId": "a"})),
        412,
        "precondition_failed",
        "already",
    )
    .await;
    let (status, body) = send_json(cancel(&later, json!({"message": "kept after all"}))).await;
    assert_eq!((status, body), (StatusCode::OK, json!({})));
    assert!(
        ids(&h, &[("groupId", "g1"), ("withDeletionProcess", "true")])
            .await
            .is_empty()
    );
    // A DELETE without a body cancels too.
    send_json(start(&later, json!({"userId": "a"}))).await;
    let resp = h
        .delete(&format!("/partner/documents/{later}/deletion-process"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    send_json(start(&later, json!({"userId": "a"}))).await;
    h.clock.advance(15 * 24 * 3600 - 1);
    assert_eq!(h.server.sweep().await.unwrap().documents, 0);
    assert_eq!(h.doc(&later, None).await.0, StatusCode::OK);
    h.clock.advance(1);
    assert_eq!(h.server.sweep().await.unwrap().documents, 1);
    assert_error(
        h.get(&format!("/partner/documents/{later}")),
        403,
        "not_found",
        &later,
    )
    .await;
}

#[tokio::test]
async fn unseen_counts_and_list_follow_opens_and_changes() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let access = h.create("a", "g1", "review").await;
    let id = id_of(&access);
    h.create("a", "g2", "draft").await;
    let count = || {
        h.get("/partner/documents/unseen/count")
            .query(&[("userId", "a")])
    };
    let (_, c) = send_json(count()).await;
    assert_eq!(c["numWithAnyChange"], 2, "{c}");
    assert_eq!(c["numWithSectionChange"], 2);
    assert_eq!(c["numWithConversationChange"], 0);
    assert_eq!(c["groups"].as_array().unwrap().len(), 2);
    // Opening through the link marks it seen.
    let resp = h
        .http
        .get(access["documentAccessLink"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let (_, c) = send_json(count()).await;
    assert_eq!(c["numWithAnyChange"], 1);
    let (_, rec) = h.doc(&id, Some("a")).await;
    assert_eq!(rec["hasOpenedDocument"], true);
    assert_eq!(rec["hasUnreadSectionChanges"], false);
    // A later change makes it unseen again; a deletion-process message is a conversation change.
    h.clock.advance(5);
    send_json(
        h.post(&format!("/partner/documents/{id}/metadata"))
            .json(&json!({"title": "Changed"})),
    )
    .await;
    send_json(
        h.post(&format!("/partner/documents/{id}/deletion-process"))
            .json(&json!({"userId": "a", "message": "soon"})),
    )
    .await;
    let (_, c) = send_json(count()).await;
    assert_eq!(c["numWithAnyChange"], 2);
    assert_eq!(c["numWithConversationChange"], 1);
    let g1 = c["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["groupId"] == "g1")
        .unwrap()
        .clone();
    assert_eq!(g1["numWithConversationChange"], 1);
    let (status, list) = send_json(
        h.get("/partner/documents/unseen/list")
            .query(&[("userId", "a")]),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let changed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == id.as_str())
        .unwrap();
    assert_eq!(changed["title"], "Changed");
    assert_eq!(changed["hasUnreadConversationChanges"], true);
    assert_error(
        h.get("/partner/documents/unseen/count"),
        412,
        "precondition_failed",
        "userId",
    )
    .await;
}

#[tokio::test]
async fn freemium_quota_is_402() {
    let Some(h) = Harness::start_with(|c| c.document_quota = 2).await else {
        return;
    };
    let first = id_of(&h.create("a", "g1", "review").await);
    h.create("a", "g1", "draft").await;
    assert_error(
        h.post("/partner/documents/create")
            .json(&creation("a", "g1", "draft", "T")),
        402,
        "payment_required",
        "2 documents",
    )
    .await;
    assert_error(
        h.post(&format!("/partner/documents/{first}/duplicate"))
            .json(&json!({"title": "t", "description": "", "creatorUserId": "a"})),
        402,
        "payment_required",
        "limit",
    )
    .await;
}

#[tokio::test]
async fn catalogs_come_from_the_engine_by_get_and_post() {
    let Some(h) = Harness::start().await else {
        return;
    };
    for (path, key) in [
        ("/partner/routines", "key"),
        ("/partner/templates/word", "id"),
        ("/partner/templates/sdox", "id"),
    ] {
        for method in [reqwest::Method::GET, reqwest::Method::POST] {
            let (status, body) = send_json(h.req(method.clone(), path)).await;
            assert_eq!(status, StatusCode::OK, "{method} {path}");
            let items = body.as_array().unwrap();
            assert!(
                !items.is_empty() && items.iter().all(|i| i[key].is_string()),
                "{path}: {body}"
            );
        }
    }
    let (_, sets) = send_json(h.get("/partner/imports/word/mapping")).await;
    let keys: Vec<&str> = sets
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["key"].as_str())
        .collect();
    assert!(
        keys.contains(&"numbered-headers") && keys.contains(&"contract_1-a-i"),
        "{keys:?}"
    );
    assert!(sets[0]["name"]["de_DE"].is_string());
    let (_, sdox) = send_json(h.get("/partner/templates/sdox")).await;
    assert!(sdox[0]["pdSettings"].is_object() && sdox[0]["exportSubset"].is_array());
}

#[tokio::test]
async fn limits_beyond_the_spec_are_412_naming_the_field() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let create = |body: &Value| h.post("/partner/documents/create").json(body);
    // On create: footer (400), groupId (150), user.userId (150); at the limit it passes.
    for (pointer, limit, field) in [
        ("/footer", 400, "footer"),
        ("/groupId", 150, "groupId"),
        ("/user/userId", 150, "user.userId"),
        ("/sampleId", 150, "sampleId"),
    ] {
        let with = |len: usize| {
            let mut body = creation("u1", "g1", "draft", "T");
            let value = json!("x".repeat(len));
            match pointer.strip_prefix("/user/") {
                Some(key) => body["user"][key] = value,
                None => body[&pointer[1..]] = value,
            }
            body
        };
        if field != "sampleId" {
            let (status, body) = send_json(create(&with(limit))).await;
            assert_eq!(status, StatusCode::OK, "{field} at the limit: {body}");
        }
        assert_error(
            create(&with(limit + 1)),
            412,
            "precondition_failed",
            &format!("{field}: {} characters", limit + 1),
        )
        .await;
    }
    let id = id_of(&h.create("u1", "g1", "review").await);
    // On metadata: footer, the number of tags and the length of each.
    let metadata = |body: Value| {
        h.post(&format!("/partner/documents/{id}/metadata"))
            .json(&body)
    };
    let tags = |n: usize, len: usize| json!({"tags": vec!["t".repeat(len); n]});
    let (status, _) = send_json(metadata(tags(100, 100))).await;
    assert_eq!(status, StatusCode::OK);
    assert_error(
        metadata(tags(101, 1)),
        412,
        "precondition_failed",
        "tags: 101 tags",
    )
    .await;
    assert_error(
        metadata(tags(3, 101)),
        412,
        "precondition_failed",
        "tags[0]: 101 characters",
    )
    .await;
    assert_error(
        metadata(json!({"footer": "f".repeat(401)})),
        412,
        "precondition_failed",
        "footer: 401 characters",
    )
    .await;
    let (_, rec) = h.doc(&id, None).await;
    assert_eq!(
        rec["tags"].as_array().unwrap().len(),
        100,
        "unchanged by the refusals"
    );

    // Partner ids in bodies, queries and paths.
    let long = "u".repeat(151);
    assert_error(
        h.post(&format!("/partner/documents/{id}/duplicate"))
            .json(&json!({"title": "t", "description": "", "creatorUserId": long})),
        412,
        "precondition_failed",
        "creatorUserId: 151 characters",
    )
    .await;
    for kind in ["sdxml", "parsx", "pdf"] {
        assert_error(
            h.post(&format!("/partner/documents/{id}/export/{kind}"))
                .json(&json!({"userId": long})),
            412,
            "precondition_failed",
            "userId: 151 characters",
        )
        .await;
    }
    assert_error(
        h.post(&format!("/partner/documents/{id}/deletion-process"))
            .json(&json!({"userId": long})),
        412,
        "precondition_failed",
        "userId: 151",
    )
    .await;
    assert_error(
        h.get(&format!("/partner/users/{long}")),
        412,
        "precondition_failed",
        "userId: 151",
    )
    .await;
    assert_error(
        h.get(&format!("/partner/documents/{id}"))
            .query(&[("userId", &long)]),
        412,
        "precondition_failed",
        "userId: 151",
    )
    .await;
    for field in ["groupId", "userId", "userIdSD"] {
        assert_error(
            h.get("/partner/documents/list").query(&[(field, &long)]),
            412,
            "precondition_failed",
            &format!("{field}: 151"),
        )
        .await;
    }
    for path in ["list", "count"] {
        assert_error(
            h.get(&format!("/partner/documents/unseen/{path}"))
                .query(&[("userId", &long)]),
            412,
            "precondition_failed",
            "userId: 151",
        )
        .await;
    }
}

#[tokio::test]
async fn a_json_body_has_a_limit_of_its_own() {
    let Some(h) = Harness::start().await else {
        return;
    };
    const MIB: usize = 1024 * 1024;
    // A body of exactly 1 MiB (padded with white space) is read; one byte more is not.
    let body = creation("u1", "g1", "draft", "Padded").to_string();
    let padded = |size: usize| format!("{body}{}", " ".repeat(size - body.len()));
    let (status, access) = send_json(
        h.post("/partner/documents/create")
            .header("content-type", "application/json")
            .body(padded(MIB)),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{access}");
    assert_error(
        h.post("/partner/documents/create")
            .header("content-type", "application/json")
            .body(padded(MIB + 1)),
        412,
        "precondition_failed",
        "body: a JSON body may have 1048576 bytes at most",
    )
    .await;
    // Without a length (chunked), the body is cut at the limit.
    let (status, text) = chunked_post(&h, "/partner/documents/create", &padded(MIB + 4096)).await;
    assert_eq!(status, 412, "{text}");
    assert!(text.contains("body: a JSON body may have"), "{text}");
    // The same for the JSON part of an upload, well under the upload limit.
    let mut data = creation("u1", "g1", "draft", "T");
    data["supplemental"] = json!("");
    let big = format!("{}{}", data, " ".repeat(MIB));
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(sample_docx()).file_name("a.docx"),
        )
        .text("data", big);
    assert_error(
        h.post("/partner/imports/word/upload").multipart(form),
        412,
        "precondition_failed",
        "data: the JSON part may have",
    )
    .await;
}

/// POSTs `body` with `Transfer-Encoding: chunked` (no length announced) over a plain socket;
/// the status and the response text.
async fn chunked_post(h: &Harness, path: &str, body: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(h.server.addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: {}\r\nx-client-id: {CLIENT}\r\nauthorization: Bearer {}\r\n\
         content-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n",
        h.server.addr,
        h.jwt()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    for chunk in body.as_bytes().chunks(64 * 1024) {
        let sent = async {
            stream
                .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
                .await?;
            stream.write_all(chunk).await?;
            stream.write_all(b"\r\n").await
        };
        // The server may answer and close before the whole body is sent.
        if sent.await.is_err() {
            break;
        }
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response).await;
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}
