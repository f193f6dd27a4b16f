use super::*;
use serde_json::json;

/// The refusal of `body` to operation `method route`, if any.
fn refusal(method: Method, route: &str, body: Value) -> Option<String> {
    let c = contract();
    let op = c.operation(&method, route).expect("a published operation");
    let schema = op.request.as_ref().expect("a body");
    shape::Components(&c.components)
        .check(schema, &body, "")
        .err()
        .map(|(path, what)| format!("{path}: {what}"))
}

const TICKETS: &str = "/api/notifications/deployments/{d}/ticketing/v2/{i}/create_tickets";
const LIST: &str = "/api/agent/deployments/{d}/issues";

#[test]
fn the_contract_reads_every_operation() {
    let c = contract();
    assert_eq!(c.operations.len(), 33);
    let fix = c
        .operation(&Method::POST, "/api/v1/deployments/{a}/issues/{b}/autofix")
        .expect("autofix");
    let names: Vec<&str> = fix.path_params.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["deploymentId", "issueId"]);
}

#[test]
fn ids_are_int32_numbers_or_strings_never_null_items() {
    assert_eq!(
        refusal(Method::POST, TICKETS, json!({"issueIds": [-5, "7"]})),
        None
    );
    assert_eq!(
        refusal(Method::POST, TICKETS, json!({"issueIds": null})),
        None
    );
    let big = refusal(Method::POST, TICKETS, json!({"issueIds": [2147483648_i64]})).unwrap();
    assert!(big.starts_with(".issueIds[0]: expected an int32"), "{big}");
    let null = refusal(Method::POST, TICKETS, json!({"issueIds": [null]})).unwrap();
    assert!(null.ends_with("found null"), "{null}");
    let half = refusal(Method::POST, TICKETS, json!({"issueIds": [1.5]})).unwrap();
    assert!(half.contains("int32"), "{half}");
}

#[test]
fn ignored_fields_enums_and_times_are_checked() {
    let wrong_type = refusal(
        Method::POST,
        TICKETS,
        json!({"issueIds": [1], "issueType": "AAA"}),
    )
    .unwrap();
    assert!(
        wrong_type
            .starts_with(".issueType: unknown value \"AAA\": expected one of ISSUE_TYPE_SAST"),
        "{wrong_type}"
    );
    let empty_time = refusal(Method::POST, LIST, json!({"filter": {"since": ""}})).unwrap();
    assert_eq!(
        empty_time,
        ".filter.since: expected an RFC 3339 time, found \"\""
    );
    assert!(shape::check_text(&json!({"type": "string", "format": "date-time"}), "").is_err());
    assert!(
        shape::check_text(
            &json!({"type": "string", "format": "date-time"}),
            "2026-11-01T00:00:00Z"
        )
        .is_ok()
    );
    let enum_schema = json!({"type": "string", "format": "enum", "enum": ["A", "B"]});
    assert!(shape::check_text(&enum_schema, "").is_err());
    assert!(shape::check_text(&enum_schema, "B").is_ok());
}

#[test]
fn objects_arrays_and_int64_forms() {
    let array_for_object = refusal(Method::POST, LIST, json!({"filter": [["101576"]]})).unwrap();
    assert_eq!(
        array_for_object,
        ".filter: expected an object, found an array"
    );
    let limit_as_string = refusal(Method::POST, LIST, json!({"limit": "10"}));
    assert_eq!(limit_as_string, None, "an int64 may be a string");
    let limit_as_text = refusal(Method::POST, LIST, json!({"limit": "ten"})).unwrap();
    assert!(
        limit_as_text.starts_with(".limit: expected an int64"),
        "{limit_as_text}"
    );
    let not_object = refusal(Method::POST, LIST, json!([1])).unwrap();
    assert!(
        not_object.starts_with(".: expected an object"),
        "{not_object}"
    );
}
