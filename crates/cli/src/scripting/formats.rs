//! jq 1.7's `@format`s that jaq lacks or words otherwise: `@csv`, `@tsv`,
//! `@sh` (an object or a nested array is an error, as in jq) and `@html`
//! (`'` as `&#39;`, as in jq). The others (`@json`, `@text`, `@uri`,
//! `@base64`, `@base64d`) are jaq's own. Being filters named `@…`, they
//! also serve the format strings, `@csv "\(...)"`.

use jaq_core::native::{Fun, v};
use jaq_core::{Error, Exn, Native, box_iter::box_once};
use jaq_json::Val;

/// As `deep::Data` (which builds on this module, so not imported).
type Data = jaq_core::data::JustLut<Val>;

/// jaq's definitions these replace.
pub(super) const REPLACED: [&str; 2] = ["@sh", "@html"];

/// The formats, as native filters.
pub(super) fn funs() -> [Fun<Data>; 4] {
    [
        ("@csv", v(0), Native::new(|cv| reply(csv(&cv.1)))),
        ("@tsv", v(0), Native::new(|cv| reply(tsv(&cv.1)))),
        ("@sh", v(0), Native::new(|cv| reply(sh(&cv.1)))),
        ("@html", v(0), Native::new(|cv| reply(Ok(html(&cv.1))))),
    ]
}

type Reply<'a> = jaq_core::box_iter::BoxIter<'a, Result<Val, Exn<'a, Val>>>;

fn reply<'a>(text: Result<String, String>) -> Reply<'a> {
    box_once(
        text.map(Val::utf8_str)
            .map_err(|e| Exn::from(Error::str(e))),
    )
}

/// A string's text (lossy: jq's strings are UTF-8).
fn text_of(value: &Val) -> Option<String> {
    match value {
        Val::TStr(b) | Val::BStr(b) => Some(String::from_utf8_lossy(b).into_owned()),
        _ => None,
    }
}

/// `tostring`: a string as it is, anything else as JSON.
fn tostring(value: &Val) -> String {
    text_of(value).unwrap_or_else(|| value.to_string())
}

/// jq's "TYPE (VALUE) WHY", the value cut short as jq cuts it.
fn type_error(value: &Val, why: &str) -> String {
    let kind = match value {
        Val::Null => "null",
        Val::Bool(_) => "boolean",
        Val::Num(_) => "number",
        Val::TStr(_) | Val::BStr(_) => "string",
        Val::Arr(_) => "array",
        Val::Obj(_) => "object",
    };
    let dump = value.to_string();
    let dump = if dump.chars().count() > 11 {
        format!("{}...", dump.chars().take(11).collect::<String>())
    } else {
        dump
    };
    format!("{kind} ({dump}) {why}")
}

/// The items of a row, which must be an array.
fn row<'v>(value: &'v Val, format: &str) -> Result<&'v [Val], String> {
    match value {
        Val::Arr(items) => Ok(items),
        other => Err(type_error(
            other,
            &format!("cannot be {format}-formatted, only an array can be"),
        )),
    }
}

/// A cell of `@csv` or `@tsv` that is no string: null and NaN empty.
fn plain_cell(value: &Val, format: &str) -> Result<String, String> {
    match value {
        Val::Null => Ok(String::new()),
        Val::Bool(_) | Val::Num(_) => {
            let text = value.to_string();
            Ok(if text == "NaN" { String::new() } else { text })
        }
        other => Err(type_error(
            other,
            &format!("is not valid in a {format} row"),
        )),
    }
}

fn csv(value: &Val) -> Result<String, String> {
    let cells: Result<Vec<String>, String> = row(value, "csv")?
        .iter()
        .map(|cell| match text_of(cell) {
            Some(text) => Ok(format!("\"{}\"", text.replace('"', "\"\""))),
            None => plain_cell(cell, "csv"),
        })
        .collect();
    Ok(cells?.join(","))
}

fn tsv(value: &Val) -> Result<String, String> {
    let cells: Result<Vec<String>, String> = row(value, "tsv")?
        .iter()
        .map(|cell| match text_of(cell) {
            Some(text) => Ok(text
                .replace('\\', "\\\\")
                .replace('\t', "\\t")
                .replace('\n', "\\n")
                .replace('\r', "\\r")),
            None => plain_cell(cell, "tsv"),
        })
        .collect();
    Ok(cells?.join("\t"))
}

fn sh(value: &Val) -> Result<String, String> {
    let words = match value {
        Val::Arr(items) => items.as_slice(),
        other => std::slice::from_ref(other),
    };
    let words: Result<Vec<String>, String> = words
        .iter()
        .map(|word| match word {
            Val::Null | Val::Bool(_) | Val::Num(_) => Ok(word.to_string()),
            Val::TStr(_) | Val::BStr(_) => {
                Ok(format!("'{}'", tostring(word).replace('\'', "'\\''")))
            }
            other => Err(type_error(other, "can not be escaped for shell")),
        })
        .collect();
    Ok(words?.join(" "))
}

fn html(value: &Val) -> String {
    let mut out = String::new();
    for c in tostring(value).chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&#39;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}
