//! Advisory ids, what `cves` and `advisoryIds` (`--cve`) take: checked as
//! a repository is, against the advisories the deployment lists (the CVE
//! and GHSA ids of its supply-chain rules, `rules[].scaCve` and
//! `rules[].scaGhsa` of `IssuesService_GetIssueFilters`), with three
//! differences an advisory id calls for: case is ignored (`cve-2021-44228`
//! is `CVE-2021-44228`); an alias is sent as the id the deployment knows
//! the advisory by, and said; and a typo is refused with the ids only an
//! edit or two away (any CVE id is a few edits from hundreds of others).
//!
//! The answer pairs a CVE with its GHSA alias only when a rule carries
//! both. An alias it does not pair is looked for in the advisory's
//! references (a finding's `ruleReferences`, `https://osv.dev/vulnerability/
//! GHSA-…`), which the caller reads: [`Advisories::candidates`] says whose,
//! [`Advisories::learn`] takes what they name.

use super::suggest::edits;
use super::unknown::Unknown;
use findings_model::{IssueFiltersResponse, IssueType, ListIssuesFilter, ListIssuesRequest};

/// One advisory the deployment lists.
#[derive(Debug, Clone, PartialEq)]
pub struct Advisory {
    /// The id the deployment knows it by: its CVE when it has one.
    pub id: String,
    /// Its other ids (a GHSA id), as listed or as its references name them.
    pub aliases: Vec<String>,
    /// The rules of the advisory (their ids).
    pub rules: Vec<String>,
}

/// The advisories of the filter values' answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Advisories {
    list: Vec<Advisory>,
}

/// An advisory id as the filter sends it.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The id sent.
    pub id: String,
    /// The alias given, when the id sent is another (said on stderr or in
    /// the status line).
    pub alias: Option<String>,
}

impl Resolved {
    /// "GHSA-… is an alias of CVE-…", when an alias was given.
    pub fn said(&self, flag: &str) -> Option<String> {
        let alias = self.alias.as_deref()?;
        Some(format!(
            "{flag} {:?} is an alias of {}: the filter asks for {}",
            findings_base::text::one_line(alias),
            self.id,
            self.id
        ))
    }
}

/// How many ids apart a typo may be.
const TYPO_EDITS: usize = 2;

impl Advisories {
    /// The advisories `answer` lists, one per id (the rules of one advisory
    /// together), in the answer's order.
    pub fn of(answer: &IssueFiltersResponse) -> Self {
        let mut advisories = Advisories::default();
        for rule in &answer.rules {
            let (cve, ghsa) = (some(&rule.sca_cve), some(&rule.sca_ghsa));
            let Some(id) = cve.or(ghsa) else { continue };
            let alias = cve.and(ghsa);
            let at = advisories.find(id).unwrap_or_else(|| {
                advisories.list.push(Advisory {
                    id: id.to_owned(),
                    aliases: Vec::new(),
                    rules: Vec::new(),
                });
                advisories.list.len() - 1
            });
            let entry = &mut advisories.list[at];
            if let Some(alias) = alias
                && !entry.aliases.iter().any(|a| a.eq_ignore_ascii_case(alias))
            {
                entry.aliases.push(alias.to_owned());
            }
            if let Some(rule_id) = some(&rule.id)
                && !entry.rules.iter().any(|r| r == rule_id)
            {
                entry.rules.push(rule_id.to_owned());
            }
        }
        advisories
    }

    /// Whether the answer lists no advisory (then only the form of an id
    /// can be checked).
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    fn find(&self, id: &str) -> Option<usize> {
        self.list.iter().position(|a| a.id.eq_ignore_ascii_case(id))
    }

    /// The advisory `value` names, by its id or an alias, case ignored.
    /// When the answer lists none, the value in its canonical form.
    pub fn resolve(&self, value: &str) -> Result<Resolved, Unknown> {
        let value = value.trim();
        let Some(canonical) = canonical(value) else {
            return Err(Unknown {
                value: value.to_owned(),
                noun: "advisory",
                nearest: Vec::new(),
                known: self.list.len(),
                form: Some(FORMS),
            });
        };
        if self.list.is_empty() {
            return Ok(Resolved {
                id: canonical,
                alias: None,
            });
        }
        if let Some(k) = self.find(value) {
            return Ok(Resolved {
                id: self.list[k].id.clone(),
                alias: None,
            });
        }
        if let Some(a) = self
            .list
            .iter()
            .find(|a| a.aliases.iter().any(|x| x.eq_ignore_ascii_case(value)))
        {
            return Ok(Resolved {
                id: a.id.clone(),
                alias: Some(canonical),
            });
        }
        Err(Unknown {
            value: value.to_owned(),
            noun: "advisory",
            nearest: self.typo_of(&canonical),
            known: self.list.len(),
            form: None,
        })
    }

    /// The listed ids (and aliases) at most [`TYPO_EDITS`] from `value`,
    /// nearest first, at most 3.
    fn typo_of(&self, value: &str) -> Vec<String> {
        let value = value.to_ascii_lowercase();
        let mut near: Vec<(usize, &String)> = self
            .list
            .iter()
            .flat_map(|a| std::iter::once(&a.id).chain(&a.aliases))
            .map(|id| (edits(&id.to_ascii_lowercase(), &value), id))
            .filter(|(d, _)| *d <= TYPO_EDITS)
            .collect();
        near.sort_by_key(|(d, _)| *d);
        let mut out: Vec<String> = Vec::new();
        for (_, id) in near {
            if out.len() < 3 && !out.contains(id) {
                out.push(id.clone());
            }
        }
        out
    }

    /// The rules whose references could name `value` as an alias the
    /// answer does not list: those of the advisories with no id of its
    /// kind (a GHSA id is looked for among advisories without one). None
    /// when `value` is listed, or not an advisory id.
    pub fn candidates(&self, value: &str) -> Vec<String> {
        let Some(value) = canonical(value) else {
            return Vec::new();
        };
        if self.resolve(&value).is_ok() {
            return Vec::new();
        }
        let kind = prefix(&value);
        self.list
            .iter()
            .filter(|a| {
                !std::iter::once(&a.id)
                    .chain(&a.aliases)
                    .any(|id| prefix(id).eq_ignore_ascii_case(kind))
            })
            .flat_map(|a| a.rules.iter().cloned())
            .collect()
    }

    /// `alias` is another id of the advisory of rule `rule_id` (its
    /// references name it).
    pub fn learn(&mut self, rule_id: &str, alias: &str) {
        if let Some(a) = self
            .list
            .iter_mut()
            .find(|a| a.rules.iter().any(|r| r == rule_id))
            && !a.id.eq_ignore_ascii_case(alias)
            && !a.aliases.iter().any(|x| x.eq_ignore_ascii_case(alias))
        {
            a.aliases.push(alias.to_owned());
        }
    }

    /// Every id and alias, for completion.
    pub fn ids(&self) -> Vec<String> {
        self.list
            .iter()
            .flat_map(|a| std::iter::once(a.id.clone()).chain(a.aliases.iter().cloned()))
            .collect()
    }
}

/// The most pages of findings an [`AliasSearch`] reads.
const ALIAS_PAGES: usize = 5;

/// An advisory id the answer does not list, looked for in the references
/// of the advisories that could have it as an alias
/// ([`Advisories::candidates`]): a page of their supply-chain findings at a
/// time, each rule's references read from its first finding, until one
/// names it, every such rule was read (or has no finding: an alias of its
/// would match nothing anyway), or [`ALIAS_PAGES`] pages.
#[derive(Debug, Clone, PartialEq)]
pub struct AliasSearch {
    /// The id looked for, canonical.
    pub value: String,
    /// The rules whose references are not read yet.
    left: Vec<String>,
    pages: usize,
}

/// What a page of an [`AliasSearch`] found.
#[derive(Debug, Clone, PartialEq)]
pub enum AliasStep {
    /// The references of this rule name it: its advisory's alias.
    Found(String),
    /// Not yet: ask for the next page ([`AliasSearch::request`]).
    Next,
    /// Not there.
    Done,
}

impl AliasSearch {
    /// The search for `value`, when it is an advisory id that `advisories`
    /// do not list and could have as an alias.
    pub fn new(advisories: &Advisories, value: &str) -> Option<Self> {
        let value = canonical(value)?;
        let left = advisories.candidates(&value);
        (!left.is_empty()).then_some(AliasSearch {
            value,
            left,
            pages: 0,
        })
    }

    /// The next page to read: List issues of the rules left, supply chain
    /// only, `limit` findings.
    pub fn request(&self, limit: i64) -> ListIssuesRequest {
        ListIssuesRequest {
            limit: Some(limit),
            issue_types: vec![IssueType::Sca],
            filter: Some(ListIssuesFilter {
                rule_ids: self.left.clone(),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    /// Reads a page: each finding's rule id and references.
    pub fn read<'a>(
        &mut self,
        findings: impl IntoIterator<Item = (Option<&'a str>, &'a [String])>,
    ) -> AliasStep {
        self.pages += 1;
        let mut read = false;
        for (rule, references) in findings {
            let Some(k) = self.left.iter().position(|r| Some(r.as_str()) == rule) else {
                continue;
            };
            let rule = self.left.swap_remove(k);
            read = true;
            if named_in(references, &self.value) {
                return AliasStep::Found(rule);
            }
        }
        if read && !self.left.is_empty() && self.pages < ALIAS_PAGES {
            AliasStep::Next
        } else {
            AliasStep::Done
        }
    }
}

/// The forms an advisory id takes, as a refusal names them.
const FORMS: &str =
    "CVE-YYYY-NNNN, GHSA-xxxx-xxxx-xxxx, or another database's PREFIX-ID (MAL-2024-1234)";

/// A value that is there and not blank, trimmed.
fn some(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// The part before the first `-`.
fn prefix(id: &str) -> &str {
    id.split('-').next().unwrap_or("")
}

/// `value` as the advisory databases write it (`CVE-2021-44228`,
/// `GHSA-jfh8-c2jp-5v3q`, `MAL-2024-1234`), when it has the form of an
/// advisory id: a prefix of letters, then an id; a CVE id's year and
/// number, a GHSA id's three groups of four.
pub fn canonical(value: &str) -> Option<String> {
    let value = value.trim();
    let (prefix, rest) = value.split_once('-')?;
    let word = |s: &str, ok: fn(char) -> bool| !s.is_empty() && s.chars().all(ok);
    if !word(prefix, |c| c.is_ascii_alphabetic()) || prefix.len() > 12 {
        return None;
    }
    let prefix = prefix.to_ascii_uppercase();
    match prefix.as_str() {
        "CVE" => {
            let (year, number) = rest.split_once('-')?;
            let digits = |s: &str| word(s, |c| c.is_ascii_digit());
            (digits(year) && year.len() == 4 && digits(number) && number.len() >= 4)
                .then(|| format!("CVE-{rest}"))
        }
        "GHSA" => {
            let groups: Vec<&str> = rest.split('-').collect();
            (groups.len() == 3
                && groups
                    .iter()
                    .all(|g| g.len() == 4 && word(g, |c| c.is_ascii_alphanumeric())))
            .then(|| format!("GHSA-{}", rest.to_ascii_lowercase()))
        }
        _ => word(rest, |c| c.is_ascii_alphanumeric() || "-_.:".contains(c))
            .then(|| format!("{prefix}-{}", rest.to_ascii_uppercase())),
    }
}

/// Whether one of `references` (URLs) names advisory `id`: a part of it
/// between `/`, `?`, `#`, `=`, `&` or `.` is the id, case ignored
/// (`https://osv.dev/vulnerability/GHSA-jfh8-c2jp-5v3q`).
pub fn named_in(references: &[String], id: &str) -> bool {
    references.iter().any(|r| {
        r.split(|c: char| "/?#=&.:".contains(c) || c.is_whitespace())
            .any(|part| part.eq_ignore_ascii_case(id))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::RuleFilterItem;

    fn rule(id: &str, cve: Option<&str>, ghsa: Option<&str>) -> RuleFilterItem {
        RuleFilterItem {
            id: Some(id.into()),
            name: Some("an advisory".into()),
            sca_cve: cve.map(str::to_owned),
            sca_ghsa: ghsa.map(str::to_owned),
        }
    }

    fn advisories() -> Advisories {
        Advisories::of(&IssueFiltersResponse {
            rules: vec![
                rule("java.lang.md5", None, None),
                rule("ssc-log4j", Some("CVE-2021-44228"), None),
                rule("ssc-log4j-2", Some("CVE-2021-44228"), None),
                rule(
                    "ssc-lodash",
                    Some("CVE-2021-23337"),
                    Some("GHSA-35jh-r3h4-6jhm"),
                ),
                rule("ssc-mal", None, Some("GHSA-mh6f-8j2x-4483")),
            ],
            ..Default::default()
        })
    }

    #[test]
    fn an_advisory_goes_by_its_id_in_any_case_or_a_listed_alias() {
        let a = advisories();
        let sent = |v: &str| a.resolve(v).map(|r| (r.id, r.alias));
        assert_eq!(sent("CVE-2021-44228"), Ok(("CVE-2021-44228".into(), None)));
        assert_eq!(
            sent(" cve-2021-44228 "),
            Ok(("CVE-2021-44228".into(), None))
        );
        assert_eq!(
            sent("ghsa-35JH-r3h4-6jhm"),
            Ok((
                "CVE-2021-23337".into(),
                Some("GHSA-35jh-r3h4-6jhm".to_owned())
            ))
        );
        assert_eq!(
            sent("GHSA-MH6F-8J2X-4483"),
            Ok(("GHSA-mh6f-8j2x-4483".into(), None))
        );
        let said = a.resolve("GHSA-35jh-r3h4-6jhm").unwrap().said("--cve");
        assert_eq!(
            said.unwrap(),
            "--cve \"GHSA-35jh-r3h4-6jhm\" is an alias of CVE-2021-23337: the filter asks for CVE-2021-23337"
        );
    }

    #[test]
    fn a_typo_is_refused_with_the_ids_an_edit_or_two_away() {
        let a = advisories();
        let e = a.resolve("CVE-2021-44229").unwrap_err();
        assert_eq!(e.noun, "advisory");
        assert_eq!(e.known, 3);
        assert_eq!(e.did_you_mean().unwrap(), "did you mean CVE-2021-44228?");
        let e = a.resolve("CVE-1999-00001").unwrap_err();
        assert_eq!(e.did_you_mean(), None);
        // Not the form of an advisory id: said with the forms there are.
        let e = a.resolve("log4shell").unwrap_err();
        assert!(e.form.is_some());
        assert!(a.resolve("CVE-21-1").is_err());
    }

    #[test]
    fn without_a_list_the_form_is_checked_and_the_case_made_canonical() {
        let none = Advisories::default();
        assert_eq!(none.resolve("cve-2021-44228").unwrap().id, "CVE-2021-44228");
        assert_eq!(
            none.resolve("ghsa-JFH8-c2jp-5v3q").unwrap().id,
            "GHSA-jfh8-c2jp-5v3q"
        );
        assert_eq!(none.resolve("mal-2024-12ab").unwrap().id, "MAL-2024-12AB");
        assert!(none.resolve("CVE-2021").is_err());
        assert!(none.resolve("GHSA-jfh8-c2jp").is_err());
        assert!(none.resolve("2021-44228").is_err());
    }

    #[test]
    fn an_unlisted_alias_is_looked_for_in_the_references_of_advisories_without_one() {
        let mut a = advisories();
        // A GHSA id: the advisories without a GHSA id (log4j's two rules).
        assert_eq!(
            a.candidates("GHSA-jfh8-c2jp-5v3q"),
            vec!["ssc-log4j", "ssc-log4j-2"]
        );
        // A CVE id: those without a CVE.
        assert_eq!(a.candidates("CVE-2099-0001"), vec!["ssc-mal"]);
        // Listed, or not an id: nothing to look for.
        assert!(a.candidates("CVE-2021-44228").is_empty());
        assert!(a.candidates("nonsense").is_empty());
        let refs = vec![
            "https://nvd.nist.gov/vuln/detail/CVE-2021-44228".to_owned(),
            "https://osv.dev/vulnerability/GHSA-jfh8-c2jp-5v3q".to_owned(),
        ];
        assert!(named_in(&refs, "ghsa-jfh8-c2jp-5v3q"));
        assert!(!named_in(&refs, "GHSA-jfh8-c2jp-5v3"));
        a.learn("ssc-log4j-2", "GHSA-jfh8-c2jp-5v3q");
        let r = a.resolve("GHSA-JFH8-C2JP-5V3Q").unwrap();
        assert_eq!(r.id, "CVE-2021-44228");
        assert_eq!(r.alias.as_deref(), Some("GHSA-jfh8-c2jp-5v3q"));
        assert!(a.candidates("GHSA-jfh8-c2jp-5v3q").is_empty());
    }

    #[test]
    fn an_alias_search_reads_each_rule_once_and_stops_where_it_can() {
        let a = advisories();
        assert_eq!(AliasSearch::new(&a, "CVE-2021-44228"), None, "listed");
        assert_eq!(AliasSearch::new(&a, "log4shell"), None, "no id");
        let mut search = AliasSearch::new(&a, "ghsa-jfh8-c2jp-5v3q").unwrap();
        let request = search.request(1000);
        assert_eq!(request.issue_types, vec![IssueType::Sca]);
        assert_eq!(
            request.filter.unwrap().rule_ids,
            vec!["ssc-log4j", "ssc-log4j-2"]
        );
        let none: Vec<String> = Vec::new();
        let named = ["https://osv.dev/vulnerability/GHSA-jfh8-c2jp-5v3q".to_owned()];
        // A rule read without it: the next page asks for the other only.
        assert_eq!(
            search.read([(Some("ssc-log4j"), &none[..])]),
            AliasStep::Next
        );
        assert_eq!(
            search.request(1000).filter.unwrap().rule_ids,
            vec!["ssc-log4j-2"]
        );
        assert_eq!(
            search.read([(Some("ssc-log4j-2"), &named[..])]),
            AliasStep::Found("ssc-log4j-2".into())
        );
        // A page of none of the rules left: they have no finding.
        let mut search = AliasSearch::new(&a, "GHSA-jfh8-c2jp-5v3q").unwrap();
        assert_eq!(search.read([(Some("other"), &named[..])]), AliasStep::Done);
    }
}
