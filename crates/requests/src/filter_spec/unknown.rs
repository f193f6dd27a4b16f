//! A name the deployment does not have, with the closest ones it has:
//! what every check of names refuses ([`super::check_known`],
//! [`super::rule_ids`], [`super::Advisories::resolve`]).

/// A value the deployment does not have.
#[derive(Debug, Clone, PartialEq)]
pub struct Unknown {
    /// As given, trimmed.
    pub value: String,
    /// What it was to name ("repository").
    pub noun: &'static str,
    /// The closest names the deployment has, likeliest first (at most 3).
    pub nearest: Vec<String>,
    /// How many names of its kind the deployment has.
    pub known: usize,
    /// The forms a value takes, when it has none of them (an advisory id).
    pub form: Option<&'static str>,
}

impl Unknown {
    /// "did you mean a, b or c?", when anything is near.
    pub fn did_you_mean(&self) -> Option<String> {
        let names: Vec<String> = self
            .nearest
            .iter()
            .map(|n| findings_base::text::one_line(n).into_owned())
            .collect();
        match names.as_slice() {
            [] => None,
            [one] => Some(format!("did you mean {one}?")),
            [first @ .., last] => Some(format!("did you mean {} or {last}?", first.join(", "))),
        }
    }
}
