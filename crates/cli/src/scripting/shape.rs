//! The one shape each command's items have for `--json` and `--jq`: the
//! fields of the item at the top level, by their names in the API contract.
//! `issues` lifts the finding out of its list wrapper, so its items have a
//! finding's fields as `report` and `show` give them, plus the wrapper's
//! counters.

use jaq_json::{Map, Rc, Val};

/// What the items of a command look like to `--json` and `--jq`.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// What an item is, for messages.
    pub item: &'static str,
    /// The item's fields (the contract's names).
    pub fields: &'static [&'static str],
    /// Fields of the wrapper whose `issue` is lifted to the top level,
    /// kept beside the finding's (`issues` only).
    pub wrapper: &'static [&'static str],
    /// Fields reckoned here when `--json` names them ([`COMPUTED`]).
    pub computed: &'static [&'static str],
    /// Fields of the schema the command's operation never fills, and
    /// where to get them instead: `--json` refuses them (they would be
    /// null on every line).
    pub unavailable: &'static [(&'static str, &'static str)],
}

/// The contract's fields deprecated and no longer returned by any operation.
const DEPRECATED: &[(&str, &str)] = &[(
    "aiExploitConditions",
    "deprecated: no operation returns it any longer",
)];

/// What a list of findings (List issues) never gives: the fields of the
/// single-issue fetch only (docs/src/api.md, the contract), and the
/// deprecated one.
const LIST_LACKS: &[(&str, &str)] = &[
    ("aiExploitConditions", DEPRECATED[0].1),
    ("aiImpact", SINGLE_FETCH),
    ("clickToFixCommitMsg", SINGLE_FETCH),
    ("codeSnippets", SINGLE_FETCH),
    ("ruleDisplayName", SINGLE_FETCH),
    ("ruleExplanation", SINGLE_FETCH),
];

const SINGLE_FETCH: &str = "only the single-issue fetch gives it: findings show ID --json FIELD";

/// What report findings never give: what a list lacks, and the fields a
/// list gives only when asked (Report findings asks for none of them).
const REPORT_LACKS: &[(&str, &str)] = &[
    ("activityHistory", LISTED_WHEN_ASKED),
    ("aiExploitConditions", DEPRECATED[0].1),
    ("aiImpact", SINGLE_FETCH),
    ("clickToFixCommitMsg", SINGLE_FETCH),
    ("codeSnippets", SINGLE_FETCH),
    ("firstDetectedAt", LISTED_WHEN_ASKED),
    ("isArchived", LISTED_WHEN_ASKED),
    ("remediation", LISTED_WHEN_ASKED),
    ("ruleDisplayName", SINGLE_FETCH),
    ("ruleExplanation", SINGLE_FETCH),
];

const LISTED_WHEN_ASKED: &str =
    "Report findings cannot ask for it; findings issues --json FIELD asks List issues for it";

/// A finding (`protos.issues.v1.Issue`) as the single-issue fetch gives
/// it: `show`.
pub const FINDING: Shape = Shape {
    item: "finding",
    fields: FINDING_FIELDS,
    wrapper: &[],
    computed: &[],
    unavailable: DEPRECATED,
};

/// A finding as Report findings gives it: `report`.
pub const REPORT_FINDING: Shape = Shape {
    unavailable: REPORT_LACKS,
    ..FINDING
};

/// A List issues item (`ListIssuesResponse_IssueSummary`): the finding's
/// fields, then the wrapper's counters.
pub const LIST_ITEM: Shape = Shape {
    item: "finding",
    fields: FINDING_FIELDS,
    wrapper: LIST_WRAPPER_FIELDS,
    computed: COMPUTED,
    unavailable: LIST_LACKS,
};

/// Fields no server sends, reckoned here when `--json` names them (the
/// export catalog's columns of the same names, counted the same way): an
/// open finding's age in days from its first detection, and its days past
/// its severity's target (the profile's sla_days); null when the finding
/// is not open or its first detection is unknown.
pub const COMPUTED: &[&str] = &["age", "days_over_target"];

/// What the computed fields are reckoned with: the profile's targets and
/// the command's clock.
#[derive(Debug, Clone, Copy)]
pub struct OpenAgeClock {
    pub targets: findings_model::SlaDays,
    pub now: findings_model::Timestamp,
}

/// An agentic-workflow issue (`protos.issues.api.Issue`): `search`.
pub const AGENTIC_ISSUE: Shape = Shape {
    item: "issue",
    fields: AGENTIC_FIELDS,
    wrapper: &[],
    computed: &[],
    unavailable: &[],
};

/// A change between two snapshots: `diff`.
pub const CHANGE: Shape = Shape {
    item: "change",
    fields: findings_snapshot::CHANGE_FIELDS,
    wrapper: &[],
    computed: &[],
    unavailable: &[],
};

/// An SCM config (`protos.scm.v1.ScmConfig`): `scm list`.
pub const SCM_CONFIG: Shape = Shape {
    item: "config",
    fields: SCM_CONFIG_FIELDS,
    wrapper: &[],
    computed: &[],
    unavailable: &[],
};

/// The key of the finding inside a List issues item.
pub(super) const LIFTED: &str = "issue";

pub(super) const FINDING_FIELDS: &[&str] = &[
    "activityHistory",
    "aggregateState",
    "aiExploitConditions",
    "aiImpact",
    "aiTags",
    "autotriage",
    "category",
    "clickToFixCommitMsg",
    "clickToFixPrId",
    "clickToFixPrUrl",
    "codeSnippet",
    "codeSnippets",
    "codeowners",
    "column",
    "commitUrl",
    "confidence",
    "createdAt",
    "dataflowTrace",
    "endColumn",
    "endLine",
    "exceptionRequest",
    "externalTicket",
    "filePath",
    "firstDetectedAt",
    "firstSeenScan",
    "id",
    "isArchived",
    "isBlocking",
    "issueParentId",
    "issueType",
    "lastSeenScan",
    "line",
    "lineOfCodeUrl",
    "matchBasedId",
    "message",
    "note",
    "policySlug",
    "ref",
    "refUrl",
    "relatedIssues",
    "relevantSince",
    "remediation",
    "repository",
    "ruleCweNames",
    "ruleDisplayName",
    "ruleExplanation",
    "ruleHashId",
    "ruleId",
    "ruleOrigin",
    "ruleOwaspNames",
    "rulePath",
    "ruleReferences",
    "ruleSupersededBy",
    "ruleUrl",
    "ruleset",
    "sastAttributes",
    "scaAttributes",
    "secretsAttributes",
    "severity",
    "status",
    "subcategories",
    "syntacticId",
    "ticketAttempts",
    "triagePermission",
    "triageReason",
    "triageState",
    "vulnGroupKey",
];

pub(super) const LIST_WRAPPER_FIELDS: &[&str] = &[
    "aiSilencedCount",
    "allRefs",
    "allReviewComments",
    "allReviewThreadIds",
    "reviewCount",
    "triageCount",
];

pub(super) const AGENTIC_FIELDS: &[&str] = &[
    "actions",
    "createdAt",
    "cwes",
    "dependencyPaths",
    "deploymentId",
    "description",
    "detectionState",
    "directDependencies",
    "domains",
    "filePaths",
    "id",
    "identities",
    "lastDetectedAt",
    "owasps",
    "projectIds",
    "reasoning",
    "refIds",
    "severity",
    "title",
    "triageReason",
    "triageState",
    "triagedAt",
    "triggerSources",
    "workflowIds",
];

pub(super) const SCM_CONFIG_FIELDS: &[&str] = &[
    "app",
    "autoScan",
    "autoScanSettings",
    "baseUrl",
    "hasAccessToken",
    "hostAEntityType",
    "id",
    "installed",
    "lastSuccessfulSyncAt",
    "namespace",
    "scmId",
    "sourceId",
    "status",
    "subscriptions",
    "suspended",
    "tokenScopes",
    "type",
    "useNetworkBroker",
];

impl Shape {
    /// Every field `--json` takes, sorted (as gh lists them): those the
    /// command's operation can fill.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self
            .fields
            .iter()
            .chain(self.wrapper)
            .chain(self.computed)
            .copied()
            .filter(|f| self.lacks(f).is_none())
            .collect();
        names.sort_unstable();
        names
    }

    /// Why the command's items never have `field`, when they do not.
    pub fn lacks(&self, field: &str) -> Option<&'static str> {
        self.unavailable
            .iter()
            .find(|(name, _)| *name == field)
            .map(|(_, why)| *why)
    }

    /// An item as the server sent it, in this shape: a List issues
    /// wrapper's finding lifted to the top level, its other fields after
    /// the finding's (the finding's win should a name be in both).
    pub fn apply(&self, item: Val) -> Val {
        if self.wrapper.is_empty() {
            return item;
        }
        let Val::Obj(wrapper) = item else {
            return item;
        };
        let key = Val::from(LIFTED.to_owned());
        let mut flat = Map::default();
        if let Some(Val::Obj(finding)) = wrapper.get(&key) {
            flat.extend(finding.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        for (k, v) in wrapper.iter() {
            if *k != key && !flat.contains_key(k) {
                flat.insert(k.clone(), v.clone());
            }
        }
        Val::Obj(Rc::new(flat))
    }
}

/// `item` (flat, [`Shape::apply`]) with the computed fields `fields`
/// names ([`COMPUTED`]) added, reckoned as of `clock`.
pub fn with_computed(item: Val, fields: &[String], clock: &OpenAgeClock) -> Val {
    use findings_model::{AggregateState, Severity};
    let asked: Vec<&str> = COMPUTED
        .iter()
        .copied()
        .filter(|c| fields.iter().any(|f| f == c))
        .collect();
    let Val::Obj(map) = &item else {
        return item;
    };
    if asked.is_empty() {
        return item;
    }
    let text = |key: &str| match map.get(&Val::from(key.to_owned())) {
        Some(Val::TStr(s)) => Some(String::from_utf8_lossy(s).into_owned()),
        _ => None,
    };
    let first = text("firstDetectedAt")
        .and_then(|t| chrono::DateTime::parse_from_rfc3339(t.trim()).ok())
        .map(|t| t.with_timezone(&chrono::Utc));
    let severity = text("severity").map(|s| Severity::from_wire(&s));
    let state = text("aggregateState").map(|s| AggregateState::from_wire(&s));
    let age = clock
        .targets
        .open_age(severity.as_ref(), state.as_ref(), first, clock.now);
    let mut flat = (**map).clone();
    for name in asked {
        let value = match age {
            Some(a) if name == "age" => days_val(a.days),
            Some(a) => days_val(a.over),
            None => Val::Null,
        };
        flat.insert(Val::from(name.to_owned()), value);
    }
    Val::Obj(Rc::new(flat))
}

/// A number of days as a script's integer: exact on 64 bits, and days
/// between dates chrono takes fit 32 bits too (saturating otherwise).
fn days_val(days: i64) -> Val {
    let saturated = if days < 0 { isize::MIN } else { isize::MAX };
    Val::from(isize::try_from(days).unwrap_or(saturated))
}

/// Only `fields` of `item`, in that order; one it lacks is `null` (so every
/// line has the same keys). What `pick_raw` does on the text, on a value:
/// the tests' reference.
#[cfg(test)]
pub fn pick(item: &Val, fields: &[String]) -> Val {
    let mut picked = Map::default();
    for field in fields {
        let key = Val::from(field.clone());
        let value = match item {
            Val::Obj(map) => map.get(&key).cloned().unwrap_or(Val::Null),
            _ => Val::Null,
        };
        picked.insert(key, value);
    }
    Val::Obj(Rc::new(picked))
}

/// The item's `id`, when it has one that is text, to name it in an error.
pub fn id_of(item: &Val) -> Option<String> {
    let Val::Obj(map) = item else { return None };
    match map.get(&Val::from("id".to_owned()))? {
        Val::TStr(id) => Some(String::from_utf8_lossy(id).into_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(json: &str) -> Val {
        jaq_json::read::parse_single(json.as_bytes()).unwrap()
    }

    #[test]
    fn a_list_item_has_the_finding_at_the_top_and_the_counters_beside() {
        let item = val(
            r#"{"issue":{"id":"7","severity":"SEVERITY_HIGH"},"reviewCount":"2","allRefs":["main"]}"#,
        );
        let flat = LIST_ITEM.apply(item);
        assert_eq!(
            flat.to_string(),
            r#"{"id":"7","severity":"SEVERITY_HIGH","reviewCount":"2","allRefs":["main"]}"#
        );
        // Without a finding: the counters alone. Not an object: as it is.
        assert_eq!(
            LIST_ITEM.apply(val(r#"{"reviewCount":"1"}"#)).to_string(),
            r#"{"reviewCount":"1"}"#
        );
        assert_eq!(LIST_ITEM.apply(val("[1]")).to_string(), "[1]");
        // A bare finding is left alone.
        let bare = val(r#"{"issue":{"id":"x"},"id":"7"}"#);
        assert_eq!(FINDING.apply(bare.clone()).to_string(), bare.to_string());
        // The finding's field wins over a wrapper's of the same name.
        let both = val(r#"{"issue":{"id":"7"},"id":"wrapper"}"#);
        assert_eq!(LIST_ITEM.apply(both).to_string(), r#"{"id":"7"}"#);
    }

    #[test]
    fn the_computed_fields_are_the_open_age_when_asked_else_absent() {
        let clock = OpenAgeClock {
            targets: findings_model::SlaDays::default(),
            now: "2026-11-20T12:00:00Z".parse().unwrap(),
        };
        let open = val(
            r#"{"id":"7","severity":"SEVERITY_CRITICAL","aggregateState":"AGGREGATE_ISSUE_STATE_OPEN","firstDetectedAt":"2026-11-10T00:00:00Z"}"#,
        );
        let asked = [
            "id".to_owned(),
            "age".to_owned(),
            "days_over_target".to_owned(),
        ];
        let with = with_computed(open.clone(), &asked, &clock);
        assert_eq!(
            pick(&with, &asked).to_string(),
            r#"{"id":"7","age":10,"days_over_target":3}"#
        );
        // Not asked: the item as it was. No first detection: null.
        let plain = ["id".to_owned()];
        assert!(
            !with_computed(open, &plain, &clock)
                .to_string()
                .contains("age")
        );
        let unknown = with_computed(val(r#"{"id":"8"}"#), &asked, &clock);
        assert_eq!(
            pick(&unknown, &asked).to_string(),
            r#"{"id":"8","age":null,"days_over_target":null}"#
        );
        assert!(LIST_ITEM.names().contains(&"days_over_target"));
        assert!(!FINDING.names().contains(&"age"));
    }

    #[test]
    fn picked_fields_come_in_the_order_asked_absent_ones_null() {
        let item = val(r#"{"id":"7","severity":"SEVERITY_LOW","line":3}"#);
        let fields = ["line".to_owned(), "id".to_owned(), "ruleId".to_owned()];
        assert_eq!(
            pick(&item, &fields).to_string(),
            r#"{"line":3,"id":"7","ruleId":null}"#
        );
        assert_eq!(id_of(&item).as_deref(), Some("7"));
        assert_eq!(id_of(&val(r#"{"id":7}"#)), None);
    }

    #[test]
    fn the_field_names_are_sorted_and_a_list_item_has_the_counters_too() {
        let names = LIST_ITEM.names();
        assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
        assert_eq!(
            names.len(),
            FINDING_FIELDS.len() + LIST_WRAPPER_FIELDS.len() + COMPUTED.len() - LIST_LACKS.len()
        );
        assert!(names.contains(&"reviewCount") && !names.contains(&"issue"));
        assert!(!FINDING.names().contains(&"reviewCount"));
    }

    #[test]
    fn a_field_the_operation_never_fills_is_not_offered() {
        // The single-issue fetch's fields: in show, not in a list.
        assert!(FINDING.names().contains(&"ruleDisplayName"));
        assert!(!LIST_ITEM.names().contains(&"ruleDisplayName"));
        assert!(
            LIST_ITEM
                .lacks("ruleDisplayName")
                .unwrap()
                .contains("findings show")
        );
        // Report findings asks no includes: what List issues asks for,
        // it lacks.
        for field in [
            "activityHistory",
            "firstDetectedAt",
            "isArchived",
            "remediation",
        ] {
            assert!(LIST_ITEM.names().contains(&field), "{field}");
            assert!(REPORT_FINDING.lacks(field).is_some(), "{field}");
        }
        // Every field refused is a field of the schema.
        for (field, _) in REPORT_LACKS.iter().chain(LIST_LACKS) {
            assert!(FINDING_FIELDS.contains(field), "{field}");
        }
        assert!(!FINDING.names().contains(&"aiExploitConditions"));
    }

    #[test]
    fn the_fields_are_the_published_schemas_properties() {
        let doc: serde_json::Value =
            serde_json::from_str(include_str!("../../../../tests/data/platform-schemas.json"))
                .unwrap();
        let properties = |schema: &str| -> Vec<String> {
            let props = doc["components"]["schemas"][schema]["properties"]
                .as_object()
                .unwrap_or_else(|| panic!("{schema}"));
            let mut names: Vec<String> = props.keys().cloned().collect();
            names.sort();
            names
        };
        let ours = |fields: &[&str]| -> Vec<String> {
            let mut names: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
            names.sort();
            names
        };
        assert_eq!(ours(FINDING_FIELDS), properties("protos.issues.v1.Issue"));
        let mut wrapper = ours(LIST_WRAPPER_FIELDS);
        wrapper.push(LIFTED.to_owned());
        wrapper.sort();
        assert_eq!(
            wrapper,
            properties("protos.issues.v1.ListIssuesResponse_IssueSummary")
        );
        assert_eq!(ours(AGENTIC_FIELDS), properties("protos.issues.api.Issue"));
        assert_eq!(
            ours(SCM_CONFIG_FIELDS),
            properties("protos.scm.v1.ScmConfig")
        );
    }
}
