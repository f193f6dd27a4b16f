//! The names a listing filters on, checked against the deployment before
//! the listing is asked for: a repository, rule, team, tag, ref or
//! advisory it does not have would match nothing and exit 0 with nothing,
//! which a CI gate reads as "clean". Such a name is a usage error (exit 2)
//! naming the closest ones it has ([`filters::check_known`]). `--rule`
//! takes the name a table shows and sends the full id(s) it stands for;
//! `--cve` takes an advisory id in any case, or an alias of it
//! ([`filters::Advisories`]), and sends the id the deployment knows.
//!
//! A command first builds its request with [`Names::unchecked`] (usage
//! errors before connecting, and whether any name needs checking), then,
//! connected, with the deployment's filter values ([`checked`]).
//!
//! The check fails closed: when the names cannot be had (a 5xx, a 429, a
//! timeout, after the retries every read gets), a gate (`--exit-code`) or
//! a write stops with exit 1 and the reason; a plain listing
//! ([`Names::listing`]) goes on after one warning, and exits 1 if nothing
//! matched ([`NamesCheck::gate`]). A refused token or connection is the
//! command's own error, said once.

use crate::scripting::Script;
use crate::{Failure, UsageError};
use crate::{Session, names_cache};
use findings_base::text::one_line;
use findings_client::{ApiError, Client};
use findings_config::SavedView;
use findings_model::{IssueFiltersRequest, IssueFiltersResponse};
use findings_requests::filter_spec::{self as filters, Advisories, NamedField, Unknown};
use serde::Deserialize;
use std::cell::{Cell, RefCell};

/// The deployment's names, or none to check against.
pub struct Names<'a> {
    known: Option<&'a IssueFiltersResponse>,
    /// The advisories of `known`, with the aliases their references name.
    advisories: Option<&'a Advisories>,
    fields: &'static [NamedField],
    /// Whether a name was given that the deployment's list would check.
    asked: Cell<bool>,
    /// The advisory ids given, as typed (an alias the answer does not
    /// pair is looked for in references before the check).
    advisories_given: RefCell<Vec<String>>,
    /// The saved views `--view` names, once the settings are read (none
    /// before connecting: a view is applied, and checked, once connected).
    views: Option<&'a [SavedView]>,
    /// The build that is sent: what it has to say (an alias resolved, a
    /// type added) is said, once.
    sent: bool,
    /// What happens when the deployment's names cannot be had: a stop,
    /// unless a plain listing says otherwise ([`Names::listing`]).
    if_unchecked: IfUnchecked,
}

impl<'a> Names<'a> {
    /// Checks nothing; notes whether anything would be checked.
    pub fn unchecked(fields: &'static [NamedField]) -> Self {
        Names {
            known: None,
            advisories: None,
            fields,
            asked: Cell::new(false),
            advisories_given: RefCell::new(Vec::new()),
            views: None,
            sent: false,
            if_unchecked: IfUnchecked::Refuse,
        }
    }

    /// For a listing, which goes on unchecked when the names cannot be had
    /// ([`IfUnchecked::Warn`]), unless it is a `gate` (`--exit-code`).
    pub fn listing(self, gate: bool) -> Self {
        let if_unchecked = if gate {
            IfUnchecked::Refuse
        } else {
            IfUnchecked::Warn
        };
        Names {
            if_unchecked,
            ..self
        }
    }

    /// Checks against `known` (and its `advisories`), when the
    /// deployment's names could be had: the build that is sent.
    fn of(
        known: Option<(&'a IssueFiltersResponse, &'a Advisories)>,
        fields: &'static [NamedField],
    ) -> Self {
        Names {
            known: known.map(|(k, _)| k),
            advisories: known.map(|(_, a)| a),
            sent: true,
            ..Names::unchecked(fields)
        }
    }

    /// With the saved views of the settings.
    pub fn with_views(self, views: &'a [SavedView]) -> Self {
        Names {
            views: Some(views),
            ..self
        }
    }

    /// The saved views, once the settings are read.
    pub fn views(&self) -> Option<&'a [SavedView]> {
        self.views
    }

    /// Whether any name given needs the deployment's names.
    pub fn asked(&self) -> bool {
        self.asked.get()
    }

    /// Says `note` on stderr, from the build that is sent only.
    pub fn say(&self, note: &str) {
        if self.sent {
            eprintln!("findings: {}", one_line(note));
        }
    }

    /// Every value of `field` (set by `flag`) must be one the deployment
    /// has.
    pub fn check(&self, field: &str, flag: &str, values: &[String]) -> Result<(), UsageError> {
        self.resolve(field, flag, values).map(drop)
    }

    /// The values of `field` (set by `flag`) as the filter sends them, each
    /// one the deployment has: an advisory in its listed spelling, an
    /// alias as the id it stands for (said). An advisory id is checked for
    /// its form even before connecting.
    pub fn resolve(
        &self,
        field: &str,
        flag: &str,
        values: &[String],
    ) -> Result<Vec<String>, UsageError> {
        let Some(named) = self.fields.iter().find(|n| n.field == field) else {
            return Ok(values.to_vec());
        };
        if values.is_empty() {
            return Ok(Vec::new());
        }
        self.asked.set(true);
        let none = Advisories::default();
        let resolved = match self.known {
            Some(answer) => {
                let advisories = self.advisories.unwrap_or(&none);
                filters::resolve_known(answer, advisories, named, values)
            }
            None if named.is_advisory() => {
                let mut given = self.advisories_given.borrow_mut();
                given.extend(values.iter().cloned());
                values.iter().map(|v| none.resolve(v)).collect()
            }
            None => return Ok(values.to_vec()),
        }
        .map_err(|unknown| refused(flag, &unknown))?;
        let mut sent = Vec::with_capacity(resolved.len());
        for r in resolved {
            if let Some(said) = r.said(flag) {
                self.say(&said);
            }
            if !sent.contains(&r.id) {
                sent.push(r.id);
            }
        }
        Ok(sent)
    }

    /// `--filter` pairs, each as its field sends it ([`Names::resolve`]).
    pub fn check_pairs(
        &self,
        pairs: Vec<(String, String)>,
    ) -> Result<Vec<(String, String)>, UsageError> {
        let mut out = Vec::with_capacity(pairs.len());
        for (field, value) in pairs {
            let flag = format!("--filter {field}");
            for sent in self.resolve(&field, &flag, std::slice::from_ref(&value))? {
                out.push((field.clone(), sent));
            }
        }
        Ok(out)
    }

    /// The full rule ids the names given to `flag` stand for (a name a
    /// table shows may stand for several: they are all asked for, and
    /// stderr says which).
    pub fn rule_ids(&self, flag: &str, names: &[String]) -> Result<Vec<String>, UsageError> {
        if names.is_empty() {
            return Ok(Vec::new());
        }
        self.asked.set(true);
        let Some(answer) = self.known else {
            return Ok(names.to_vec());
        };
        let mut ids: Vec<String> = Vec::new();
        for name in names {
            let found = filters::rule_ids(answer, name).map_err(|u| refused(flag, &u))?;
            if found.len() > 1 {
                let shown: Vec<String> = found.iter().map(|id| one_line(id).into_owned()).collect();
                eprintln!(
                    "findings: {flag} {:?} stands for {} rules, all asked for (give a full id for one): {}",
                    one_line(name.trim()),
                    found.len(),
                    shown.join(", ")
                );
            }
            for id in found {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        Ok(ids)
    }
}

/// `--repo "payments-api": the deployment has no such repository; did you
/// mean acme/payments-api?`
fn refused(flag: &str, unknown: &Unknown) -> UsageError {
    let value = one_line(&unknown.value);
    if let Some(form) = unknown.form {
        return UsageError(format!(
            "{flag} {value:?}: not an {} id; it takes {form}",
            unknown.noun
        ));
    }
    let hint = unknown
        .did_you_mean()
        .unwrap_or_else(|| format!("it lists {} and none is close", unknown.known));
    UsageError(format!(
        "{flag} {value:?}: the deployment has no such {}; {hint}",
        unknown.noun
    ))
}

/// What a command does when the names its filter uses cannot be had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum IfUnchecked {
    /// Stop with exit 1 and the reason: a gate (`--exit-code`), a write,
    /// a snapshot (what is compared later), a summary.
    Refuse,
    /// Go on after one warning; nothing matched is exit 1
    /// ([`NamesCheck::gate`]).
    Warn,
}

/// Whether the names were checked, for the end of a listing.
#[derive(Debug, Default)]
#[must_use]
pub struct NamesCheck {
    /// Why not (the lookup's error), when they went unchecked.
    unchecked: Option<String>,
}

impl NamesCheck {
    /// Whether the names were checked (or none needed it): only then is an
    /// empty answer said as such ([`super::say_empty`]); unchecked, the
    /// gate's error says it.
    pub fn checked(&self) -> bool {
        self.unchecked.is_none()
    }

    /// The verdict of a listing of `matched` items: none matched with names
    /// unchecked is exit 1, never an empty answer that reads as clean;
    /// else the script's (`--exit-code`).
    pub fn gate(&self, script: &Script, matched: usize) -> Result<(), Failure> {
        match &self.unchecked {
            Some(why) if matched == 0 => Err(Failure::Runtime(format!(
                "nothing matched, with the filter's names unchecked (they could not be \
                 fetched: {why}): a name the deployment lacks matches nothing, so this is no \
                 clean answer"
            ))),
            _ => script.gate(matched),
        }
    }
}

/// The request `build` makes with the names checked that `probe` (the
/// same build, unchecked, before connecting) found given. When they
/// cannot be had, the probe says what happens ([`Names::listing`]).
/// The names fetched are kept for shell completion ([`names_cache`]).
pub async fn checked<R>(
    session: &Session,
    probe: &Names<'_>,
    build: impl Fn(&Names) -> Result<R, UsageError>,
) -> Result<(R, NamesCheck), Failure> {
    let mut check = NamesCheck::default();
    let known = match fetch(session, probe).await {
        Ok(known) => known,
        // What the listing would meet too: its own error, said once.
        Err(e) if ends_the_command(&e) => return Err(e.into()),
        Err(e) => {
            let e = one_line(&e.to_string()).into_owned();
            if probe.if_unchecked == IfUnchecked::Refuse {
                return Err(Failure::Runtime(format!(
                    "the deployment's names could not be fetched to check the filter ({e}): \
                     stopped before anything was listed or sent (a name it lacks would match \
                     nothing, which reads as clean)"
                )));
            }
            eprintln!(
                "findings: warning: the deployment's names could not be fetched ({e}): \
                 the filter is sent unchecked, and nothing matched exits 1"
            );
            check.unchecked = Some(e);
            None
        }
    };
    let known = known
        .as_ref()
        .map(|(answer, advisories)| (answer, advisories));
    let names = Names::of(known, probe.fields).with_views(&session.views);
    Ok((build(&names)?, check))
}

/// A failure of the names lookup that the command cannot get past: the
/// token refused, no connection, a configuration the client refused.
fn ends_the_command(e: &ApiError) -> bool {
    matches!(
        e,
        ApiError::Unauthorized(_)
            | ApiError::Connect(_)
            | ApiError::ConnectTimeout(_)
            | ApiError::Config(_)
    )
}

/// The deployment's filter values (`IssuesService_GetIssueFilters`, a
/// read: retried as reads are), when a name needs checking, with the
/// advisories they list and the aliases of those `probe` was given.
async fn fetch(
    session: &Session,
    probe: &Names<'_>,
) -> Result<Option<(IssueFiltersResponse, Advisories)>, ApiError> {
    if !probe.asked() {
        return Ok(None);
    }
    let answer = session
        .client
        .issue_filters(&IssueFiltersRequest::default())
        .await?;
    names_cache::store(session.profile.as_deref(), &answer);
    let mut advisories = Advisories::of(&answer);
    let given = probe.advisories_given.borrow().clone();
    for value in &given {
        find_alias(&session.client, &mut advisories, value).await?;
    }
    Ok(Some((answer, advisories)))
}

/// Looks for advisory id `value`, when the answer does not list it, in
/// the references of the advisories that could have it as an alias
/// ([`filters::AliasSearch`]).
async fn find_alias(
    client: &Client,
    advisories: &mut Advisories,
    value: &str,
) -> Result<(), ApiError> {
    let Some(mut search) = filters::AliasSearch::new(advisories, value) else {
        return Ok(());
    };
    loop {
        let request = search.request(findings_model::MAX_PAGE_SIZE);
        let page: ReferencesPage = client.list_issues_as(&request).await?;
        let findings = page
            .issues
            .iter()
            .flatten()
            .filter_map(|i| i.issue.as_ref());
        let step = search.read(findings.map(|f| {
            let references = f.rule_references.as_deref().unwrap_or_default();
            (f.rule_id.as_deref(), references)
        }));
        match step {
            filters::AliasStep::Found(rule) => {
                advisories.learn(&rule, &search.value);
                return Ok(());
            }
            filters::AliasStep::Next => {}
            filters::AliasStep::Done => return Ok(()),
        }
    }
}

/// A page of List issues, only each finding's rule and references read.
#[derive(Deserialize)]
struct ReferencesPage {
    issues: Option<Vec<ReferencesItem>>,
}

#[derive(Deserialize)]
struct ReferencesItem {
    issue: Option<References>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct References {
    rule_id: Option<String>,
    rule_references: Option<Vec<String>>,
}
