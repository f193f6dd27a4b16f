//! Rules by their one name in the headless reports, as the list's RULE
//! column and the TUI name them ([`findings_model::rule_shown`]): a code
//! rule by its display name (from the deployment's filter values), its
//! id beside it; a supply-chain rule by its advisory and package
//! (`CVE-2021-44906 minimist`), which the filter values do not carry: the
//! package comes from one of the rule's findings, asked once a run for
//! each such rule a report names ([`findings_client::advisory_labels`]).
//! A supply-chain rule's id is opaque (`ssc-<uuid>`): formats for people
//! (a table, Markdown, HTML) leave it out; formats for programs (CSV,
//! NDJSON, JSON) keep it in its id field, beside the name.

use findings_client::Client;
use findings_model::{IssueFiltersRequest, IssueFiltersResponse, RuleLabels, rule_shown};

/// The names of a run's rules: the filter values, and the labels
/// supply-chain findings gave.
#[derive(Debug, Clone, Default)]
pub struct RuleNames {
    values: Option<IssueFiltersResponse>,
    labels: RuleLabels,
}

impl RuleNames {
    /// The names of the rules `ids`: the deployment's filter values (none
    /// when they cannot be had: each rule by its id's last part), and for
    /// each supply-chain rule among them whose package `labels` does not
    /// know yet, one of its findings.
    pub async fn of<'a>(
        client: &Client,
        ids: impl IntoIterator<Item = &'a str>,
        labels: RuleLabels,
    ) -> RuleNames {
        let values = client
            .issue_filters(&IssueFiltersRequest::default())
            .await
            .ok();
        Self::with_values(client, ids, labels, values).await
    }

    /// [`RuleNames::of`], the filter values already had (or not).
    pub async fn with_values<'a>(
        client: &Client,
        ids: impl IntoIterator<Item = &'a str>,
        mut labels: RuleLabels,
        values: Option<IssueFiltersResponse>,
    ) -> RuleNames {
        if let Some(values) = &values {
            let missing = labels.missing(ids, values);
            if !missing.is_empty() {
                labels.learn(&findings_client::advisory_labels(client, missing).await);
            }
        }
        RuleNames { values, labels }
    }

    /// Rule `id` by its one name.
    pub fn name(&self, id: &str) -> String {
        rule_shown(id, &self.labels, self.values.as_ref())
    }

    /// Whether rule `id` is a supply-chain rule named by its advisory:
    /// its id is opaque.
    pub fn is_advisory(&self, id: &str) -> bool {
        self.labels.of(id).is_some()
            || self
                .values
                .as_ref()
                .is_some_and(|v| v.names_an_advisory(id))
    }

    /// Rule `id` in one column for people, as the TUI's groups name it: a
    /// code rule by its display name and its id's last part
    /// (`Weak hash (MD5) used for card fingerprint · use-of-md5`), a
    /// supply-chain rule by its advisory and package alone.
    pub fn name_and_short_id(&self, id: &str) -> String {
        let name = self.name(id);
        let short = findings_model::short_rule(id);
        if self.is_advisory(id) || name == short {
            name
        } else {
            format!("{name} · {short}")
        }
    }

    /// Rule `id` as a format for people shows it beside the name: the id
    /// of a code rule, nothing for a supply-chain rule (its name says it).
    pub fn id_for_people<'a>(&self, id: &'a str) -> &'a str {
        if self.is_advisory(id) { "" } else { id }
    }
}
