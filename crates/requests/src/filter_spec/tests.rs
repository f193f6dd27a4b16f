use super::*;
use findings_model::*;

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// A value the field takes: for enums, the first value's label.
fn sample(kind: FieldKind) -> String {
    match kind {
        Strings | Text => "x".into(),
        Bool => "true".into(),
        Time => "2026-01-01".into(),
        Enums(v) | Enum(v) => v()[0].1.to_owned(),
    }
}

fn list(list: &[(&str, &str)]) -> Result<ListSelection, UsageError> {
    build::<ListSelection>(LIST_FILTER, "issues", &pairs(list)).map(Option::unwrap_or_default)
}

#[test]
fn every_list_filter_field_is_reachable() {
    for field in LIST_FILTER {
        let built = list(&[(field.name, &sample(field.kind))]).unwrap();
        assert!(!built.is_empty(), "{} did not reach the filter", field.name);
        // And it comes back as one pair of that field that builds it again
        // (what the form and :filter use).
        let back = pairs_of(LIST_FILTER, &built);
        assert_eq!(back.len(), 1, "{}: {back:?}", field.name);
        assert_eq!(back[0].0, field.name);
        assert_eq!(list_owned(&back), built, "{}", field.name);
    }
}

#[test]
fn every_report_and_search_field_is_reachable() {
    for (schema, op) in [(REPORT_FILTERS, "report"), (SEARCH_FILTERS, "search")] {
        for field in schema {
            let value = sample(field.kind);
            let json = if op == "report" {
                let r: ReportFilters = build(schema, op, &pairs(&[(field.name, &value)]))
                    .unwrap()
                    .unwrap();
                serde_json::to_value(r).unwrap()
            } else {
                let s: SearchFilters = build(schema, op, &pairs(&[(field.name, &value)]))
                    .unwrap()
                    .unwrap();
                serde_json::to_value(s).unwrap()
            };
            let top = field.name.split('.').next().unwrap();
            assert!(
                json.get(top).is_some(),
                "{op}: {} did not reach the filter: {json}",
                field.name
            );
        }
    }
}

#[test]
fn issue_types_are_the_top_level_selection_not_a_filter_field() {
    let s = list(&[("issueTypes", "sca"), ("severities", "critical")]).unwrap();
    assert_eq!(s.issue_types, vec![IssueType::Sca]);
    assert!(s.filter.legacy_issue_types.is_empty());
    let mut req = ListIssuesRequest::default();
    s.apply_to(&mut req);
    let json = serde_json::to_value(&req).unwrap();
    assert_eq!(json["issueTypes"], serde_json::json!(["ISSUE_TYPE_SCA"]));
    assert_eq!(
        json["filter"],
        serde_json::json!({"severities": ["SEVERITY_CRITICAL"]})
    );
    // Types alone leave no filter object at all.
    let mut req = ListIssuesRequest::default();
    list(&[("issueTypes", "secrets")])
        .unwrap()
        .apply_to(&mut req);
    assert!(req.filter.is_none());
}

#[test]
fn arrays_accumulate_and_enums_accept_short_names() {
    let s = list(&[
        ("issueTypes", "sca"),
        ("issueTypes", "ISSUE_TYPE_SECRETS"),
        ("refs", "main"),
        ("refs", "dev"),
    ])
    .unwrap();
    assert_eq!(s.issue_types, vec![IssueType::Sca, IssueType::Secrets]);
    assert_eq!(s.filter.refs, vec!["main", "dev"]);
}

#[test]
fn what_a_table_shows_is_a_value_the_filters_take() {
    // The SEVERITY, STATE and TYPE columns show labels; each is accepted as
    // shown, in any case, with '-', '_' or a space between words.
    for (field, shown, wire) in [
        ("severities", "critical", "SEVERITY_CRITICAL"),
        ("severities", "HIGH", "SEVERITY_HIGH"),
        ("aggregateIssueStates", "open", "AGGREGATE_ISSUE_STATE_OPEN"),
        (
            "aggregateIssueStates",
            "provisionally ignored",
            "AGGREGATE_ISSUE_STATE_PROVISIONALLY_IGNORED_APP",
        ),
        (
            "aggregateIssueStates",
            "Provisionally-Ignored",
            "AGGREGATE_ISSUE_STATE_PROVISIONALLY_IGNORED_APP",
        ),
        (
            "aggregateIssueStates",
            "ignored_in_code",
            "AGGREGATE_ISSUE_STATE_IGNORED_CODE",
        ),
        // The wire name, and the wire name without its prefix, still work.
        (
            "aggregateIssueStates",
            "ignored-code",
            "AGGREGATE_ISSUE_STATE_IGNORED_CODE",
        ),
        (
            "aggregateIssueStates",
            "AGGREGATE_ISSUE_STATE_FIXED",
            "AGGREGATE_ISSUE_STATE_FIXED",
        ),
        ("issueTypes", "code", "ISSUE_TYPE_SAST"),
        ("issueTypes", "sast", "ISSUE_TYPE_SAST"),
        ("issueTypes", "ai code", "ISSUE_TYPE_AI_SAST"),
        (
            "triageReasons",
            "false positive",
            "FINDING_TRIAGE_REASON_FALSE_POSITIVE",
        ),
        ("clickToFixPrStates", "no-pr", "CLICK_TO_FIX_PR_STATE_NO_PR"),
        ("transitivities", "unknown", "UNKNOWN_TRANSITIVITY"),
        ("relativeSince", "one week", "RELATIVE_SINCE_ONE_WEEK"),
    ] {
        let built = list(&[(field, shown)]).unwrap_or_else(|e| panic!("{field}={shown}: {e}"));
        let json = serde_json::to_value(&built).unwrap();
        let got = json[field]
            .as_array()
            .map_or(&json[field], |a| &a[0])
            .clone();
        assert_eq!(got, serde_json::json!(wire), "{field}={shown}");
    }
}

#[test]
fn every_vocabulary_reads_each_value_back_unambiguously() {
    for schema in [LIST_FILTER, REPORT_FILTERS, SEARCH_FILTERS] {
        for field in schema {
            let (Enums(names) | Enum(names)) = field.kind else {
                continue;
            };
            let names = names();
            assert!(!names.is_empty(), "{}", field.name);
            for (wire, label) in &names {
                assert!(!wire.ends_with("_UNSPECIFIED"), "{}: {wire}", field.name);
                for typed in [wire.to_string(), label.to_string(), wire::typed_name(label)] {
                    assert_eq!(
                        enum_value(&names, &typed),
                        Some(*wire),
                        "{}: {typed:?}",
                        field.name
                    );
                }
                assert_eq!(
                    label.to_lowercase(),
                    *label,
                    "{}: labels are lower-case",
                    field.name
                );
            }
        }
    }
}

#[test]
fn list_severities_are_the_published_four_and_search_has_info() {
    let names: Vec<&str> = match LIST_FILTER[1].kind {
        Enums(v) => v().iter().map(|n| n.0).collect(),
        _ => unreachable!(),
    };
    assert_eq!(
        names,
        [
            "SEVERITY_CRITICAL",
            "SEVERITY_HIGH",
            "SEVERITY_MEDIUM",
            "SEVERITY_LOW"
        ]
    );
    let e = list(&[("severities", "info")]).unwrap_err();
    assert!(e.0.contains("critical, high, medium, low"), "{}", e.0);
    let s: SearchFilters = build(
        SEARCH_FILTERS,
        "search",
        &pairs(&[("severities", "info"), ("triageReasons", "no time")]),
    )
    .unwrap()
    .unwrap();
    assert_eq!(s.severities, vec![Severity::Info]);
    assert_eq!(s.triage_reasons, vec![AgenticTriageReason::NoTime]);
}

#[test]
fn errors_list_the_values_one_types_not_wire_names() {
    let e = list(&[("aggregateIssueStates", "closed")]).unwrap_err();
    assert_eq!(
        e.0,
        "filter field aggregateIssueStates: \"closed\" is not one of open, reviewing, fixing, \
         fixed, removed, ignored, ignored-in-code, provisionally-ignored, unknown"
    );
    let e = list(&[("issueTypes", "java")]).unwrap_err();
    assert!(
        e.0.contains("code, sca, secrets, research, ai-code"),
        "{}",
        e.0
    );
    assert!(!e.0.contains("ISSUE_TYPE_"), "{}", e.0);
    // A friendly flag's mistake names the flag.
    let e = check_flag(LIST_FILTER, "severities", "--severity", &["urgent".into()]).unwrap_err();
    assert_eq!(
        e.0,
        "--severity: \"urgent\" is not one of critical, high, medium, low"
    );
    assert!(
        check_flag(
            LIST_FILTER,
            "severities",
            "--severity",
            &["Critical".into()]
        )
        .is_ok()
    );
}

#[test]
fn unknown_fields_and_bad_values_name_the_valid_ones() {
    let e = list(&[("repoName", "x")]).unwrap_err();
    assert!(
        e.0.contains("unknown filter field \"repoName\"") && e.0.contains("repositoryNames"),
        "{}",
        e.0
    );
    let e = list(&[("includeArchived", "maybe")]).unwrap_err();
    assert!(e.0.contains("true or false"), "{}", e.0);
    let e = list(&[("since", "yesterday")]).unwrap_err();
    assert!(e.0.contains("RFC 3339"), "{}", e.0);
    let e = list(&[("since", "1d"), ("since", "2d")]).unwrap_err();
    assert!(e.0.contains("twice"), "{}", e.0);
    let e = list(&[("tab", "open"), ("tab", "closed")]).unwrap_err();
    assert!(e.0.contains("twice"), "{}", e.0);
    // The frontend-only field is not offered.
    assert!(list(&[("filterIssueTypes", "sca")]).is_err());
}

#[test]
fn pairs_of_shows_enum_values_as_typed_and_round_trips() {
    let s = list(&[
        ("aggregateIssueStates", "PROVISIONALLY_IGNORED_APP"),
        ("aggregateIssueStates", "open"),
        ("repositoryNames", "acme/api"),
        ("includeArchived", "false"),
        ("tab", "ISSUE_TAB_CLOSED"),
    ])
    .unwrap();
    let shown = pairs_of(LIST_FILTER, &s);
    assert_eq!(
        shown,
        pairs(&[
            ("aggregateIssueStates", "provisionally-ignored"),
            ("aggregateIssueStates", "open"),
            ("repositoryNames", "acme/api"),
            ("tab", "closed"),
            ("includeArchived", "false"),
        ])
    );
    assert_eq!(list_owned(&shown), s);
}

fn list_owned(p: &[(String, String)]) -> ListSelection {
    build::<ListSelection>(LIST_FILTER, "issues", p)
        .unwrap()
        .unwrap_or_default()
}

#[test]
fn enum_prefixes_are_exact() {
    let v = FindingReachability::names();
    assert_eq!(
        enum_value(&v, "reachable"),
        Some("FINDING_REACHABILITY_REACHABLE")
    );
    assert_eq!(
        enum_value(&v, "always-reachable"),
        Some("FINDING_REACHABILITY_ALWAYS_REACHABLE")
    );
    assert_eq!(enum_value(&v, "bogus"), None);
    assert_eq!(enum_value(&v, ""), None);
}

#[test]
fn times_in_three_forms() {
    assert_eq!(
        parse_time("2026-01-31").unwrap().to_rfc3339(),
        "2026-01-31T00:00:00+00:00"
    );
    assert!(parse_time("2026-01-31T12:00:00+02:00").is_ok());
    let week = parse_time("7d").unwrap();
    assert!((Utc::now() - week).num_days() == 7);
    assert!(parse_time("7x").is_err());
    assert!(parse_time("7é").is_err());
}

#[test]
fn a_list_is_split_at_commas_and_a_backslash_keeps_one() {
    assert_eq!(split_list("a,b"), vec!["a", "b"]);
    assert_eq!(split_list(" a , ,b,"), vec!["a", "b"]);
    assert_eq!(split_list("one"), vec!["one"]);
    assert!(split_list(" , ").is_empty());
    assert_eq!(split_list(r"x\,y,z"), vec!["x,y", "z"]);
    // A backslash before anything else is part of the value.
    assert_eq!(split_list(r"C:\src\a.rs"), vec![r"C:\src\a.rs"]);
}

#[test]
fn a_joined_list_reads_back_as_it_was() {
    for values in [vec!["a", "b"], vec!["x,y", "z"], vec!["one"], vec![]] {
        let text = join_list(&values);
        assert_eq!(split_list(&text), values, "{text}");
    }
    assert_eq!(join_list(&["x,y", "z"]), r"x\,y, z");
}
