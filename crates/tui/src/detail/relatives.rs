//! A finding's relatives: the findings of the same rule, the same
//! repository, or the same CVE in every repository, as a List issues
//! selection the Issues list narrows to.

use crate::keymap::Action;
use findings_model::*;

/// The selection of `issue`'s relatives for `action` (`RelatedRule`,
/// `RelatedRepo`, `RelatedCve`) and what to call them; `Err` says why the
/// finding has none.
pub fn relatives(issue: &Issue, action: Action) -> Result<(ListSelection, String), String> {
    let some = |v: Option<&str>| v.filter(|s| !s.trim().is_empty()).map(str::to_owned);
    let mut out = ListSelection::default();
    let what = match action {
        Action::RelatedRule => {
            // `ruleIds` applies to every type; `rules` (paths) to code only.
            if let Some(id) = some(issue.rule_id.as_deref()) {
                out.filter.rule_ids = vec![id.clone()];
                format!("rule {id}")
            } else if let Some(path) = some(issue.rule_path.as_deref()) {
                out.filter.rules = vec![path.clone()];
                format!("rule {path}")
            } else {
                return Err("this finding names no rule".into());
            }
        }
        Action::RelatedRepo => {
            let name = some(issue.repository.as_ref().and_then(|r| r.name.as_deref()))
                .ok_or("this finding names no repository")?;
            out.filter.repository_names = vec![name.clone()];
            format!("repository {name}")
        }
        Action::RelatedCve => {
            let cve = some(
                issue
                    .sca_attributes
                    .as_ref()
                    .and_then(|a| a.vuln_database_identifier.as_deref()),
            )
            .ok_or("this finding has no CVE (only supply-chain findings do)")?;
            // `cves` applies to supply-chain findings only (published).
            out.filter.cves = vec![cve.clone()];
            out.issue_types = vec![IssueType::Sca];
            format!("{cve} in every repository")
        }
        _ => return Err(String::new()),
    };
    Ok((out, what))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sca() -> Issue {
        Issue {
            rule_id: Some("ssc-1".into()),
            repository: Some(Repository {
                name: Some("shop".into()),
                ..Default::default()
            }),
            sca_attributes: Some(ScaAttributes {
                vuln_database_identifier: Some("CVE-2024-1".into()),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn each_relative_set_is_one_filter_field() {
        let (s, what) = relatives(&sca(), Action::RelatedRule).unwrap();
        assert_eq!(s.filter.rule_ids, vec!["ssc-1"]);
        assert_eq!(what, "rule ssc-1");
        let (s, _) = relatives(&sca(), Action::RelatedRepo).unwrap();
        assert_eq!(s.filter.repository_names, vec!["shop"]);
        assert!(s.filter.rule_ids.is_empty());
        let (s, what) = relatives(&sca(), Action::RelatedCve).unwrap();
        assert_eq!(s.filter.cves, vec!["CVE-2024-1"]);
        assert_eq!(s.issue_types, vec![IssueType::Sca]);
        assert_eq!(what, "CVE-2024-1 in every repository");
    }

    #[test]
    fn a_finding_without_the_field_says_so() {
        let code = Issue {
            rule_path: Some("p/r".into()),
            ..Default::default()
        };
        assert_eq!(
            relatives(&code, Action::RelatedRule)
                .unwrap()
                .0
                .filter
                .rules,
            vec!["p/r"]
        );
        assert!(relatives(&code, Action::RelatedRepo).is_err());
        assert!(
            relatives(&code, Action::RelatedCve)
                .unwrap_err()
                .contains("no CVE")
        );
    }
}
