//! The names a listing filters on, checked against the deployment before
//! the listing is asked for: a repository, rule, team, tag or ref it does
//! not have would match nothing and exit 0 with nothing, which a CI gate
//! reads as "clean". Such a name is a usage error (exit 2) naming the
//! closest ones it has ([`filters::check_known`]). `--rule` takes the name
//! a table shows and sends the full id(s) it stands for.
//!
//! A command first builds its request with [`Names::unchecked`] (usage
//! errors before connecting, and whether any name needs checking), then,
//! connected, with the deployment's filter values ([`fetch`]).

use crate::UsageError;
use crate::{Session, names_cache};
use findings_base::text::one_line;
use findings_config::SavedView;
use findings_model::{IssueFiltersRequest, IssueFiltersResponse};
use findings_requests::filter_spec::{self as filters, NamedField, Unknown};
use std::cell::Cell;

/// The deployment's names, or none to check against.
pub struct Names<'a> {
    known: Option<&'a IssueFiltersResponse>,
    fields: &'static [NamedField],
    /// Whether a name was given that the deployment's list would check.
    asked: Cell<bool>,
    /// The saved views `--view` names, once the settings are read (none
    /// before connecting: a view is applied, and checked, once connected).
    views: Option<&'a [SavedView]>,
}

impl<'a> Names<'a> {
    /// Checks nothing; notes whether anything would be checked.
    pub fn unchecked(fields: &'static [NamedField]) -> Self {
        Names::of(None, fields)
    }

    /// Checks against `known`, when the deployment's names could be had.
    pub fn of(known: Option<&'a IssueFiltersResponse>, fields: &'static [NamedField]) -> Self {
        Names {
            known,
            fields,
            asked: Cell::new(false),
            views: None,
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

    /// Every value of `field` (set by `flag`) must be one the deployment
    /// has.
    pub fn check(&self, field: &str, flag: &str, values: &[String]) -> Result<(), UsageError> {
        let Some(named) = self.fields.iter().find(|n| n.field == field) else {
            return Ok(());
        };
        if values.is_empty() {
            return Ok(());
        }
        self.asked.set(true);
        match self.known {
            Some(answer) => filters::check_known(answer, named, values)
                .map_err(|unknown| refused(flag, &unknown)),
            None => Ok(()),
        }
    }

    /// `--filter` pairs, each checked as its field is.
    pub fn check_pairs(&self, pairs: &[(String, String)]) -> Result<(), UsageError> {
        for (field, value) in pairs {
            self.check(
                field,
                &format!("--filter {field}"),
                std::slice::from_ref(value),
            )?;
        }
        Ok(())
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
    let hint = unknown
        .did_you_mean()
        .unwrap_or_else(|| format!("it lists {} and none is close", unknown.known));
    UsageError(format!(
        "{flag} {:?}: the deployment has no such {}; {hint}",
        one_line(&unknown.value),
        unknown.noun
    ))
}

/// The request `build` makes with the names checked that `probe` (the
/// same build, unchecked, before connecting) found given.
/// The names fetched are kept for shell completion ([`names_cache`]).
pub async fn checked<R>(
    session: &Session,
    probe: &Names<'_>,
    build: impl Fn(&Names) -> Result<R, UsageError>,
) -> Result<R, UsageError> {
    let known = fetch(session, probe.asked()).await;
    build(&Names::of(known.as_ref(), probe.fields).with_views(&session.views))
}

/// The deployment's filter values (`IssuesService_GetIssueFilters`), when
/// a name needs checking. When they cannot be had the listing goes on
/// unchecked, after one warning.
async fn fetch(session: &Session, needed: bool) -> Option<IssueFiltersResponse> {
    if !needed {
        return None;
    }
    match session
        .client
        .issue_filters(&IssueFiltersRequest::default())
        .await
    {
        Ok(answer) => {
            names_cache::store(session.profile.as_deref(), &answer);
            Some(answer)
        }
        Err(e) => {
            eprintln!(
                "findings: warning: the deployment's names could not be fetched to check the filter ({e}); sent unchecked"
            );
            None
        }
    }
}
