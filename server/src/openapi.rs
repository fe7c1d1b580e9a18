//! The OpenAPI 3.1 document served at `/openapi.json`, kept by hand beside the router (a test
//! checks that both list the same operations).

use serde_json::{Map, Value, json};

fn schema(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn json_body(s: Value) -> Value {
    json!({"required": true, "content": {"application/json": {"schema": s}}})
}

fn multipart_body() -> Value {
    json!({"required": true, "content": {"multipart/form-data": {"schema": {
        "type": "object",
        "required": ["file", "data"],
        "properties": {
            "file": {"type": "string", "contentMediaType": "application/octet-stream"},
            "data": {"type": "string", "description": "JSON of the creation payload (word imports: plus isMagicImport, styleSetKey, routines, styleMapping)"}
        }
    }}}})
}

fn ok_json(s: Value) -> Value {
    json!({"description": "success", "content": {"application/json": {"schema": s}}})
}

fn ok_file(media: &str) -> Value {
    json!({"description": "the file", "content": {media: {"schema": {"type": "string", "contentMediaType": media}}}})
}

fn ok_empty() -> Value {
    json!({"description": "success, no body"})
}

fn errors() -> Value {
    json!({"description": "error: 401 authentication, 402 freemium limit, 403 client id missing / rights / not found / upload too large, 404 unknown job (or a file name the file store refuses), 412 parameters (the message names the field), 400 DELETE of a review document", "content": {"application/json": {"schema": schema("Error")}}})
}

fn path_param(name: &str) -> Value {
    json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}})
}

/// A path parameter naming a document or a job: a UUID v4, or the 24 hex digits of an id of a
/// store written before ids were UUIDs. Anything else is a 412 naming the parameter.
fn id_param(name: &str) -> Value {
    json!({"name": name, "in": "path", "required": true, "schema": {
        "type": "string",
        "pattern": ID_PATTERN,
        "description": "a lowercase, hyphenated UUID v4 (the form new ids have), or 24 lowercase hex digits (ids of stores written before); anything else is a 412 naming the parameter"
    }})
}

/// [`crate::ids::is_document_id`] as a pattern.
pub const ID_PATTERN: &str =
    "^([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|[0-9a-f]{24})$";

/// A partner-system id (user, group) in a path or query: at most 150 characters.
fn partner_id_schema() -> Value {
    json!({"type": "string", "maxLength": 150})
}

fn query_param(name: &str, required: bool, s: Value) -> Value {
    json!({"name": name, "in": "query", "required": required, "schema": s})
}

/// One operation; `params` are parameter objects, `body` a request body or null.
fn op(summary: &str, params: Vec<Value>, body: Value, ok: (&str, Value)) -> Value {
    let mut o = Map::new();
    o.insert("summary".into(), json!(summary));
    if !params.is_empty() {
        o.insert("parameters".into(), Value::Array(params));
    }
    if !body.is_null() {
        o.insert("requestBody".into(), body);
    }
    o.insert("responses".into(), json!({ok.0: ok.1, "default": errors()}));
    Value::Object(o)
}

fn public(mut operation: Value) -> Value {
    if let Some(o) = operation.as_object_mut() {
        o.insert("security".into(), json!([]));
    }
    operation
}

/// Marks the operations of `path_item` as this server's own, beyond the partner spec: the
/// `x-sdconv-extension` flag and the `extension` tag let a client generator leave them out.
fn extension(mut path_item: Value) -> Value {
    if let Some(ops) = path_item.as_object_mut() {
        for operation in ops.values_mut() {
            if let Some(o) = operation.as_object_mut() {
                o.insert("x-sdconv-extension".into(), json!(true));
                o.insert("tags".into(), json!(["extension"]));
            }
        }
    }
    path_item
}

fn string_props(names: &[&str]) -> Map<String, Value> {
    names
        .iter()
        .map(|n| (n.to_string(), json!({"type": "string"})))
        .collect()
}

fn components() -> Value {
    let user = json!({
        "type": "object", "required": ["userId"],
        "properties": {
            "userId": {"type": "string", "minLength": 1, "maxLength": 150},
            "email": {"type": "string", "maxLength": 150},
            "firstname": {"type": "string", "maxLength": 150},
            "lastname": {"type": "string", "maxLength": 150},
            "company": {"type": "string", "maxLength": 150},
            "language": {"enum": ["de_DE", "en_EN", "ru_RU", "fr_CA"]}
        }
    });
    let role = json!({"enum": ["reader", "commentator", "editor", "approver"]});
    let creation = json!({
        "type": "object",
        "required": ["user", "title", "description", "userRole", "groupId"],
        "properties": {
            "user": schema("User"),
            "title": {"type": "string", "minLength": 1, "maxLength": 200},
            "description": {"type": "string", "maxLength": 400},
            "userRole": role,
            "groupId": {"type": "string", "minLength": 1, "maxLength": 150},
            "sectionHistory": {"type": "boolean"},
            "documentExportDuplicate": {"type": "boolean"},
            "supplemental": {"type": "string", "maxLength": 400},
            "status": {"enum": ["draft", "review"]},
            "admin": {"type": "boolean"},
            "subtitle": {"type": "string", "maxLength": 300},
            "filename": {"type": "string", "maxLength": 200},
            "footer": {"type": "string", "maxLength": 400},
            "sampleId": {"type": "string", "maxLength": 150}
        }
    });
    let mut record_props = string_props(&[
        "id",
        "title",
        "subtitle",
        "description",
        "supplemental",
        "creatorIdSD",
        "creatorId",
        "groupId",
        "filename",
        "footer",
        "sampleId",
    ]);
    for (k, v) in [
        (
            "tags",
            json!({"type": "array", "items": {"type": "string"}}),
        ),
        ("status", json!({"enum": ["draft", "review"]})),
        ("createdDate", json!({"type": "integer"})),
        ("modificationDate", json!({"type": "integer"})),
        ("hasUnreadSectionChanges", json!({"type": "boolean"})),
        ("hasUnreadConversationChanges", json!({"type": "boolean"})),
        ("hasOpenedDocument", json!({"type": "boolean"})),
        ("archived", json!({"type": "boolean"})),
    ] {
        record_props.insert(k.into(), v);
    }
    let counts = |extra: bool| {
        let mut p = Map::new();
        for k in [
            "numWithAnyChange",
            "numWithConversationChange",
            "numWithSectionChange",
        ] {
            p.insert(k.into(), json!({"type": "integer", "minimum": 0}));
        }
        if extra {
            p.insert("groupId".into(), json!({"type": "string"}));
        } else {
            p.insert(
                "groups".into(),
                json!({"type": "array", "items": schema("GroupCounts")}),
            );
        }
        json!({"type": "object", "required": ["numWithAnyChange", "numWithConversationChange", "numWithSectionChange"], "properties": p})
    };
    let locales = json!({"type": "object", "additionalProperties": {"type": "string"}});
    // The engine's names, as the CLI's --pdf-standard takes them.
    let standards = sdconv::export::pdf::PdfStandard::ALL.map(|p| p.as_str());
    json!({
        "securitySchemes": {
            "clientId": {"type": "apiKey", "in": "header", "name": "x-client-id"},
            "jwt": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT (HS256/384/512; claims iat, iss, jti; exp and nbf honoured when present, with the iat leeway)"},
            "apiKey": {"type": "apiKey", "in": "header", "name": "x-api-key"},
            "adminToken": {"type": "apiKey", "in": "header", "name": "authorization", "description": "adminAccessToken from POST /partner/authenticate"}
        },
        "schemas": {
            "Error": {"type": "object", "required": ["error", "message"], "properties": {
                "error": {"type": "string", "description": "unauthorized, payment_required, forbidden, not_found, too_large, precondition_failed, bad_request, job_not_found, no_file (404: a stored file's name the file store refuses), no_route, method_not_allowed, timeout, unavailable (503: the database is away; retry), internal"},
                "message": {"type": "string"}}},
            "User": user,
            "Creation": creation,
            "Rights": {"type": "object", "required": ["user", "userRole"], "properties": {
                "user": schema("User"), "userRole": role,
                "sectionHistory": {"type": "boolean"}, "documentExportDuplicate": {"type": "boolean"}, "admin": {"type": "boolean"}}},
            "AccessResult": {"type": "object", "required": ["documentAccessLink", "userIdSD", "documentId"], "properties": string_props(&["documentAccessLink", "userIdSD", "documentId"])},
            "DocumentRecord": {"type": "object", "required": ["id", "title", "status", "archived", "groupId", "createdDate", "modificationDate"], "properties": record_props},
            "UnseenCounts": counts(false),
            "GroupCounts": counts(true),
            "Metadata": {"type": "object", "properties": {
                "title": {"type": "string", "minLength": 1, "maxLength": 200},
                "description": {"type": "string", "maxLength": 400},
                "subtitle": {"type": "string", "maxLength": 300},
                "filename": {"type": "string", "maxLength": 200},
                "footer": {"type": "string", "maxLength": 400},
                "supplemental": {"type": "string", "maxLength": 400},
                "tags": {"type": "array", "maxItems": 100, "items": {"type": "string", "maxLength": 100}}}},
            "Duplicate": {"type": "object", "required": ["title", "description", "creatorUserId"], "properties": {
                "title": {"type": "string", "minLength": 1, "maxLength": 200},
                "description": {"type": "string", "maxLength": 400},
                "creatorUserId": {"type": "string", "minLength": 1, "maxLength": 150}}},
            "DeletionStart": {"type": "object", "required": ["userId"], "properties": {
                "userId": {"type": "string", "minLength": 1, "maxLength": 150}, "immediate": {"type": "boolean"}, "message": {"type": "string"}}},
            "DeletionCancel": {"type": "object", "properties": {"message": {"type": "string"}}},
            "ExportUser": {"type": "object", "required": ["userId"], "properties": {"userId": {"type": "string", "minLength": 1, "maxLength": 150}}},
            "HtmlExport": {
                "description": "Either form; a body with both type and mode is a 412 naming mode.",
                "oneOf": [schema("HtmlExportType"), schema("HtmlExportMode")]},
            "HtmlExportType": {"type": "object", "required": ["userId", "type", "download"],
                "description": "The spec's form: tracked changes marked, comments listed.",
                "properties": {
                "userId": {"type": "string", "minLength": 1, "maxLength": 150}, "type": {"enum": ["html", "html_all_in_one"]}, "download": {"type": "boolean"}}},
            "HtmlExportMode": {"type": "object", "required": ["userId", "mode"],
                "description": "The older form, as clients written against earlier versions of the service send it; answered with a zip.",
                "properties": {
                "userId": {"type": "string", "minLength": 1, "maxLength": 150},
                "mode": {"enum": ["final", "news", "allInOne", "redlineAndPending"], "description": "final: every tracked change accepted, no comment marks (a page with its stylesheet and pictures); allInOne: final as one self-contained HTML file; redlineAndPending: insertions and deletions marked, comments listed; news: answered as redlineAndPending (no per-user change history exists to narrow it to what the user has not seen)."},
                "download": {"type": "boolean", "default": true, "description": "false: the page URL instead of the zip, as with type"}}},
            "WordExport": {"type": "object", "required": ["userId", "templateId", "settings"], "properties": {
                "userId": {"type": "string", "minLength": 1, "maxLength": 150}, "templateId": {"type": "string"},
                "settings": {"type": "object", "properties": {
                    "language": {"enum": ["de_DE", "en_EN", "ru_RU", "fr_CA"]},
                    "imageCaption": {"type": "boolean"}, "tableCaption": {"type": "boolean"},
                    "textToc": {"type": "boolean"}, "imageToc": {"type": "boolean"},
                    "tableToc": {"type": "boolean"}, "compressedImages": {"type": "boolean"}}}}},
            "PdfExport": {"type": "object", "required": ["userId"], "properties": {
                "userId": {"type": "string", "minLength": 1, "maxLength": 150},
                "settings": {"type": "object", "description": "as WordExport.settings; language defaults to the user's"},
                "paper": {"enum": ["a4", "letter"]},
                "pdfStandard": {"enum": standards,
                    "description": "the standard to meet (PDF/UA-1, PDF/A-2b, -2u, -3b, PDF/A-2b with PDF/UA-1), as the CLI's --pdf-standard; a document that cannot is a 412 naming every reason; default none (tagged PDF)"},
                "hyphenate": {"type": "boolean", "description": "hyphenate with the paragraph language's patterns even when the document does not ask"}}},
            "Credentials": {"type": "object", "required": ["email", "password"], "properties": string_props(&["email", "password"])},
            "Job": {"type": "object", "required": ["state"], "properties": {
                "state": {"enum": ["PENDING", "SUCCESS", "FAILURE"]},
                "documentId": {"type": "string"}, "userIdSD": {"type": "string"}, "documentAccessLink": {"type": "string"}}},
            "UserInfo": {"type": "object", "required": ["_id", "settings"], "properties": {
                "_id": {"type": "string"}, "company": {"type": "string"}, "email": {"type": "string"},
                "is_internal": {"type": "boolean"}, "firstname": {"type": "string"}, "lastname": {"type": "string"},
                "picture_small": {"type": "string"}, "picture": {"type": "string"}, "picture_mobile": {"type": "string"},
                "settings": {"type": "object"}, "license_info": {"type": "object"},
                "last_seen_sd_version": {"type": ["string", "null"]},
                "avatar_color": {"type": "array", "items": {"type": "integer"}, "minItems": 3, "maxItems": 3},
                "system_role": {"type": "string"}}},
            "WordTemplate": {"type": "object", "required": ["id", "name", "description"], "properties": string_props(&["id", "name", "description"])},
            "SdoxTemplate": {"type": "object", "required": ["id", "name"], "properties": {
                "id": {"type": "string"}, "name": {"type": "string"}, "filename": {"type": "string"}, "description": {"type": "string"},
                "pdSettings": {"type": "object"}, "inlineStyleSubset": {"type": "array", "items": {"type": "string"}},
                "exportSubset": {"type": "array", "items": {"type": "object"}}}},
            "Routine": {"type": "object", "required": ["key", "type", "name", "actions"], "properties": {
                "key": {"type": "string"}, "type": {"type": "string"}, "name": locales.clone(), "actions": {"type": "array"}}},
            "StyleSet": {"type": "object", "required": ["key", "name"], "properties": {"key": {"type": "string"}, "name": locales}}
        }
    })
}

/// The document; `server` is the public base URL.
pub fn document(server: &str) -> Value {
    let id = || id_param("id");
    let array = |name: &str| json!({"type": "array", "items": schema(name)});
    let get_post_catalog = |summary: &str, item: &str| {
        let o = op(summary, vec![], Value::Null, ("200", ok_json(array(item))));
        json!({"get": o.clone(), "post": o})
    };
    let export = |summary: &str, body: &str, ok: Value| json!({"post": op(summary, vec![id()], json_body(schema(body)), ("200", ok))});
    let page = |summary: &str, params: Vec<Value>| {
        json!({"get": public(json!({
            "summary": summary,
            "description": "A page an access link opened is served only with the session cookie the link set (sdconv_page, scoped to the page's path; an hour at most, ended by a new link for the same user into the document or by the document's deletion); the page of an html export (download false) is a link that whoever holds it may open for an hour. Every answer carries Content-Security-Policy (no scripts; pictures, styles and fonts from the page itself, data: pictures), Referrer-Policy: no-referrer, Cache-Control: no-store and X-Content-Type-Options: nosniff.",
            "parameters": params,
            "responses": {
                "200": {"description": "the page or file", "content": {"*/*": {"schema": {"type": "string"}}}},
                "403": {"description": "expired, closed or unknown page, or a page of a link opened without its session cookie", "content": {
                    "text/html": {"schema": {"type": "string"}},
                    "application/json": {"schema": schema("Error")}}},
                "404": {"description": "the page has no such file (also a path with an empty segment)", "content": {
                    "text/html": {"schema": {"type": "string"}}}},
                "default": errors()
            }
        }))})
    };
    let legacy_auth = |summary: &str, fields: &[&str]| {
        let mut o = op(
            summary,
            vec![],
            json_body(schema("Credentials")),
            (
                "200",
                ok_json(
                    json!({"type": "object", "required": fields, "properties": string_props(fields)}),
                ),
            ),
        );
        if let Some(m) = o.as_object_mut() {
            m.insert("security".into(), json!([{"apiKey": []}]));
        }
        json!({"post": o})
    };
    let list_params = vec![
        query_param("groupId", false, partner_id_schema()),
        query_param("userId", false, partner_id_schema()),
        query_param("userIdSD", false, partner_id_schema()),
        query_param("withDeletionProcess", false, json!({"type": "boolean"})),
    ];
    let user_q = || {
        query_param(
            "userId",
            true,
            json!({"type": "string", "minLength": 1, "maxLength": 150}),
        )
    };
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "sdconv partner API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The partner API of the collaborative document service on the sdconv engine. Errors share one body: {\"error\": code, \"message\": text}; 403 also stands for \"not found\" and \"request entity too large\", as the spec lists it. Document and job ids are lowercase, hyphenated UUID v4 (ids of stores written before, 24 hex digits, stay valid); user ids (userIdSD) are 24 hex digits. Limits beyond the spec, each a 412 naming the field: partner ids (userId, creatorUserId, user.userId, userIdSD) and groupId at most 150 characters; footer 400; tags at most 100 of at most 100 characters each; a JSON body, and the data part of an upload, at most 1 MiB (a whole request over the upload limit is a 403)."
        },
        "servers": [{"url": server}],
        "tags": [{"name": "extension", "description": "Operations of this server beyond the partner spec (flagged x-sdconv-extension)"}],
        "security": [{"clientId": [], "jwt": []}, {"apiKey": [], "adminToken": []}],
        "paths": {
            "/health": {"get": public(op("Liveness", vec![], Value::Null, ("200", ok_json(json!({"type": "object", "required": ["status"], "properties": {"status": {"const": "ok"}}})))))},
            "/openapi.json": {"get": public(op("This document", vec![], Value::Null, ("200", ok_json(json!({"type": "object"})))))},
            "/partner/authenticate": legacy_auth("Legacy: admin access token", &["userId", "adminAccessToken"]),
            "/users/authenticate": legacy_auth("Legacy, deprecated form", &["userId", "refreshToken", "accessToken"]),
            "/partner/users/{userId}": {"get": op("User information record", vec![json!({"name": "userId", "in": "path", "required": true, "schema": {"type": "string", "minLength": 1, "maxLength": 150}})], Value::Null, ("200", ok_json(schema("UserInfo"))))},
            "/partner/routines": get_post_catalog("Cleanup routines", "Routine"),
            "/partner/imports/word/mapping": {"get": op("Style sets of the magic import", vec![], Value::Null, ("200", ok_json(array("StyleSet"))))},
            "/partner/templates/word": get_post_catalog("Word export templates", "WordTemplate"),
            "/partner/templates/sdox": get_post_catalog("sdox templates", "SdoxTemplate"),
            "/partner/documents/create": {"post": op("Create a document", vec![], json_body(schema("Creation")), ("200", ok_json(schema("AccessResult"))))},
            "/partner/documents/list": {"get": op("List documents (userId and/or groupId)", list_params, Value::Null, ("200", ok_json(array("DocumentRecord"))))},
            "/partner/documents/unseen/count": {"get": op("Counts of documents with unseen changes", vec![user_q()], Value::Null, ("200", ok_json(schema("UnseenCounts"))))},
            "/partner/documents/unseen/list": {"get": op("Documents with unseen changes", vec![user_q()], Value::Null, ("200", ok_json(array("DocumentRecord"))))},
            "/partner/documents/background-upload/{jobId}": {"get": op("Result of a background word import", vec![id_param("jobId")], Value::Null, ("200", ok_json(schema("Job"))))},
            "/partner/documents/{id}": {
                "get": op("One document", vec![id(), query_param("userId", false, partner_id_schema())], Value::Null, ("200", ok_json(schema("DocumentRecord")))),
                "post": op("Open a document", vec![id()], json_body(schema("Rights")), ("200", ok_json(schema("AccessResult")))),
                "delete": op("Delete a draft", vec![id()], Value::Null, ("200", ok_json(json!({"type": "object"}))))
            },
            "/partner/documents/{id}/metadata": {"post": op("Set metadata (tags overwritten)", vec![id()], json_body(schema("Metadata")), ("200", ok_json(json!({"type": "object"}))))},
            "/partner/documents/{id}/review": {"post": op("Draft to review", vec![id()], Value::Null, ("200", ok_empty()))},
            "/partner/documents/{id}/duplicate": {"post": op("Duplicate", vec![id()], json_body(schema("Duplicate")), ("200", ok_json(json!({"type": "object", "required": ["documentId"], "properties": string_props(&["documentId"])}))))},
            "/partner/documents/{id}/archive": {"post": op("Archive", vec![id()], Value::Null, ("200", ok_empty()))},
            "/partner/documents/{id}/unarchive": {"post": op("Unarchive", vec![id()], Value::Null, ("200", ok_empty()))},
            "/partner/documents/{id}/deletion-process": {
                "post": op("Start a deletion process (review documents)", vec![id()], json_body(schema("DeletionStart")), ("200", ok_json(json!({"type": "object"})))),
                "delete": op("Cancel the deletion process", vec![id()], json!({"required": false, "content": {"application/json": {"schema": schema("DeletionCancel")}}}), ("200", ok_json(json!({"type": "object"}))))
            },
            "/partner/documents/{id}/export/sdxml": export("Export sd.xml zip", "ExportUser", ok_file("application/zip")),
            "/partner/documents/{id}/export/parsx": export("Export parsX zip", "ExportUser", ok_file("application/zip")),
            "/partner/documents/{id}/export/html": export("Export HTML: zip (download) or {url}; {userId, type, download} or the older {userId, mode}", "HtmlExport", json!({"description": "zip, or the page URL", "content": {
                "application/zip": {"schema": {"type": "string", "contentMediaType": "application/zip"}},
                "application/json": {"schema": {"type": "object", "required": ["url"], "properties": {"url": {"type": "string"}}}}}})),
            "/partner/documents/{id}/export/word": export("Export Word", "WordExport", ok_file("application/vnd.openxmlformats-officedocument.wordprocessingml.document")),
            "/partner/documents/{id}/export/pdf": extension(export("Export PDF (extension of this server, not in the partner spec)", "PdfExport", ok_file("application/pdf"))),
            "/partner/imports/word/upload": {"post": op("Import a .docx", vec![], multipart_body(), ("200", ok_json(schema("AccessResult"))))},
            "/partner/imports/word/background-upload": {"post": op("Import a .docx in the background", vec![], multipart_body(), ("200", ok_json(json!({"type": "object", "required": ["jobId"], "properties": string_props(&["jobId"])}))))},
            "/partner/imports/sdxml/upload": {"post": op("Import an sd.xml zip", vec![], multipart_body(), ("200", ok_json(schema("AccessResult"))))},
            "/access/{token}": {"get": public(json!({
                "summary": "documentAccessLink: one use, one minute",
                "parameters": [path_param("token")],
                "responses": {
                    "303": {"description": "to the document's page, with the cookie of the page's session (HttpOnly, SameSite=Lax, Secure when the public URL is https, Path the page's own, Max-Age 3600)",
                        "headers": {"Set-Cookie": {"schema": {"type": "string"}}}},
                    "403": {"description": "used, expired or unknown link", "content": {"text/html": {"schema": {"type": "string"}}}},
                    "default": errors()
                }
            }))},
            "/pages/{token}": {"get": public(json!({
                "summary": "A rendered page (adds the trailing slash)",
                "parameters": [path_param("token")],
                "responses": {
                    "308": {"description": "to the page"},
                    "403": {"description": "not a page token", "content": {"text/html": {"schema": {"type": "string"}}}},
                    "default": errors()
                }
            }))},
            "/pages/{token}/": page("A rendered page", vec![path_param("token")]),
            "/pages/{token}/{path}": page("A file of a rendered page (style.css, images/…)", vec![path_param("token"), path_param("path")])
        },
        "components": components()
    })
}
