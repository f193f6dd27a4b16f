//! The checked values of the config file: each refuses what the app could
//! not use, with a message that names what it takes.

use findings_model::{ListSelection, MAX_PAGE_SIZE, SortBy, SortDirection};
use findings_requests::filter_spec::{self, LIST_FILTER};
use serde::Deserialize;
use std::fmt;

/// A numeric deployment id, written as a string or an integer.
pub(super) struct DeploymentId(pub(super) String);

impl<'de> Deserialize<'de> for DeploymentId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = DeploymentId;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a numeric deployment id, e.g. 4711 or \"4711\"")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<DeploymentId, E> {
                if v < 0 {
                    return Err(E::custom(format!(
                        "deployment must be a numeric id, not {v}"
                    )));
                }
                Ok(DeploymentId(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<DeploymentId, E> {
                Ok(DeploymentId(v.to_string()))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<DeploymentId, E> {
                let v = v.trim();
                if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(E::custom(format!(
                        "deployment must be a numeric id, not {v:?}"
                    )));
                }
                Ok(DeploymentId(v.to_owned()))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
#[serde(try_from = "i64")]
pub(super) struct PageSize(pub(super) i64);

impl TryFrom<i64> for PageSize {
    type Error = String;
    fn try_from(n: i64) -> Result<PageSize, String> {
        if (1..=MAX_PAGE_SIZE).contains(&n) {
            Ok(PageSize(n))
        } else {
            Err(format!("page_size must be 1 to {MAX_PAGE_SIZE}, not {n}"))
        }
    }
}

/// The longest `connect_timeout` and `timeout` (seconds), as their flags
/// take them.
pub const MAX_CONNECT_TIMEOUT: u64 = 600;
pub const MAX_REQUEST_TIMEOUT: u64 = 3600;

/// A timeout in whole seconds, 1 to `MAX`.
#[derive(Deserialize)]
#[serde(try_from = "i64")]
pub(super) struct Seconds<const MAX: u64>(pub(super) u64);

impl<const MAX: u64> TryFrom<i64> for Seconds<MAX> {
    type Error = String;
    fn try_from(n: i64) -> Result<Self, String> {
        match u64::try_from(n) {
            Ok(s) if (1..=MAX).contains(&s) => Ok(Seconds(s)),
            _ => Err(format!("must be 1 to {MAX} seconds, not {n}")),
        }
    }
}

/// A pane's name as `default_pane` gives it, in any case. Which panes
/// there are is the TUI's to say (each pane declares its name); the wiring
/// checks it before the TUI starts. (Interned: a `&'static str` field
/// would make serde ask the input to live for ever.)
#[derive(Deserialize)]
#[serde(try_from = "String")]
pub(super) struct PaneName(super::keymap_file::Name);

impl PaneName {
    pub(super) fn name(&self) -> &'static str {
        self.0.as_str()
    }
}

impl TryFrom<String> for PaneName {
    type Error = String;
    fn try_from(s: String) -> Result<PaneName, String> {
        let name = s.trim().to_ascii_lowercase();
        let word = !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_');
        if !word {
            return Err(format!("{s:?} is not a pane name (report, issues, ...)"));
        }
        Ok(PaneName(super::keymap_file::Name::intern(&name)))
    }
}

#[derive(Deserialize)]
#[serde(try_from = "String")]
pub(super) struct SortName(pub(super) SortBy);

impl TryFrom<String> for SortName {
    type Error = String;
    fn try_from(s: String) -> Result<SortName, String> {
        SortBy::parse_known(s.trim()).map(SortName).ok_or_else(|| {
            let names: Vec<&str> = SortBy::ALL.iter().map(SortBy::label).collect();
            format!("unknown sort field {s:?}; valid: {}", names.join(", "))
        })
    }
}

#[derive(Deserialize)]
#[serde(try_from = "String")]
pub(super) struct DirectionName(pub(super) SortDirection);

impl TryFrom<String> for DirectionName {
    type Error = String;
    fn try_from(s: String) -> Result<DirectionName, String> {
        SortDirection::parse_known(s.trim())
            .map(DirectionName)
            .ok_or_else(|| format!("direction {s:?} must be asc or desc"))
    }
}

/// A built-in theme's name, checked.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub struct ThemeName(pub String);

impl TryFrom<String> for ThemeName {
    type Error = String;
    fn try_from(s: String) -> Result<ThemeName, String> {
        super::theme_file::check_name(&s)?;
        Ok(ThemeName(s.trim().to_owned()))
    }
}

/// List issues filters as `FIELD=VALUE` strings, checked as `--filter` is.
#[derive(Deserialize, Default)]
#[serde(try_from = "Vec<String>")]
pub(super) struct Filters(pub(super) Vec<String>);

impl TryFrom<Vec<String>> for Filters {
    type Error = String;
    fn try_from(list: Vec<String>) -> Result<Filters, String> {
        let pairs = filter_pairs(&list)?;
        filter_spec::build::<ListSelection>(LIST_FILTER, "List issues", &pairs).map_err(|e| e.0)?;
        Ok(Filters(list))
    }
}

/// Splits `FIELD=VALUE` strings (not yet checked against the schema).
pub fn filter_pairs(list: &[String]) -> Result<Vec<(String, String)>, String> {
    list.iter()
        .map(|raw| match raw.split_once('=') {
            Some((field, value)) if !field.trim().is_empty() => {
                Ok((field.trim().to_owned(), value.to_owned()))
            }
            _ => Err(format!(
                "filter {raw:?}: expected FIELD=VALUE, e.g. \"repositoryNames=acme/payments-api\""
            )),
        })
        .collect()
}

/// Open-age targets (a profile's `sla_days`): defined in the model, where
/// the exports' age columns and the TUI's AGE column read them too.
pub use findings_model::SlaDays;
