//! `--jq EXPR`: a jq program compiled once, with jq's standard library
//! (jaq's: jaq-core, jaq-std, jaq-json), and run over each item in turn.
//! No module is ever read from disk, and `halt` ends the run as an error
//! rather than the process.
//!
//! It runs on a thread of its own ([`Jq`]) with a large stack, so that a
//! deep value or a deep recursion ends in an error, never in a stack
//! overflow (an abort no handler sees, leaving `-o FILE`'s temporary
//! file): values parsed (an item, `fromjson`) are refused past
//! [`MAX_DEPTH`] levels before they are built, and every definition of the
//! expression checks the stack left on each call and each result (jaq has
//! no depth limit of its own). The caller waits for results a moment at a
//! time, so Ctrl-C stops even an expression that never gives one.

use super::deep::{
    Data, MAX_DEPTH, STACK, guard, mark_stack_top, nesting_past, shorter, std_defs, std_funs,
    value_past,
};
use super::env::ENV_VAR;
use jaq_core::load::parse::Def;
use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars};
use jaq_json::Val;
use std::sync::mpsc;
use std::time::Duration;

/// The expression itself, as one definition of the prelude.
const MAIN: &str = "__findings_main";

/// A compiled `--jq` expression.
struct Program {
    filter: jaq_core::Filter<Data>,
    /// The only fields of an item it can read, when that is certain
    /// ([`super::reads`]): the rest is never decoded.
    reads: Option<Vec<String>>,
    /// `$ENV`, read at the first run (the token is known by then).
    env: std::cell::OnceCell<Val>,
}

impl Program {
    /// Parses and compiles `code`; the error says what is wrong and where,
    /// as jq would.
    fn compile(code: &str) -> Result<Program, String> {
        // As written first: its errors say where, in the user's words.
        let arena = Arena::default();
        let modules = Loader::new(std_defs())
            .load(&arena, File { code, path: () })
            .map_err(|errors| {
                let said: Vec<String> = errors
                    .into_iter()
                    .map(|(_, e)| load_error(code, e))
                    .collect();
                said.join("; ")
            })?;
        Compiler::default()
            .with_funs(std_funs())
            .with_global_vars([ENV_VAR])
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
        // Then with its definitions guarded, as the last of the prelude.
        let mut main = jaq_core::load::parse(code, |p| p.term())
            .ok_or("module directives are not supported")?;
        // The id too: an error names the item by it.
        let reads = super::reads::fields_read(&main).map(|mut fields| {
            fields.insert("id".to_owned());
            fields.into_iter().collect()
        });
        guard(&mut main);
        let expression = Def {
            name: MAIN,
            args: Vec::new(),
            body: main,
        };
        let arena = Arena::default();
        let modules = Loader::new(std_defs().map(shorter).chain([expression]))
            .load(
                &arena,
                File {
                    code: MAIN,
                    path: (),
                },
            )
            .map_err(|_| "the expression cannot be guarded".to_owned())?;
        let filter = Compiler::default()
            .with_funs(std_funs())
            .with_global_vars([ENV_VAR])
            .compile(modules)
            .map_err(|_| "the expression cannot be guarded".to_owned())?;
        Ok(Program {
            filter,
            reads,
            env: std::cell::OnceCell::new(),
        })
    }

    /// Runs the program over `input`, giving each result to `each`; the
    /// first error (the program's, or `each`'s) stops the run.
    fn run(
        &self,
        input: Val,
        mut each: impl FnMut(Val) -> std::io::Result<()>,
    ) -> Result<(), RunError> {
        let env = self.env.get_or_init(super::env::visible).clone();
        let ctx = Ctx::<Data>::new(&self.filter.lut, Vars::new([env]));
        for out in self.filter.id.run((ctx, input)) {
            match out {
                // Written out recursively: not past MAX_DEPTH.
                Ok(v) if value_past(&v, MAX_DEPTH) => {
                    return Err(RunError::Jq(format!(
                        "a result nested deeper than {MAX_DEPTH} levels is not written"
                    )));
                }
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
    /// Ctrl-C, while it ran.
    Interrupted,
}

/// One result, written out on the expression's thread.
pub struct Output {
    /// As compact JSON.
    pub json: Vec<u8>,
    /// A string's text (`jq -r`), for a string.
    pub text: Option<Vec<u8>>,
}

enum Reply {
    /// Results, each of the item at that index of the batch, in order.
    Outputs(Vec<(usize, Output)>),
    /// The batch ended: the error's message, the item's id and its index.
    Done(Result<(), (String, Option<String>, usize)>),
}

/// Items run one after the other, their results handed back in chunks:
/// a thread hand-off a batch, not an item (a hundred thousand hand-offs
/// cost more than the expression).
struct Job {
    items: Vec<Vec<u8>>,
    replies: mpsc::SyncSender<Reply>,
}

/// Results sent back at a time (a bound on what waits in memory, also for
/// an expression that never ends).
const CHUNK: usize = 64;
/// The longest a result waits in a chunk: one that comes after a quiet
/// spell goes at once (a slow expression's results are seen as they come).
const CHUNK_WAIT: Duration = Duration::from_millis(10);

/// Results waiting to be sent back, and when the last were sent.
struct Chunk {
    results: Vec<(usize, Output)>,
    sent: std::time::Instant,
}

impl Chunk {
    /// Adds a result; sends the chunk when full or when it has waited.
    fn push(&mut self, result: (usize, Output), replies: &mpsc::SyncSender<Reply>) -> bool {
        self.results.push(result);
        self.results.len() < CHUNK && self.sent.elapsed() < CHUNK_WAIT || self.send(replies)
    }

    /// Sends what waits; `false` when no one waits any more.
    fn send(&mut self, replies: &mpsc::SyncSender<Reply>) -> bool {
        self.sent = std::time::Instant::now();
        self.results.is_empty()
            || replies
                .send(Reply::Outputs(std::mem::take(&mut self.results)))
                .is_ok()
    }
}

/// The expression, compiled and run on its own thread.
pub struct Jq {
    jobs: mpsc::SyncSender<Job>,
}

impl std::fmt::Debug for Jq {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Jq")
    }
}

impl Jq {
    /// Compiles `code` on a new thread, which then runs it over the items
    /// (each made `shape`, its `fields` picked).
    pub fn start(
        code: &str,
        shape: super::Shape,
        fields: Option<Vec<String>>,
    ) -> Result<Jq, String> {
        Jq::start_with_stack(code, shape, fields, STACK)
    }

    /// [`Jq::start`] on a thread of `stack` bytes (the tests' recursions
    /// use up a smaller one sooner).
    fn start_with_stack(
        code: &str,
        shape: super::Shape,
        fields: Option<Vec<String>>,
        stack: usize,
    ) -> Result<Jq, String> {
        let (jobs, incoming) = mpsc::sync_channel::<Job>(0);
        let (compiled, outcome) = mpsc::sync_channel(1);
        let code = code.to_owned();
        std::thread::Builder::new()
            .name("jq".into())
            .stack_size(stack)
            .spawn(move || {
                mark_stack_top(stack);
                let program = match Program::compile(&code) {
                    Ok(p) => {
                        let _ = compiled.send(Ok(()));
                        p
                    }
                    Err(e) => {
                        let _ = compiled.send(Err(e));
                        return;
                    }
                };
                for job in incoming {
                    serve(&program, shape, fields.as_deref(), job);
                }
            })
            .map_err(|e| format!("cannot start: {e}"))?;
        outcome
            .recv()
            .map_err(|_| "it stopped while compiled".to_owned())??;
        Ok(Jq { jobs })
    }

    /// Runs the expression over one item (its JSON), giving each result to
    /// `each` as it comes.
    #[cfg(test)]
    pub fn run(
        &self,
        item: Vec<u8>,
        interrupted: impl Fn() -> bool,
        mut each: impl FnMut(Output) -> std::io::Result<()>,
    ) -> Result<(), (RunError, Option<String>)> {
        self.run_batch(vec![item], interrupted, |_, out| each(out))
            .map_err(|(e, named, _)| (e, named))
    }

    /// Runs the expression over `items` in turn, giving each result to
    /// `each` with the index of its item, as they come; the first error
    /// stops the batch and names the item (its id, its index). Waits a
    /// moment at a time, so a Ctrl-C (`interrupted`) ends the wait even
    /// when no result ever comes.
    pub fn run_batch(
        &self,
        items: Vec<Vec<u8>>,
        interrupted: impl Fn() -> bool,
        mut each: impl FnMut(usize, Output) -> std::io::Result<()>,
    ) -> Result<(), (RunError, Option<String>, usize)> {
        let stopped = || {
            (
                RunError::Jq("the expression stopped unexpectedly".into()),
                None,
                0,
            )
        };
        let (replies, results) = mpsc::sync_channel(4);
        self.jobs
            .send(Job { items, replies })
            .map_err(|_| stopped())?;
        loop {
            if interrupted() {
                return Err((RunError::Interrupted, None, 0));
            }
            match results.recv_timeout(Duration::from_millis(50)) {
                Ok(Reply::Outputs(outs)) => {
                    for (k, out) in outs {
                        each(k, out).map_err(|e| (RunError::Io(e), None, k))?;
                    }
                }
                Ok(Reply::Done(Ok(()))) => return Ok(()),
                Ok(Reply::Done(Err((message, named, k)))) => {
                    return Err((RunError::Jq(message), named, k));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(stopped()),
            }
        }
    }
}

/// A batch, on the expression's thread: its items in turn, until one
/// fails. A result nobody waits for any more (an error, Ctrl-C) ends it.
fn serve(program: &Program, shape: super::Shape, fields: Option<&[String]>, job: Job) {
    let mut chunk = Chunk {
        results: Vec::new(),
        // Long ago: the first result goes at once.
        sent: std::time::Instant::now()
            .checked_sub(CHUNK_WAIT)
            .unwrap_or_else(std::time::Instant::now),
    };
    let mut outcome = Ok(());
    for (k, item) in job.items.iter().enumerate() {
        match serve_item(program, shape, fields, item, k, &mut chunk, &job.replies) {
            Ok(()) => {}
            Err(Some((message, named))) => {
                outcome = Err((message, named, k));
                break;
            }
            // No one waits any more.
            Err(None) => return,
        }
    }
    if !chunk.send(&job.replies) {
        return;
    }
    let _ = job.replies.send(Reply::Done(outcome));
}

/// One item of a batch: its results added to `chunk` (sent when full).
/// `Err(Some(..))`: the expression failed on it (the message and the
/// item's id); `Err(None)`: no one waits for the results.
fn serve_item(
    program: &Program,
    shape: super::Shape,
    fields: Option<&[String]>,
    item: &[u8],
    k: usize,
    chunk: &mut Chunk,
    replies: &mpsc::SyncSender<Reply>,
) -> Result<(), Option<(String, Option<String>)>> {
    // Only the fields the expression can read (or `--json` names), when
    // that is known: picked from the text, the rest never decoded.
    let picked = match fields.or(program.reads.as_deref()) {
        Some(fields) => match super::pick_raw::pick(item, &shape, fields) {
            Ok(picked) => Some(picked),
            Err(e) => return Err(Some((format!("the item is not a JSON object: {e}"), None))),
        },
        None => None,
    };
    let text = picked.as_deref().unwrap_or(item);
    if nesting_past(text, MAX_DEPTH) {
        return Err(Some((
            format!("the item is nested deeper than {MAX_DEPTH} levels"),
            None,
        )));
    }
    let value = match jaq_json::read::parse_single(text) {
        Ok(v) => v,
        Err(e) => return Err(Some((format!("the item is not JSON: {e}"), None))),
    };
    // Picked, it has its shape already.
    let value = if picked.is_some() {
        value
    } else {
        shape.apply(value)
    };
    let named = super::shape::id_of(&value);
    let outcome = program.run(value, |v| {
        let json = super::json_text(&v)?;
        let text = match &v {
            Val::TStr(text) => Some(text.to_vec()),
            _ => None,
        };
        if chunk.push((k, Output { json, text }), replies) {
            Ok(())
        } else {
            Err(std::io::Error::other("no one waits for the results"))
        }
    });
    match outcome {
        Ok(()) => Ok(()),
        Err(RunError::Jq(message)) => Err(Some((message, named))),
        Err(RunError::Io(_) | RunError::Interrupted) => Err(None),
    }
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
mod tests;
