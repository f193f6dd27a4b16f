//! Counts of the loaded findings for the charts that the API cannot count
//! (top rules, top projects), kept up to date as pages arrive so a frame
//! does no O(n) work.

use super::TOP;
use findings_model::{Issue, short_rule};
use std::collections::HashMap;

/// Counts over the loaded findings, kept up to date as pages arrive.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// By rule id (else its label): the label, and the count.
    rules: HashMap<String, (String, u64)>,
    projects: HashMap<String, u64>,
    /// The most frequent rules, most first (ties by name), one row a rule,
    /// labelled so that no two read the same ([`rule_labels`]).
    pub top_rules: Vec<(String, u64)>,
    /// The most frequent projects (repositories), most first.
    pub top_projects: Vec<(String, u64)>,
    /// Findings counted.
    pub count: u64,
}

impl Stats {
    /// Counts a page of findings and refreshes the top lists.
    pub fn add(&mut self, findings: &[Issue]) {
        for i in findings {
            let label = match i.rule_label() {
                r if r.is_empty() => "(no rule)".to_owned(),
                r => r,
            };
            let key = match i.rule_id.as_deref() {
                Some(id) if !id.is_empty() => id.to_owned(),
                _ => label.clone(),
            };
            self.rules.entry(key).or_insert((label, 0)).1 += 1;
            let project = match i.repository_name() {
                "" => "(no project)",
                p => p,
            };
            *self.projects.entry(project.to_owned()).or_default() += 1;
            self.count += 1;
        }
        if !findings.is_empty() {
            self.top_rules = top_rules(&self.rules);
            self.top_projects = top(&self.projects);
        }
    }
}

/// The most frequent rules, each with a label of its own: the short name,
/// and where rules share one, the first parts of the rule id that tell them
/// apart (`tainted-sql-string (java)`, `tainted-sql-string (ruby)`).
fn top_rules(rules: &HashMap<String, (String, u64)>) -> Vec<(String, u64)> {
    let mut all: Vec<(&str, &str, u64)> = rules
        .iter()
        .map(|(key, (label, n))| (key.as_str(), short_rule(label), *n))
        .collect();
    all.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| (a.1, a.0).cmp(&(b.1, b.0))));
    all.truncate(TOP);
    let labels = rule_labels(&all.iter().map(|(k, l, _)| (*k, *l)).collect::<Vec<_>>());
    labels
        .into_iter()
        .zip(all)
        .map(|(l, (_, _, n))| (l, n))
        .collect()
}

/// Labels for rules given as (rule id, short name): the short name alone
/// when no other has it, else with the shortest leading part of the dotted
/// rule id that no other of that name shares (the whole id, if none does).
pub fn rule_labels(rules: &[(&str, &str)]) -> Vec<String> {
    rules
        .iter()
        .map(|&(key, name)| {
            let namesakes: Vec<&str> = rules
                .iter()
                .filter(|(k, n)| *n == name && *k != key)
                .map(|(k, _)| *k)
                .collect();
            if namesakes.is_empty() {
                return name.to_owned();
            }
            let parts: Vec<&str> = key.split('.').collect();
            let qualifier = (1..parts.len())
                .map(|n| parts[..n].join("."))
                .find(|prefix| {
                    namesakes
                        .iter()
                        .all(|k| !k.starts_with(&format!("{prefix}.")))
                })
                .unwrap_or_else(|| key.to_owned());
            format!("{name} ({qualifier})")
        })
        .collect()
}

fn top(counts: &HashMap<String, u64>) -> Vec<(String, u64)> {
    let mut all: Vec<(&String, &u64)> = counts.iter().collect();
    all.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    all.into_iter()
        .take(TOP)
        .map(|(k, v)| (k.clone(), *v))
        .collect()
}
