//! Where a command's items go: a [`Writer`] in one of the formats, or,
//! with `--json`/`--jq`, their selected fields or the expression's results,
//! one item at a time (constant memory, as `jq -c` over ndjson).

use super::Script;
use super::jq::RunError;
use crate::Failure;
use findings_base::redact::ScrubWriter;
use findings_export::{Format, Record, Writer};
use std::io::{self, BufWriter, Write};

/// The items of one command, written as they come.
pub enum Sink<'s, W: Write> {
    Formatted(Writer<W>),
    Selected(Selected<'s, W>),
}

impl<'s, W: Write> Sink<'s, W> {
    /// `terminal`: the output reaches a terminal, where a raw string is
    /// made safe to show.
    pub fn new<T: Record>(
        out: W,
        format: Format,
        table_width: usize,
        script: &'s Script,
        terminal: bool,
    ) -> Self {
        if !script.selects() {
            return Sink::Formatted(Writer::new::<T>(out, format, table_width));
        }
        Sink::Selected(Selected {
            out: BufWriter::with_capacity(64 * 1024, ScrubWriter::new(out)),
            script,
            array: format == Format::Json,
            terminal,
            taken: 0,
            printed: 0,
            matched: 0,
            queued: Vec::new(),
            done: 0,
        })
    }

    /// Writes one item (with `--jq`: its results). An expression that
    /// fails on it fails the command, naming it.
    pub fn item<T: Record>(&mut self, item: &T) -> Result<(), Failure> {
        match self {
            Sink::Formatted(w) => Ok(w.item(item)?),
            Sink::Selected(s) => s.item(item),
        }
    }

    /// Runs the items taken and not yet run (`--jq` runs a batch at a
    /// time): before a page's end is said, before `matched`. A failure is
    /// the item's, as from [`Sink::item`].
    pub fn settle(&mut self) -> Result<(), Failure> {
        match self {
            Sink::Formatted(_) => Ok(()),
            Sink::Selected(s) => s.settle(),
        }
    }

    /// Items written out whole: what an output cut short holds.
    pub fn done(&self) -> usize {
        match self {
            Sink::Formatted(w) => w.count(),
            Sink::Selected(s) => s.done,
        }
    }

    /// Items taken (what `--max` counts).
    pub fn count(&self) -> usize {
        match self {
            Sink::Formatted(w) => w.count(),
            Sink::Selected(s) => s.taken,
        }
    }

    /// Items that printed something: every item, or with `--jq` those it
    /// gave a result for (what `--exit-code` counts), once
    /// [`Sink::settle`]d.
    pub fn matched(&self) -> usize {
        match self {
            Sink::Formatted(w) => w.count(),
            Sink::Selected(s) => {
                debug_assert!(s.queued.is_empty(), "matched before settle");
                s.matched
            }
        }
    }

    /// Whether what is written should reach the reader at each page.
    pub fn streams(&self, format: Format) -> bool {
        matches!(self, Sink::Selected(_)) || format == Format::Ndjson
    }

    /// The output, to write around the items.
    pub fn get_mut(&mut self) -> &mut dyn Write {
        match self {
            Sink::Formatted(w) => w.get_mut(),
            Sink::Selected(s) => &mut s.out,
        }
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.get_mut().flush()
    }

    /// Ends the output (a JSON array closed), the items still queued for
    /// `--jq` run first.
    pub fn finish(self) -> Result<W, Failure> {
        match self {
            Sink::Formatted(w) => Ok(w.finish()?),
            Sink::Selected(mut s) => {
                s.settle()?;
                if s.array {
                    let end: &[u8] = if s.printed == 0 { b"[]\n" } else { b"\n]\n" };
                    s.out.write_all(end)?;
                }
                Ok(s.into_inner()?)
            }
        }
    }

    /// Ends an output cut short: what was written is left as it is (a
    /// JSON array unclosed).
    pub fn abandon(self) -> io::Result<W> {
        match self {
            Sink::Formatted(w) => w.abandon(),
            Sink::Selected(s) => s.into_inner(),
        }
    }
}

/// Items through `--json` and `--jq`.
pub struct Selected<'s, W: Write> {
    out: BufWriter<ScrubWriter<W>>,
    script: &'s Script,
    /// `--format json`: one array of the objects.
    array: bool,
    terminal: bool,
    taken: usize,
    /// Values written.
    printed: usize,
    matched: usize,
    /// Items taken for `--jq`, not run yet (at most [`BATCH`]).
    queued: Vec<Vec<u8>>,
    /// Items written out whole (all their results): what a partial
    /// output says it holds.
    done: usize,
}

/// Items run by `--jq` at a time: a hand-off to its thread a batch.
const BATCH: usize = 256;

impl<W: Write> Selected<'_, W> {
    fn item<T: Record>(&mut self, item: &T) -> Result<(), Failure> {
        let script = self.script;
        self.taken += 1;
        let mut json = item.to_json().map_err(io::Error::other)?;
        if let Some((fields, clock)) = script.computing() {
            // The computed fields added (to what jq sees too).
            let value = jaq_json::read::parse_single(&json).map_err(|e| {
                Failure::Runtime(format!(
                    "{} {} is not JSON: {e}",
                    script.shape.item, self.taken
                ))
            })?;
            let value = super::shape::with_computed(script.shape.apply(value), fields, clock);
            json = super::json_text(&value)?;
        }
        if let Some(jq) = &script.jq {
            // Run a batch at a time on the expression's thread.
            self.queued.push(json);
            if self.queued.len() == BATCH {
                return self.run(jq);
            }
            return Ok(());
        }
        // `--json FIELDS` (a selecting sink without `--jq` has them): the
        // fields copied from the item's text, nothing decoded into values.
        let fields = script.fields.as_deref().unwrap_or_default();
        let picked = super::pick_raw::pick(&json, &script.shape, fields).map_err(|e| {
            Failure::Runtime(format!(
                "{} {} is not a JSON object: {e}",
                script.shape.item, self.taken
            ))
        })?;
        self.rendered(&picked, None)?;
        self.matched += 1;
        self.done = self.taken;
        Ok(())
    }

    /// The items queued for `--jq`, run on the expression's thread in one
    /// batch; Ctrl-C with `-o FILE` stops the wait. An item that fails
    /// stops the run, the results of those before it written.
    fn run(&mut self, jq: &super::jq::Jq) -> Result<(), Failure> {
        let script = self.script;
        let items = std::mem::take(&mut self.queued);
        let n = items.len();
        // The taken number of the batch's first item (from 1).
        let first = self.taken - n + 1;
        let mut last_printed = None;
        let outcome = jq.run_batch(items, crate::destination::interrupted, |k, out| {
            if last_printed != Some(k) {
                last_printed = Some(k);
                self.matched += 1;
            }
            self.rendered(&out.json, out.text.as_deref())
        });
        // The items before the one that stopped it are whole.
        self.done += match &outcome {
            Ok(()) => n,
            Err((_, _, k)) => *k,
        };
        match outcome {
            Ok(()) => Ok(()),
            Err((RunError::Io(e), _, _)) => Err(e.into()),
            Err((RunError::Interrupted, _, _)) => Err(Failure::Interrupted("interrupted".into())),
            Err((RunError::Jq(message), named, k)) => {
                let which = match named {
                    Some(id) => format!(
                        "{} {}",
                        script.shape.item,
                        findings_base::text::one_line(&id)
                    ),
                    None => format!("{} {}", script.shape.item, first + k),
                };
                Err(Failure::Runtime(format!(
                    "--jq: {} (on {which})",
                    findings_base::text::one_line(&message)
                )))
            }
        }
    }

    /// Runs what is queued for `--jq`.
    fn settle(&mut self) -> Result<(), Failure> {
        match &self.script.jq {
            Some(jq) if !self.queued.is_empty() => self.run(jq),
            _ => Ok(()),
        }
    }

    /// A value written out: as `json`, or a string as its `text`.
    fn rendered(&mut self, json: &[u8], text: Option<&[u8]>) -> io::Result<()> {
        if self.array {
            self.out
                .write_all(if self.printed == 0 { b"[\n" } else { b",\n" })?;
        }
        self.printed += 1;
        match text {
            Some(text) if !self.array => {
                if self.terminal {
                    // No escape sequence from the data reaches a terminal.
                    let text = String::from_utf8_lossy(text);
                    self.out
                        .write_all(findings_base::text::multi_line(&text).as_bytes())?;
                } else {
                    self.out.write_all(text)?;
                }
            }
            _ => self.out.write_all(json)?,
        }
        if !self.array {
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }

    fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        self.out
            .into_inner()
            .map_err(io::IntoInnerError::into_error)?
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scripting::{ScriptArgs, prepare, shape};
    use findings_model::Issue;

    fn script(json: Option<&str>, jq: Option<&str>) -> Script {
        let args = ScriptArgs {
            json: json.map(str::to_owned),
            jq: jq.map(str::to_owned),
            exit_code: None,
        };
        prepare(&args, shape::FINDING).unwrap().unwrap()
    }

    fn written(script: &Script, format: Format, terminal: bool, items: &[Issue]) -> String {
        let mut sink = Sink::new::<Issue>(Vec::new(), format, 80, script, terminal);
        for item in items {
            sink.item(item).unwrap();
        }
        String::from_utf8(sink.finish().unwrap()).unwrap()
    }

    fn finding(id: &str, message: &str) -> Issue {
        Issue {
            id: Some(id.into()),
            message: Some(message.into()),
            ..Default::default()
        }
    }

    #[test]
    fn a_raw_string_is_made_safe_on_a_terminal_only() {
        let jq = script(None, Some(".message"));
        let hostile = [finding("7", "a\u{1b}[2Jb\nc")];
        let shown = written(&jq, Format::Ndjson, true, &hostile);
        assert_eq!(shown, "a␛[2Jb\nc\n");
        // Piped, the text is the reader's, as `jq -r` gives it.
        let piped = written(&jq, Format::Ndjson, false, &hostile);
        assert_eq!(piped, "a\u{1b}[2Jb\nc\n");
        // As JSON, a control character is escaped either way.
        let json = written(
            &script(Some("message"), None),
            Format::Ndjson,
            true,
            &hostile,
        );
        assert_eq!(json, "{\"message\":\"a\\u001b[2Jb\\nc\"}\n");
    }

    #[test]
    fn selected_objects_make_one_array_with_format_json_and_count_what_matched() {
        let items = [finding("1", "x"), finding("2", "y")];
        let ids = script(Some("id"), None);
        assert_eq!(
            written(&ids, Format::Json, false, &items),
            "[\n{\"id\":\"1\"},\n{\"id\":\"2\"}\n]\n"
        );
        assert_eq!(written(&ids, Format::Json, false, &[]), "[]\n");
        let only_two = script(None, Some("select(.id == \"2\") | .id, .message"));
        let mut sink = Sink::new::<Issue>(Vec::new(), Format::Ndjson, 80, &only_two, false);
        for item in &items {
            sink.item(item).unwrap();
        }
        // Queued for the expression's thread until settled.
        assert_eq!(sink.done(), 0);
        sink.settle().unwrap();
        assert_eq!((sink.count(), sink.matched(), sink.done()), (2, 1, 2));
        assert_eq!(String::from_utf8(sink.finish().unwrap()).unwrap(), "2\ny\n");
    }
}
