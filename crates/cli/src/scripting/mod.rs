//! What scripts and CI jobs ask of a command's output: `--json FIELDS`
//! (only those fields, gh's convention), `--jq EXPR` (a jq expression run
//! here, over each item), and `--exit-code N` (exit N when anything
//! matched, trivy's convention). Also the one rule every command picks its
//! format by.
//!
//! `shape` says what the items look like to `--json` and `--jq`; `jq`
//! compiles and runs the expression; `sink` writes the items.

mod deep;
mod env;
mod formats;
mod jq;
mod pick_raw;
mod reads;
pub mod shape;
mod sink;

pub use shape::Shape;
pub use sink::Sink;

use super::destination::OutputFile;
use super::{Failure, UsageError};
use clap::{Args, ValueHint};
use findings_export::Format;
use std::io::Write;

/// `value` as compact JSON, its strings as the one JSON encoder writes
/// them: jq's writer leaves C1 controls, bidi and zero-width characters as
/// they are, which would reach a terminal from a result such as
/// `{m: .message}` (`findings_base::json::escape_acting`).
fn json_text(value: &jaq_json::Val) -> std::io::Result<Vec<u8>> {
    let mut json = Vec::new();
    jaq_json::write::write(&mut json, &Default::default(), 0, value)?;
    Ok(findings_base::json::escape_acting(json))
}

/// The scripting flags of the commands that print items.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Scripting")]
pub struct ScriptArgs {
    /// Print only these fields of each item, as JSON (FIELD,FIELD,...);
    /// without fields, list the fields there are
    ///
    /// The fields are the item's, by their names in the API contract
    /// (`issues`: the finding's fields, as `report` and `show` have them,
    /// and the list's counters such as reviewCount; and two reckoned here,
    /// age and days_over_target, as the columns of those names). One a
    /// line (ndjson), or one array with --format json.
    #[arg(long, value_name = "FIELDS", num_args = 0..=1, default_missing_value = "",
          value_hint = ValueHint::Other)]
    json: Option<String>,
    /// Run this jq expression over each item, here (jq's standard library;
    /// no external jq): one result a line, a string as its text
    ///
    /// The expression sees one item at a time, as `jq -c` over ndjson does
    /// (with --json, only those fields), so memory stays flat however many
    /// pages --all follows; `input` and `inputs` are not available. For the
    /// whole list as one array, use --format json and an external jq. A bad
    /// expression exits 2 before anything is sent; one that fails on an
    /// item exits 1 naming the item. jq's formats are there: @csv, @tsv,
    /// @sh, @json, @text, @html, @uri, @base64, @base64d
    /// (--jq '[.id, .severity] | @csv': one CSV row an item).
    #[arg(long, value_name = "EXPR", value_hint = ValueHint::Other)]
    jq: Option<String>,
    /// Exit with N when at least one item is printed (after printing them
    /// all; with --jq, an item the expression gives a result for)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8),
          value_hint = ValueHint::Other)]
    exit_code: Option<u8>,
}

/// The scripting flags, checked: the fields known, the expression compiled.
#[derive(Debug)]
pub struct Script {
    shape: Shape,
    fields: Option<Vec<String>>,
    jq: Option<jq::Jq>,
    exit_code: Option<u8>,
    /// What `--json`'s computed fields are reckoned with, once the
    /// settings are read ([`Script::set_clock`]); none: they are null.
    clock: Option<shape::OpenAgeClock>,
}

impl Script {
    /// The targets and time the computed fields (`age`,
    /// `days_over_target`) are reckoned with.
    pub fn set_clock(&mut self, clock: shape::OpenAgeClock) {
        self.clock = Some(clock);
    }

    /// The fields `--json` asks for when one of them is computed here,
    /// and what they are reckoned with.
    fn computing(&self) -> Option<(&[String], &shape::OpenAgeClock)> {
        let fields = self.fields.as_deref()?;
        let clock = self.clock.as_ref()?;
        fields
            .iter()
            .any(|f| self.shape.computed.contains(&f.as_str()))
            .then_some((fields, clock))
    }

    /// Whether `--json` or `--jq` choose what is printed.
    pub fn selects(&self) -> bool {
        self.fields.is_some() || self.jq.is_some()
    }

    /// Whether `--exit-code N` (N > 0) makes the listing a gate.
    pub fn gates(&self) -> bool {
        self.exit_code.is_some_and(|code| code != 0)
    }

    /// The command's verdict once its output is written: `--exit-code N`
    /// when `matched` items were printed.
    pub fn gate(&self, matched: usize) -> Result<(), Failure> {
        match self.exit_code {
            Some(code) if code != 0 && matched > 0 => Err(Failure::Matched {
                code,
                matched,
                item: self.shape.item,
            }),
            _ => Ok(()),
        }
    }
}

impl ScriptArgs {
    /// Whether `--json` names `field`, or `--jq`'s expression has it as a
    /// word (`.remediation.guidance`): a part a list gives only when asked
    /// is then asked for. Asking for more than the expression reads costs
    /// only bytes.
    pub fn wants(&self, field: &str) -> bool {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let in_jq = self.jq.as_deref().is_some_and(|code| {
            code.match_indices(field).any(|(at, _)| {
                let before = code[..at].chars().next_back();
                let after = code[at + field.len()..].chars().next();
                !before.is_some_and(word) && !after.is_some_and(word)
            })
        });
        self.names_any(&[field]) || in_jq
    }

    /// Whether `--json` names one of `names`.
    pub fn names_any(&self, names: &[&str]) -> bool {
        self.json
            .as_deref()
            .is_some_and(|given| given.split(',').any(|f| names.contains(&f.trim())))
    }
}

/// Checks the scripting flags of a command whose items have `shape`,
/// before anything is sent. `Ok(None)`: `--json` without fields, whose
/// list of fields is printed (the command is done, as after `--help`).
pub fn prepare(args: &ScriptArgs, shape: Shape) -> Result<Option<Script>, Failure> {
    let fields = match args.json.as_deref() {
        None => None,
        Some(given) => {
            let names = shape.names();
            let asked: Vec<String> = given
                .split(',')
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .map(str::to_owned)
                .collect();
            if asked.is_empty() {
                // gh's words, on stdout as a help text is.
                let mut out = std::io::stdout().lock();
                writeln!(
                    out,
                    "Specify one or more comma-separated fields for `--json`:"
                )?;
                for name in &names {
                    writeln!(out, "  {name}")?;
                }
                out.flush()?;
                return Ok(None);
            }
            let mut fields: Vec<String> = Vec::new();
            for field in asked {
                if let Some(why) = shape.lacks(&field) {
                    return Err(Failure::Usage(unfilled_field(&field, why, &names)));
                }
                if !names.contains(&field.as_str()) {
                    return Err(Failure::Usage(unknown_field(&field, &names)));
                }
                if !fields.contains(&field) {
                    fields.push(field);
                }
            }
            Some(fields)
        }
    };
    let jq =
        match args.jq.as_deref() {
            None => None,
            Some(code) => Some(jq::Jq::start(code, shape, fields.clone()).map_err(|e| {
                Failure::Usage(format!("--jq: {}", findings_base::text::one_line(&e)))
            })?),
        };
    Ok(Some(Script {
        shape,
        fields,
        jq,
        exit_code: args.exit_code,
        clock: None,
    }))
}

/// A field of the schema the command's items never have: refused (it
/// would be null on every line), saying where it is, with the fields there
/// are.
fn unfilled_field(field: &str, why: &str, names: &[&str]) -> String {
    let mut text = format!(
        "--json {field}: this command's items never have it ({})\nAvailable fields:",
        why.replace("FIELD", field)
    );
    for name in names {
        text.push_str("\n  ");
        text.push_str(name);
    }
    text
}

/// gh's refusal of a field, with the closest name.
fn unknown_field(field: &str, names: &[&str]) -> String {
    let known: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let hint = findings_requests::filter_spec::closest(&known, field)
        .map(|n| format!(" (did you mean {n}?)"))
        .unwrap_or_default();
    let mut text = format!(
        "Unknown JSON field: {:?}{hint}\nAvailable fields:",
        findings_base::text::one_line(field)
    );
    for name in names {
        text.push_str("\n  ");
        text.push_str(name);
    }
    text
}

/// The format of a command's output, one rule for every command: `--format`
/// as given (one of `valid`); else with `--jq` or `--json`, JSON lines (an
/// array for `--json` into a `.json` file); else what `-o FILE`'s extension
/// names (an extension that names none is refused unless `--format` is
/// given); else `FINDINGS_FORMAT` (one of `valid`, or a usage error naming
/// it); else a table on a terminal; else ndjson.
pub fn format(
    given: Option<&str>,
    file: &OutputFile,
    script: &ScriptArgs,
    valid: &[Format],
) -> Result<Format, UsageError> {
    let check = |f: &str| {
        Format::parse(f)
            .filter(|f| valid.contains(f))
            .ok_or_else(|| {
                let names: Vec<&str> = valid.iter().map(|f| f.name()).collect();
                UsageError(format!(
                    "unknown format {f:?}; valid formats: {}",
                    names.join(", ")
                ))
            })
    };
    let given = given.map(check).transpose()?;
    let from_file = || {
        file.path()
            .and_then(|p| Format::from_path(&p.to_string_lossy()))
    };
    if script.jq.is_some() {
        return match given {
            None | Some(Format::Ndjson) => Ok(Format::Ndjson),
            Some(f) => Err(UsageError(format!(
                "--jq prints each result on a line of its own, item by item: it takes no --format {} \
                 (for one array, use --json FIELDS --format json)",
                f.name()
            ))),
        };
    }
    // A file named with an extension no format has (`-o out.sarf`) is a
    // typo far more often than a wish for NDJSON.
    if given.is_none()
        && let Some(path) = file.path()
        && from_file().is_none()
        && let Some(ext) = path.extension()
    {
        return Err(UsageError(format!(
            "-o {}: the extension .{} names no format; use .json, .ndjson (.jsonl), .csv, .sarif, .md or .txt, or say which with --format",
            findings_base::text::one_line(&path.display().to_string()),
            findings_base::text::one_line(&ext.to_string_lossy())
        )));
    }
    if script.json.is_some() {
        return match given.or_else(|| from_file().filter(|f| *f == Format::Json)) {
            None | Some(Format::Ndjson) => Ok(Format::Ndjson),
            Some(Format::Json) => Ok(Format::Json),
            Some(f) => Err(UsageError(format!(
                "--json prints JSON: it takes --format json or ndjson, not {}",
                f.name()
            ))),
        };
    }
    let from_env = || {
        let var = findings_config::ENV_FORMAT;
        match std::env::var(var) {
            Ok(f) if !f.trim().is_empty() => check(f.trim())
                .map(Some)
                .map_err(|e| UsageError(format!("{var}: {}", e.0))),
            _ => Ok(None),
        }
    };
    match given {
        Some(f) => Ok(f),
        None => match from_file() {
            Some(f) => check(f.name()),
            None => match from_env()? {
                Some(f) => Ok(f),
                None if file.is_terminal() => Ok(Format::Table),
                None => Ok(Format::Ndjson),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::ScriptArgs;

    #[test]
    fn a_field_is_wanted_when_json_names_it_or_jq_has_it_as_a_word() {
        let args = |json: Option<&str>, jq: Option<&str>| ScriptArgs {
            json: json.map(str::to_owned),
            jq: jq.map(str::to_owned),
            exit_code: None,
        };
        assert!(args(Some("id, remediation"), None).wants("remediation"));
        assert!(args(None, Some(".remediation.guidance")).wants("remediation"));
        assert!(args(None, Some(r#".["isArchived"]"#)).wants("isArchived"));
        // Part of another word, or named nowhere: not wanted.
        assert!(!args(None, Some(".remediationX")).wants("remediation"));
        assert!(!args(None, Some(".my_isArchived")).wants("isArchived"));
        assert!(!args(Some("id"), Some(".id")).wants("remediation"));
    }
}
