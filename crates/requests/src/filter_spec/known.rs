//! Names the deployment has: a repository, rule, team, tag, ref or
//! advisory that the filter values (`IssuesService_GetIssueFilters`) do
//! not list would match nothing, so it is refused with the closest names
//! listed rather than sent to come back empty. The headless commands and
//! the TUI check the same fields the same way.

use super::advisory::{Advisories, Resolved};
use super::suggest::nearest;
use super::unknown::Unknown;
use findings_model::{IssueFiltersResponse, short_rule};

/// A filter field whose values name things of the deployment: the field,
/// what one value names, and the List issues field whose listed values
/// ([`IssueFiltersResponse::values_of`]) it is checked against.
#[derive(Debug, Clone, Copy)]
pub struct NamedField {
    pub field: &'static str,
    pub noun: &'static str,
    pub known_as: &'static str,
}

const fn named(field: &'static str, noun: &'static str, known_as: &'static str) -> NamedField {
    NamedField {
        field,
        noun,
        known_as,
    }
}

/// What an advisory field is checked against: the advisories of the
/// answer's rules ([`Advisories`]), not a list of its own.
const ADVISORIES: &str = "advisories";

impl NamedField {
    /// Whether the field names advisories (case ignored, aliases resolved).
    pub fn is_advisory(&self) -> bool {
        self.known_as == ADVISORIES
    }
}

/// List issues: the fields whose values the answer gives for every issue
/// type (rule paths, rulesets, categories and secret types are of some
/// types only, so they are not checked), and the advisories its rules
/// name.
pub const LIST_NAMES: &[NamedField] = &[
    named("repositoryNames", "repository", "repositoryNames"),
    named("repositoryIds", "repository id", "repositoryIds"),
    named("repositoryTags", "tag", "repositoryTags"),
    named("refs", "ref", "refs"),
    named("teamNames", "team", "teamNames"),
    named("ruleIds", "rule", "ruleIds"),
    named("cves", "advisory", ADVISORIES),
    named("advisoryIds", "advisory", ADVISORIES),
];

/// Report findings: projects are repositories, by name or id.
pub const REPORT_NAMES: &[NamedField] = &[
    named("projects", "repository", "repositoryNames"),
    named("projectIds", "repository id", "repositoryIds"),
    named("tags", "tag", "repositoryTags"),
    named("teams", "team", "teamNames"),
    named("ruleIds", "rule", "ruleIds"),
];

/// Search issues: projects and refs by id.
pub const SEARCH_NAMES: &[NamedField] = &[
    named("projectIds", "repository id", "repositoryIds"),
    named("refIds", "ref id", "repositoryRefIds"),
];

/// How many close names an [`Unknown`] offers.
const SUGGESTED: usize = 3;

/// Checks `values` of `field` against the names the deployment lists. A
/// field the answer lists nothing for is not checked (the server could not
/// say, so nothing is refused on its behalf). Names are compared as the API
/// has them: case-sensitive; advisories as [`Advisories::resolve`] does.
pub fn check_known(
    answer: &IssueFiltersResponse,
    field: &NamedField,
    values: &[String],
) -> Result<(), Unknown> {
    resolve_known(answer, &Advisories::of(answer), field, values).map(drop)
}

/// Each of `values` of `field` as the filter sends it, checked as
/// [`check_known`] says: a name as given (trimmed); an advisory as
/// `advisories` (those of `answer`, with the aliases found in their
/// references) resolves it, an alias to the id it stands for.
pub fn resolve_known(
    answer: &IssueFiltersResponse,
    advisories: &Advisories,
    field: &NamedField,
    values: &[String],
) -> Result<Vec<Resolved>, Unknown> {
    if field.is_advisory() {
        return values.iter().map(|v| advisories.resolve(v)).collect();
    }
    let known = answer.values_of(field.known_as);
    let as_given = |value: &str| Resolved {
        id: value.to_owned(),
        alias: None,
    };
    if known.is_empty() {
        return Ok(values.iter().map(|v| as_given(v.trim())).collect());
    }
    let mut resolved = Vec::with_capacity(values.len());
    for value in values {
        let value = value.trim();
        if !known.iter().any(|k| k == value) {
            return Err(Unknown {
                value: value.to_owned(),
                noun: field.noun,
                nearest: nearest(&known, value, SUGGESTED)
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
                known: known.len(),
                form: None,
            });
        }
        resolved.push(as_given(value));
    }
    Ok(resolved)
}

/// The full rule ids `name` stands for: `name` itself when it is one; else
/// every rule whose short name (what the RULE column of a table shows,
/// `use-of-md5`), display name, CVE or GHSA id it is (case ignored), in
/// the answer's order. Unchecked (`name` as given) when the answer lists no
/// rules.
pub fn rule_ids(answer: &IssueFiltersResponse, name: &str) -> Result<Vec<String>, Unknown> {
    let name = name.trim();
    let rules = &answer.rules;
    if rules.is_empty() || rules.iter().any(|r| r.id.as_deref() == Some(name)) {
        return Ok(vec![name.to_owned()]);
    }
    let same = |v: Option<&str>| v.is_some_and(|v| v.eq_ignore_ascii_case(name));
    // What the RULE column shows of a supply-chain finding, `CVE-2021-44228
    // org.apache.logging.log4j:log4j-core`, stands for its advisory's rule.
    let advisory = name
        .split_once(' ')
        .map(|(first, _)| first)
        .filter(|first| {
            let upper = first.to_ascii_uppercase();
            upper.starts_with("CVE-") || upper.starts_with("GHSA-")
        });
    let same_advisory = |v: Option<&str>| {
        v.zip(advisory)
            .is_some_and(|(v, a)| v.eq_ignore_ascii_case(a))
    };
    let mut ids: Vec<String> = Vec::new();
    for rule in rules {
        let Some(id) = rule.id.as_deref().filter(|id| !id.is_empty()) else {
            continue;
        };
        let matches = same(Some(short_rule(id)))
            || same(rule.name.as_deref())
            || same(rule.sca_cve.as_deref())
            || same(rule.sca_ghsa.as_deref())
            || same_advisory(rule.sca_cve.as_deref())
            || same_advisory(rule.sca_ghsa.as_deref());
        if matches && !ids.iter().any(|i| i == id) {
            ids.push(id.to_owned());
        }
    }
    if !ids.is_empty() {
        return Ok(ids);
    }
    // Suggested as it was typed: by full id when it looks like one (has a
    // dot), else by short name, what one reads in a table.
    let mut known: Vec<String> = Vec::new();
    for id in rules.iter().filter_map(|r| r.id.as_deref()) {
        let candidate = if name.contains('.') {
            id
        } else {
            short_rule(id)
        };
        if !known.iter().any(|k| k == candidate) {
            known.push(candidate.to_owned());
        }
    }
    Err(Unknown {
        value: name.to_owned(),
        noun: "rule",
        nearest: nearest(&known, name, SUGGESTED)
            .into_iter()
            .map(str::to_owned)
            .collect(),
        known: rules.len(),
        form: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::{Annotated, RuleFilterItem};

    fn answer() -> IssueFiltersResponse {
        let rule = |id: &str, name: &str, cve: Option<&str>| RuleFilterItem {
            id: Some(id.into()),
            name: Some(name.into()),
            sca_cve: cve.map(str::to_owned),
            ..Default::default()
        };
        IssueFiltersResponse {
            repos: ["acme/payments-api", "acme/payments-worker", "acme/web"]
                .iter()
                .map(|n| Annotated {
                    id: None,
                    name: Some((*n).into()),
                })
                .collect(),
            rules: vec![
                rule("java.lang.crypto.use-of-md5.use-of-md5", "MD5 used", None),
                rule("python.sql.sql-injection", "SQL injection", None),
                rule("go.sql.sql-injection", "SQL injection in Go", None),
                rule("ssc-1234", "lodash advisory", Some("CVE-2021-23337")),
            ],
            ..Default::default()
        }
    }

    fn repo() -> &'static NamedField {
        &LIST_NAMES[0]
    }

    #[test]
    fn a_listed_name_passes_and_an_unlisted_one_names_the_closest() {
        let a = answer();
        assert_eq!(check_known(&a, repo(), &["acme/web".into()]), Ok(()));
        let e = check_known(&a, repo(), &[" payments ".into()]).unwrap_err();
        assert_eq!(e.value, "payments");
        assert_eq!(e.noun, "repository");
        assert_eq!(e.known, 3);
        assert_eq!(
            e.did_you_mean().unwrap(),
            "did you mean acme/payments-api or acme/payments-worker?"
        );
        // Case-sensitive, as the API compares.
        assert!(check_known(&a, repo(), &["ACME/WEB".into()]).is_err());
        let e = check_known(&a, repo(), &["zzzzzz".into()]).unwrap_err();
        assert_eq!(e.did_you_mean(), None);
    }

    #[test]
    fn a_field_the_answer_lists_nothing_for_is_not_checked() {
        let teams = LIST_NAMES.iter().find(|f| f.field == "teamNames").unwrap();
        assert_eq!(check_known(&answer(), teams, &["anyone".into()]), Ok(()));
        let none = IssueFiltersResponse::default();
        assert_eq!(check_known(&none, repo(), &["x".into()]), Ok(()));
        assert_eq!(rule_ids(&none, "x"), Ok(vec!["x".to_owned()]));
    }

    #[test]
    fn a_rule_goes_by_its_id_short_name_display_name_or_advisory() {
        let a = answer();
        let md5 = vec!["java.lang.crypto.use-of-md5.use-of-md5".to_owned()];
        assert_eq!(
            rule_ids(&a, "java.lang.crypto.use-of-md5.use-of-md5"),
            Ok(md5.clone())
        );
        assert_eq!(rule_ids(&a, "use-of-md5"), Ok(md5.clone()));
        assert_eq!(rule_ids(&a, "Use-Of-MD5"), Ok(md5.clone()));
        assert_eq!(rule_ids(&a, "md5 used"), Ok(md5));
        assert_eq!(
            rule_ids(&a, "CVE-2021-23337"),
            Ok(vec!["ssc-1234".to_owned()])
        );
        // What the RULE column shows: the advisory and its package, any case.
        assert_eq!(
            rule_ids(&a, "cve-2021-23337 lodash"),
            Ok(vec!["ssc-1234".to_owned()])
        );
        assert!(rule_ids(&a, "CVE-2021-23338 lodash").is_err());
        // One short name, two rules: both.
        assert_eq!(
            rule_ids(&a, "sql-injection"),
            Ok(vec![
                "python.sql.sql-injection".to_owned(),
                "go.sql.sql-injection".to_owned()
            ])
        );
        let e = rule_ids(&a, "use-of-md4").unwrap_err();
        assert_eq!(e.noun, "rule");
        assert_eq!(e.did_you_mean().unwrap(), "did you mean use-of-md5?");
        let e = rule_ids(&a, "java.lang.crypto.use-of-md4.use-of-md5").unwrap_err();
        assert_eq!(
            e.did_you_mean().unwrap(),
            "did you mean java.lang.crypto.use-of-md5.use-of-md5?"
        );
    }
}
