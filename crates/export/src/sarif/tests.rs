use super::*;
use findings_model::*;
use serde_json::{Value, json};

fn finding(id: &str, rule: &str, severity: Severity) -> Issue {
    Issue {
        id: Some(id.into()),
        rule_id: Some(rule.into()),
        rule_path: Some(rule.into()),
        severity: Some(severity),
        message: Some(format!("message of {id}")),
        file_path: Some("src/app.py".into()),
        line: Some(10),
        ..Default::default()
    }
}

fn document(issues: &[Issue]) -> Value {
    let mut log = SarifLog::new();
    let mut out = Vec::new();
    for i in issues {
        log.add(&mut out, i).unwrap();
    }
    log.finish(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.ends_with("}\n"));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn levels_follow_severity() {
    assert_eq!(level(Some(&Severity::Critical)), "error");
    assert_eq!(level(Some(&Severity::High)), "error");
    assert_eq!(level(Some(&Severity::Medium)), "warning");
    assert_eq!(level(Some(&Severity::Low)), "note");
    assert_eq!(level(Some(&Severity::Info)), "note");
    assert_eq!(
        level(Some(&Severity::Other("SEVERITY_X".into()))),
        "warning"
    );
    assert_eq!(level(None), "warning");
}

#[test]
fn empty_input_is_a_document_with_one_run_and_no_results() {
    let doc = document(&[]);
    assert_eq!(doc["$schema"], SCHEMA_URI);
    assert_eq!(doc["version"], "2.1.0");
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0]["results"], json!([]));
    assert_eq!(runs[0]["tool"]["driver"]["name"], "findings");
    assert_eq!(
        runs[0]["tool"]["driver"]["version"],
        env!("CARGO_PKG_VERSION")
    );
    assert!(runs[0]["tool"]["driver"].get("rules").is_none());
}

#[test]
fn rules_are_deduplicated_and_results_point_at_them() {
    let doc = document(&[
        finding("1", "py.sqli", Severity::Medium),
        finding("2", "py.xss", Severity::Low),
        finding("3", "py.sqli", Severity::Critical),
    ]);
    let run = &doc["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["py.sqli", "py.xss"]);
    let results = run["results"].as_array().unwrap();
    let pairs: Vec<(&str, u64)> = results
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap(),
                r["ruleIndex"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(pairs, [("py.sqli", 0), ("py.xss", 1), ("py.sqli", 0)]);
    let levels: Vec<&str> = results
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["warning", "note", "error"]);
    // A rule's security severity is the highest of its findings.
    assert_eq!(rules[0]["properties"]["security-severity"], "9.5");
    assert_eq!(rules[1]["properties"]["security-severity"], "2.0");
    assert_eq!(rules[0]["name"], "sqli");
}

#[test]
fn rule_metadata_tags_and_help_uri() {
    let mut i = finding("1", "java.xxe", Severity::High);
    i.rule_url = Some("https://rules.example.com/r/java.xxe".into());
    i.rule_cwe_names = vec!["CWE-611: XXE".into(), "CWE-611: XXE".into()];
    i.rule_owasp_names = vec!["A05:2021 - Security Misconfiguration".into()];
    i.category = Some("security".into());
    i.ruleset = Some("java".into());
    let doc = document(&[i]);
    let rule = &doc["runs"][0]["tool"]["driver"]["rules"][0];
    assert_eq!(rule["helpUri"], "https://rules.example.com/r/java.xxe");
    assert_eq!(
        rule["properties"]["tags"],
        json!([
            "security",
            "CWE-611: XXE",
            "A05:2021 - Security Misconfiguration"
        ])
    );
    assert_eq!(rule["properties"]["category"], "security");
    assert_eq!(rule["properties"]["ruleset"], "java");
    assert_eq!(rule["name"], "xxe");
    assert_eq!(rule["shortDescription"]["text"], "xxe");

    // A help URI that is not an absolute web URI is left out.
    let mut bad = finding("2", "x", Severity::High);
    bad.rule_url = Some("javascript:alert(1)".into());
    let doc = document(&[bad]);
    assert!(
        doc["runs"][0]["tool"]["driver"]["rules"][0]
            .get("helpUri")
            .is_none()
    );
}

fn rule_of(issue: Issue) -> Value {
    document(&[issue])["runs"][0]["tool"]["driver"]["rules"][0].clone()
}

fn supply_chain(rule: &str, vuln: Option<&str>, package: Option<&str>) -> Issue {
    let mut i = finding("9", rule, Severity::High);
    i.sca_attributes = Some(ScaAttributes {
        vuln_database_identifier: vuln.map(str::to_owned),
        found_dependency: package.map(|p| Dependency {
            package: Some(p.to_owned()),
            ..Default::default()
        }),
        ..Default::default()
    });
    i
}

#[test]
fn every_rule_has_a_short_name_and_a_description_that_says_something() {
    // Code: the last part of the dotted rule id, for both.
    let rule = rule_of(finding(
        "1",
        "typescript.express.security.audit.open-redirect.open-redirect",
        Severity::High,
    ));
    assert_eq!(rule["name"], "open-redirect");
    assert_eq!(rule["shortDescription"]["text"], "open-redirect");
    assert!(rule.get("fullDescription").is_none());

    // Supply chain: the rule id is opaque; the advisory and package name it.
    let ssc = "ssc-5f74be81-4896-5993-a019-2374798726cb";
    let rule = rule_of(supply_chain(ssc, Some("CVE-2023-45857"), Some("axios")));
    assert_eq!(rule["id"], ssc);
    assert_eq!(rule["name"], "CVE-2023-45857 axios");
    assert_eq!(rule["shortDescription"]["text"], "CVE-2023-45857 axios");
    // A package name with dots is not cut.
    let rule = rule_of(supply_chain(
        ssc,
        Some("CVE-2024-21907"),
        Some("Newtonsoft.Json"),
    ));
    assert_eq!(rule["name"], "CVE-2024-21907 Newtonsoft.Json");
    let rule = rule_of(supply_chain(ssc, Some("GHSA-jchw-25xp-jwwc"), None));
    assert_eq!(rule["name"], "GHSA-jchw-25xp-jwwc");
    // Nothing better than the id: the id is the name.
    let rule = rule_of(supply_chain(ssc, None, Some("axios")));
    assert_eq!(rule["name"], ssc);

    // The display name is the rule's title, and its explanation the
    // full description (the summary without one).
    let mut i = finding(
        "2",
        "java.spring.security.injection.tainted-sql-string",
        Severity::High,
    );
    i.rule_display_name = Some("Tainted SQL string".into());
    i.rule_explanation = Some(RuleExplanation {
        summary: Some("User input reaches a SQL string.".into()),
        explanation: Some("The query is built by concatenation ...".into()),
        ..Default::default()
    });
    let rule = rule_of(i.clone());
    assert_eq!(rule["name"], "Tainted SQL string");
    assert_eq!(rule["shortDescription"]["text"], "Tainted SQL string");
    assert_eq!(
        rule["fullDescription"]["text"],
        "The query is built by concatenation ..."
    );
    i.rule_explanation.as_mut().unwrap().explanation = None;
    assert_eq!(
        rule_of(i)["fullDescription"]["text"],
        "User input reaches a SQL string."
    );

    // A rule id without dots, and a rule known by its path only.
    assert_eq!(rule_of(finding("3", "x", Severity::Low))["name"], "x");
    let path_only = Issue {
        rule_path: Some("go.lang.security.audit.crypto.use-of-md5".into()),
        ..Default::default()
    };
    let rule = rule_of(path_only);
    assert_eq!(rule["id"], "go.lang.security.audit.crypto.use-of-md5");
    assert_eq!(rule["name"], "use-of-md5");
}

#[test]
fn fingerprints_and_properties_carry_ids_state_and_sca() {
    let mut i = finding("42", "ssc-1", Severity::High);
    i.match_based_id = Some("mb-1".into());
    i.syntactic_id = Some("syn-1".into());
    i.repository = Some(Repository {
        name: Some("acme/api".into()),
        ..Default::default()
    });
    i.ref_ = Some("main".into());
    i.aggregate_state = Some(AggregateState::Open);
    i.triage_state = Some(TriageState::Reviewing);
    i.triage_reason = Some(TriageReason::AcceptableRisk);
    i.autotriage = Some(Autotriage {
        verdict: Some(Verdict::TruePositive),
        ..Default::default()
    });
    i.sca_attributes = Some(ScaAttributes {
        vuln_database_identifier: Some("CVE-2024-1".into()),
        reachability: Some(Reachability::Reachable),
        found_dependency: Some(Dependency {
            package: Some("lodash".into()),
            version: Some("4.17.0".into()),
            ..Default::default()
        }),
        epss_score: Some(EpssScore {
            score: Some(0.5),
            percentile: Some(0.9),
            ..Default::default()
        }),
        ..Default::default()
    });
    let doc = document(&[i]);
    let r = &doc["runs"][0]["results"][0];
    assert_eq!(
        r["partialFingerprints"],
        json!({"matchBasedId/v1": "mb-1", "syntacticId/v1": "syn-1"})
    );
    let p = &r["properties"];
    assert_eq!(p["id"], "42");
    assert_eq!(p["repository"], "acme/api");
    assert_eq!(p["ref"], "main");
    assert_eq!(p["aggregateState"], "AGGREGATE_ISSUE_STATE_OPEN");
    assert_eq!(p["triageState"], "FINDING_TRIAGE_STATE_REVIEWING");
    assert_eq!(p["triageReason"], "FINDING_TRIAGE_REASON_ACCEPTABLE_RISK");
    assert_eq!(p["autotriageVerdict"], "VERDICT_TRUE_POSITIVE");
    assert_eq!(
        p["sca"],
        json!({
            "package": "lodash", "version": "4.17.0", "vulnId": "CVE-2024-1",
            "reachability": "REACHABILITY_REACHABLE",
            "epss": {"score": 0.5, "percentile": 0.9}
        })
    );
    // The rule of a supply-chain finding is described by its advisory.
    assert_eq!(
        doc["runs"][0]["tool"]["driver"]["rules"][0]["shortDescription"]["text"],
        "CVE-2024-1 lodash"
    );
}

#[test]
fn empty_fields_are_left_out_never_null() {
    let bare = Issue::default();
    let doc = document(&[bare]);
    let text = doc.to_string();
    assert!(!text.contains("null"), "{text}");
    let r = &doc["runs"][0]["results"][0];
    // SARIF1010: every result names its rule, even with nothing to go by.
    assert_eq!(r["ruleId"], "unidentified-rule");
    assert_eq!(r["ruleIndex"], 0);
    assert_eq!(
        doc["runs"][0]["tool"]["driver"]["rules"][0]["id"],
        "unidentified-rule"
    );
    assert!(r.get("locations").is_none());
    assert!(r.get("partialFingerprints").is_none());
    assert!(r.get("properties").is_none());
    assert_eq!(r["level"], "warning");
    assert!(!r["message"]["text"].as_str().unwrap().is_empty());
}

fn region_of(line: i64, end_line: i64, col: i64, end_col: i64) -> Option<Region> {
    region(&Issue {
        line: Some(line),
        end_line: Some(end_line),
        column: Some(col),
        end_column: Some(end_col),
        ..Default::default()
    })
}

#[test]
fn regions_keep_only_valid_positions() {
    assert_eq!(
        region_of(3, 5, 2, 9),
        Some(Region {
            start_line: 3,
            end_line: Some(5),
            start_column: Some(2),
            end_column: Some(9)
        })
    );
    // No valid start line: no region at all.
    assert_eq!(region_of(0, 5, 2, 9), None);
    assert_eq!(region_of(-1, 5, 2, 9), None);
    assert_eq!(region(&Issue::default()), None);
    // An end before the start, zero or negative columns are dropped.
    let r = region_of(7, 6, 0, -4).unwrap();
    assert_eq!(
        (r.start_line, r.end_line, r.start_column, r.end_column),
        (7, None, None, None)
    );
    // On one line the end column cannot come before the start column;
    // on a later line it can.
    assert_eq!(region_of(4, 4, 10, 3).unwrap().end_column, None);
    assert_eq!(region_of(4, 6, 10, 3).unwrap().end_column, Some(3));
}

#[test]
fn paths_become_uri_references() {
    let uri = |p: &str| uri_reference(p).unwrap();
    assert_eq!(uri("src/app.py"), "src/app.py");
    assert_eq!(uri("my dir/a#1?.js"), "my%20dir/a%231%3F.js");
    assert_eq!(uri("数据/ü.py"), "%E6%95%B0%E6%8D%AE/%C3%BC.py");
    assert_eq!(uri("a\u{1b}[31m"), "a%1B%5B31m");
    assert_eq!(uri("100%.txt"), "100%25.txt");
    assert_eq!(uri("C:\\src\\x.cs"), "src/x.cs");
    let doc = document(&[Issue {
        file_path: Some("dir name/file.rs".into()),
        line: Some(1),
        ..Default::default()
    }]);
    assert_eq!(
        doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "dir%20name/file.rs"
    );
}

#[test]
fn artifact_paths_never_leave_the_repository() {
    let uri = |p: &str| uri_reference(p);
    // Normalised: relative, no dot segments, no root, drive or UNC prefix.
    assert_eq!(uri("./src/./app.py").as_deref(), Some("src/app.py"));
    assert_eq!(uri("src/lib/../app.py").as_deref(), Some("src/app.py"));
    assert_eq!(uri("/etc/passwd").as_deref(), Some("etc/passwd"));
    assert_eq!(
        uri("//server/share/x.cs").as_deref(),
        Some("server/share/x.cs")
    );
    assert_eq!(uri("c:/Windows/x.ini").as_deref(), Some("Windows/x.ini"));
    assert_eq!(uri("src//a.py").as_deref(), Some("src/a.py"));
    // Climbing above the root: dropped to the file name.
    assert_eq!(uri("../../etc/passwd").as_deref(), Some("passwd"));
    assert_eq!(uri("src/../../.ssh/id_rsa").as_deref(), Some("id_rsa"));
    assert_eq!(uri("..\\..\\boot.ini").as_deref(), Some("boot.ini"));
    // A colon never starts a scheme; encoded dots stay encoded text.
    assert_eq!(
        uri("javascript:alert(1)").as_deref(),
        Some("javascript%3Aalert(1)")
    );
    assert_eq!(uri("%2e%2e/x").as_deref(), Some("%252e%252e/x"));
    // Nothing left: no location.
    for empty in ["..", "/", ".", "../..", "C:"] {
        assert_eq!(uri(empty), None, "{empty:?}");
    }
    for hostile in [
        "../../etc/passwd",
        "/abs/x",
        "C:\\x\\..\\..\\y",
        "a/../../b",
    ] {
        let got = uri(hostile).unwrap();
        assert!(
            !got.starts_with('/')
                && !got.contains('\\')
                && !got.contains(':')
                && got
                    .split('/')
                    .all(|s| s != ".." && s != "." && !s.is_empty()),
            "{hostile:?} → {got:?}"
        );
    }
    // In the document: the location of a path that climbs out is its name.
    let doc = document(&[Issue {
        file_path: Some("../../../home/u/.bashrc".into()),
        line: Some(1),
        ..Default::default()
    }]);
    assert_eq!(
        doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        ".bashrc"
    );
}

// The model decodes a SARIF export's page with only the fields it writes
// (`findings_model::sarif_fields`): the export proves that it loses nothing.
mod slim_page {
    use super::SarifLog;
    use findings_model::sarif_fields::SarifPage;
    use findings_model::{Issue, IssueItem, ListIssuesResponse};

    /// The SARIF of findings decoded with only its fields is, byte for
    /// byte, the SARIF of the same findings decoded whole.
    #[test]
    fn sarif_of_the_slim_page_is_sarif_of_the_whole_page() {
        let mut samples: serde_json::Value =
            serde_json::from_str(include_str!("../../../../assets/pack-samples.json")).unwrap();
        // A rule's text, which the samples lack, read from its first finding.
        samples[0]["issue"]["ruleExplanation"] =
            serde_json::json!({"summary": "What it is", "explanation": "Why it matters"});
        let items: Vec<IssueItem> = findings_base::json::from_value(&samples).unwrap();
        assert!(items.len() > 3, "the samples hold several findings");
        let page = ListIssuesResponse {
            issues: items,
            cursor: Some("c".into()),
        };
        let json = findings_base::json::encode(&page).unwrap();
        let slim: SarifPage = findings_base::json::decode(&json).unwrap();
        assert_eq!(slim.cursor, page.cursor);
        let sarif = |issues: Vec<Issue>| {
            let mut log = SarifLog::new();
            let mut out = Vec::new();
            for issue in &issues {
                log.add(&mut out, issue).unwrap();
            }
            log.finish(&mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let whole = sarif(page.issues.into_iter().filter_map(|i| i.issue).collect());
        let thin = sarif(
            slim.issues
                .into_iter()
                .filter_map(|i| i.issue.map(Issue::from))
                .collect(),
        );
        assert!(whole.contains("\"ruleIndex\""), "results were written");
        assert!(
            whole.contains("Why it matters"),
            "the rule's text was written"
        );
        assert_eq!(thin, whole);
    }
}
