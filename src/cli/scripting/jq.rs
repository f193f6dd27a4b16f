//! `--jq EXPR`: a jq program compiled once, with jq's standard library
//! (jaq's: jaq-core, jaq-std, jaq-json), and run over each item in turn.
//! No module is ever read from disk, and `halt` ends the run as an error
//! rather than the process.

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars, data::JustLut};
use jaq_json::Val;

type Data = JustLut<Val>;

/// A compiled `--jq` expression.
pub struct Program {
    filter: jaq_core::Filter<Data>,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Program")
    }
}

impl Program {
    /// Parses and compiles `code`; the error says what is wrong and where,
    /// as jq would.
    pub fn compile(code: &str) -> Result<Program, String> {
        let defs = jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs());
        let funs = jaq_core::funs()
            .chain(jaq_std::funs())
            .chain(jaq_json::funs());
        let arena = Arena::default();
        let modules = Loader::new(defs)
            .load(&arena, File { code, path: () })
            .map_err(|errors| {
                let said: Vec<String> = errors
                    .into_iter()
                    .map(|(_, e)| load_error(code, e))
                    .collect();
                said.join("; ")
            })?;
        let filter = Compiler::default()
            .with_funs(funs)
            .compile(modules)
            .map_err(|errors| {
                let said: Vec<String> = errors
                    .into_iter()
                    .flat_map(|(_, undefined)| undefined)
                    .map(|(name, what)| {
                        let name = match what {
                            jaq_core::compile::Undefined::Filter(arity) => {
                                format!("{name}/{arity}")
                            }
                            _ => name.to_owned(),
                        };
                        format!(
                            "undefined {} {name}{}",
                            what.as_str(),
                            at(code, name_in(code, &name))
                        )
                    })
                    .collect();
                said.join("; ")
            })?;
        Ok(Program { filter })
    }

    /// Runs the program over `input`, giving each result to `each`; the
    /// first error (the program's, or `each`'s) stops the run.
    pub fn run(
        &self,
        input: Val,
        mut each: impl FnMut(Val) -> std::io::Result<()>,
    ) -> Result<(), RunError> {
        let ctx = Ctx::<Data>::new(&self.filter.lut, Vars::new([]));
        for out in self.filter.id.run((ctx, input)) {
            match out {
                Ok(v) => each(v).map_err(RunError::Io)?,
                Err(exn) => {
                    let message = match exn.get_err() {
                        Ok(error) => match error.into_val() {
                            // error("text"): the text, as jq says it.
                            Val::TStr(text) => String::from_utf8_lossy(&text).into_owned(),
                            other => other.to_string(),
                        },
                        Err(exn) => match exn.get_halt() {
                            Ok(code) => format!("halt with exit code {code}"),
                            Err(_) => "the expression stopped unexpectedly".to_owned(),
                        },
                    };
                    return Err(RunError::Jq(message));
                }
            }
        }
        Ok(())
    }
}

/// Why a run stopped.
#[derive(Debug)]
pub enum RunError {
    /// The expression failed on the item.
    Jq(String),
    /// Its output could not be written.
    Io(std::io::Error),
}

/// A lexer's or parser's complaint, as jq words them.
fn load_error(code: &str, e: jaq_core::load::Error<&str>) -> String {
    use jaq_core::load::Error;
    let found = |s: &str| -> String {
        let token: String = s.chars().take(20).collect();
        if token.is_empty() {
            "end of input".to_owned()
        } else {
            format!("{token:?}")
        }
    };
    let said: Vec<String> = match e {
        Error::Io(errors) => errors.into_iter().map(|(_, e)| e).collect(),
        Error::Lex(errors) => errors
            .into_iter()
            .map(|(expect, rest)| {
                format!(
                    "expected {}, found {}{}",
                    expect.as_str(),
                    found(rest),
                    at(code, Some(rest))
                )
            })
            .collect(),
        Error::Parse(errors) => errors
            .into_iter()
            .map(|(expect, token)| {
                format!(
                    "expected {}, found {}{}",
                    expect.as_str(),
                    found(token),
                    at(code, Some(token))
                )
            })
            .collect(),
    };
    said.join("; ")
}

/// Where the first `name` is in `code`, for an undefined name.
fn name_in<'a>(code: &'a str, name: &str) -> Option<&'a str> {
    let bare = name.split('/').next().unwrap_or(name);
    code.find(bare).map(|i| &code[i..i + bare.len()])
}

/// " at column N" of `part`, a slice of `code` (nothing when it is not one).
fn at(code: &str, part: Option<&str>) -> String {
    let Some(part) = part else {
        return String::new();
    };
    let start = code.as_ptr() as usize;
    let offset = (part.as_ptr() as usize).wrapping_sub(start);
    if offset > code.len() || !code.is_char_boundary(offset) {
        return String::new();
    }
    format!(" at column {}", code[..offset].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outputs(code: &str, input: &str) -> Result<Vec<String>, String> {
        let program = Program::compile(code)?;
        let input = jaq_json::read::parse_single(input.as_bytes()).unwrap();
        let mut out = Vec::new();
        program
            .run(input, |v| {
                out.push(v.to_string());
                Ok(())
            })
            .map_err(|e| match e {
                RunError::Jq(m) => m,
                RunError::Io(e) => e.to_string(),
            })?;
        Ok(out)
    }

    #[test]
    fn the_standard_library_is_there() {
        let item = r#"{"id":"7","severity":"SEVERITY_HIGH","filePath":"src/app.py","line":3,"createdAt":"2026-01-02T03:04:05Z"}"#;
        for (code, want) in [
            (".id", vec![r#""7""#]),
            ("select(.severity == \"SEVERITY_HIGH\") | .line", vec!["3"]),
            ("select(.severity == \"SEVERITY_LOW\")", vec![]),
            (
                "[.filePath | test(\"^src/\"), ascii_upcase]",
                vec![r#"[true,"SRC/APP.PY"]"#],
            ),
            (
                ".filePath | sub(\"\\\\.py$\"; \".rs\")",
                vec![r#""src/app.rs""#],
            ),
            (".createdAt | fromdateiso8601", vec!["1767323045"]),
            ("\"\\(.id):\\(.line)\" | @base64", vec![r#""Nzoz""#]),
            ("keys | length", vec!["5"]),
            (
                "[.line, 4] | map(. * 2) | add | sqrt",
                vec!["3.7416573867739413"],
            ),
            ("tojson | fromjson | .id", vec![r#""7""#]),
        ] {
            assert_eq!(outputs(code, item).unwrap(), want, "{code}");
        }
    }

    #[test]
    fn a_bad_expression_says_what_and_where() {
        let e = Program::compile(".[").unwrap_err();
        assert_eq!(
            e,
            "expected closing bracket, found end of input at column 3"
        );
        let e = Program::compile(".a | | .b").unwrap_err();
        assert!(
            e.starts_with("expected term, found \"|\" at column 6"),
            "{e}"
        );
        let e = Program::compile(".a | nosuchfilter(1)").unwrap_err();
        assert_eq!(e, "undefined filter nosuchfilter/1 at column 6");
        let e = Program::compile("$nope").unwrap_err();
        assert!(e.contains("undefined variable"), "{e}");
        let e = Program::compile("include \"x\"; .").unwrap_err();
        assert!(e.contains("module loading not supported"), "{e}");
        // No input beyond the item.
        assert!(Program::compile("input").is_err());
    }

    #[test]
    fn a_failing_run_says_why_and_halt_does_not_end_the_process() {
        assert_eq!(
            outputs("error(\"no \\(.id)\")", r#"{"id":"7"}"#).unwrap_err(),
            "no 7"
        );
        let e = outputs(".id | .x", r#"{"id":"7"}"#).unwrap_err();
        assert!(e.contains("cannot index"), "{e}");
        assert_eq!(outputs("halt", "{}").unwrap_err(), "halt with exit code 0");
        // Results before the error were given.
        let program = Program::compile("1, error(\"x\")").unwrap();
        let mut seen = 0;
        assert!(
            program
                .run(Val::Null, |_| {
                    seen += 1;
                    Ok(())
                })
                .is_err()
        );
        assert_eq!(seen, 1);
    }
}
