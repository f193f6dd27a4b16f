//! `findings diff OLD [NEW]`: what changed between a snapshot and a second
//! one, or the live deployment asked with the snapshot's filter. The old
//! side is held as a compact map, or past a million findings partitioned
//! on disk ([`Differ`]); the new side streams through it; the old side is
//! read again for the findings now gone.

use super::destination::OutputFile;
use super::listing::output_width;
use super::progress::Progress;
use super::scripting::{self, Script, ScriptArgs, Sink};
use super::snapshot::{open, snapshot_failure};
use super::{Failure, UsageError, at_least_one, offer};
use clap::{Args, ValueHint};
use findings_client::{Client, Follow, ListedRequest, pages_following};
use findings_export::{Format, Writer, markdown};
use findings_model::IssueItem;
use findings_snapshot::{Baseline, Category, Change, ChangeFiles, Differ, Entry, Halt, Header};
use futures_util::StreamExt;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub struct DiffArgs {
    /// The earlier snapshot
    #[arg(value_name = "OLD", value_hint = ValueHint::FilePath)]
    old: PathBuf,
    /// The later snapshot (default: the live deployment, asked with OLD's
    /// filter)
    #[arg(value_name = "NEW", value_hint = ValueHint::FilePath)]
    new: Option<PathBuf>,
    /// Only these kinds of change: new, fixed, gone, reopened, triaged,
    /// retriaged, untriaged, severity, ticket (LIST; default: all)
    #[arg(long = "category", value_name = "LIST",
          value_parser = offer(Category::ALL.map(Category::name)), hide_possible_values = true)]
    categories: Vec<String>,
    /// Output format: table, json, ndjson, csv or markdown (a summary for a
    /// pull request: the counts, then a table per kind) (default:
    /// FINDINGS_FORMAT, else table on a terminal, else ndjson)
    #[arg(long, value_name = "FORMAT", help_heading = "Output",
          value_parser = offer(FORMATS.map(|f| f.name())), hide_possible_values = true)]
    format: Option<String>,
    /// Live: stop with an error after N pages
    #[arg(long, value_name = "N", default_value_t = findings_client::DEFAULT_MAX_PAGES as u64,
          value_parser = at_least_one("--max-pages"), value_hint = ValueHint::Other,
          help_heading = "Output")]
    max_pages: u64,
    /// Compare even when the two sides come from different servers or
    /// deployments (refused without it: every finding would show as new
    /// on one side and gone on the other)
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    file: OutputFile,
    #[command(flatten)]
    pub(super) script: ScriptArgs,
}

const FORMATS: [Format; 5] = [
    Format::Table,
    Format::Json,
    Format::Ndjson,
    Format::Csv,
    Format::Markdown,
];

impl DiffArgs {
    pub fn format(&self) -> Result<Format, UsageError> {
        scripting::format(self.format.as_deref(), &self.file, &self.script, &FORMATS)
    }

    /// The categories asked for, checked.
    pub fn categories(&self) -> Result<Vec<Category>, UsageError> {
        let names = super::listing::split_lists(&self.categories);
        if names.is_empty() {
            return Ok(Category::ALL.to_vec());
        }
        names
            .iter()
            .map(|n| {
                Category::parse(n).ok_or_else(|| {
                    let valid: Vec<&str> = Category::ALL.map(Category::name).to_vec();
                    UsageError(format!(
                        "unknown --category {:?}; valid: {}",
                        findings_base::text::one_line(n),
                        valid.join(", ")
                    ))
                })
            })
            .collect()
    }

    pub fn is_live(&self) -> bool {
        self.new.is_none()
    }

    pub fn file(&self) -> Option<&Path> {
        self.file.path()
    }
}

/// Where a diff's changes go: streamed to the format's writer, or put by
/// kind by kind in temporary files for the Markdown summary (its counts
/// come first), so its memory does not grow with them either.
enum Output<'s> {
    Stream(Box<Sink<'s, super::destination::Out>>),
    Summary(Box<Kept>),
}

/// The Markdown summary's changes so far: how many of each kind
/// ([`Category::ALL`]'s order), the changes in their files.
struct Kept {
    counts: [usize; Category::ALL.len()],
    files: ChangeFiles,
}

impl Kept {
    fn count(&self, kind: Category) -> usize {
        Category::ALL
            .iter()
            .position(|&c| c == kind)
            .map_or(0, |k| self.counts[k])
    }

    fn total(&self) -> usize {
        self.counts.iter().sum()
    }
}

/// Runs the diff; returns how many changes were printed (for --exit-code).
/// `client`: the live deployment, when NEW is not given.
pub async fn run(
    args: &DiffArgs,
    client: Option<&Client>,
    script: &Script,
) -> Result<usize, Failure> {
    let format = args.format()?;
    let wanted = args.categories()?;
    check_origins(args, client)?;
    let (old_header, mut baseline) =
        open_old(&args.old).map_err(|e| snapshot_failure(&args.old, &e))?;
    let mut output = if format == Format::Markdown && !script.selects() {
        let files = ChangeFiles::new().map_err(|e| Failure::Runtime(e.to_string()))?;
        let counts = [0; Category::ALL.len()];
        Output::Summary(Box::new(Kept { counts, files }))
    } else {
        let width = output_width(&args.file);
        let terminal = args.file.is_terminal();
        Output::Stream(Box::new(Sink::new::<Change>(
            args.file.open()?,
            format,
            width,
            script,
            terminal,
        )))
    };
    let mut emit = |change: Change| -> Result<(), Failure> {
        stop_if_interrupted()?;
        let category = Category::parse(change.category).unwrap_or(Category::New);
        if !wanted.contains(&category) {
            return Ok(());
        }
        match &mut output {
            Output::Stream(sink) => sink.item(&change),
            Output::Summary(kept) => {
                let kind = Category::ALL.iter().position(|&c| c == category);
                if let Some(count) = kind.and_then(|k| kept.counts.get_mut(k)) {
                    *count += 1;
                }
                kept.files
                    .put(&change)
                    .map_err(|e| Failure::Runtime(e.to_string()))
            }
        }
    };
    let new_saved_at = match (&args.new, client) {
        (Some(new), _) => compare_snapshot(new, &mut baseline, &mut emit)?,
        (None, Some(client)) => {
            compare_live(args, client, &old_header, &mut baseline, &mut emit).await?
        }
        (None, None) => return Err(Failure::Usage("diff: no NEW and no deployment".into())),
    };
    // What is left to say (partitioned: everything) and what is gone.
    baseline.finish(&mut emit).map_err(|e| match e {
        Halt::Snapshot(e) => snapshot_failure(&args.old, &e),
        Halt::Said(e) => e,
    })?;
    match output {
        Output::Stream(mut sink) => {
            sink.settle()?;
            let matched = sink.matched();
            let mut out = (*sink).finish()?;
            // A table is read by someone: an empty one says so.
            if matched == 0 && format == Format::Table && !script.selects() {
                writeln!(out, "{}", no_change(&args.old, &old_header, &wanted))?;
            }
            out.finish()?;
            Ok(matched)
        }
        Output::Summary(mut kept) => {
            let mut out = args.file.open()?;
            summary(
                &mut out,
                (&args.old, &old_header),
                new_saved_at,
                &wanted,
                &mut kept,
            )?;
            out.finish()?;
            Ok(kept.total())
        }
    }
}

/// The new side from the snapshot NEW; returns when it was saved.
fn compare_snapshot(
    new: &Path,
    baseline: &mut Differ,
    emit: &mut impl FnMut(Change) -> Result<(), Failure>,
) -> Result<findings_model::Timestamp, Failure> {
    let mut reader = open(new)?;
    let saved_at = reader.header().saved_at;
    if !Baseline::records_tickets(reader.header().version) {
        baseline.without_tickets();
    }
    while let Some(entry) = reader.next_entry().map_err(|e| snapshot_failure(new, &e))? {
        compare(baseline, &entry, emit).map_err(|e| match e {
            Halt::Snapshot(e) => snapshot_failure(new, &e),
            Halt::Said(e) => e,
        })?;
    }
    Ok(saved_at)
}

/// The new side from the live deployment, read with the old side's
/// request; returns when it was read.
async fn compare_live(
    args: &DiffArgs,
    client: &Client,
    old_header: &Header,
    baseline: &mut Differ,
    emit: &mut impl FnMut(Change) -> Result<(), Failure>,
) -> Result<findings_model::Timestamp, Failure> {
    let saved_at = findings_requests::clock::now().map_err(Failure::Usage)?;
    let mut req = old_header.request.clone();
    // Who triaged, from the activity; a version 2 snapshot's other
    // includes (remediation …) are not compared.
    req.include_activity_history = Some(true);
    req.include_remediation = None;
    req.include_is_archived = None;
    req.include_first_detected_at = None;
    req.limit = Some(findings_model::MAX_PAGE_SIZE);
    // One page at a time: pages with their activity are the
    // larger part of a diff's memory beside the old side.
    // Each finding read only as far as an entry needs.
    let mut pages = Box::pin(pages_following(
        client.clone(),
        ListedRequest::new(req),
        // Saturating: a bound past usize is no bound (exact on 64 bits).
        usize::try_from(args.max_pages).unwrap_or(usize::MAX),
        Follow::WhenAsked,
    ));
    let mut progress = Progress::new("diff: compared", "findings");
    let mut seen = 0;
    while let Some(page) = pages.next().await {
        let page = page.inspect_err(|_| progress.done())?;
        seen += page.issues.len();
        for item in page.issues {
            if let Some(entry) = Entry::of(&IssueItem::from(item)) {
                compare(baseline, &entry, emit).map_err(|e| match e {
                    Halt::Snapshot(e) => snapshot_failure(&args.old, &e),
                    Halt::Said(e) => e,
                })?;
            }
        }
        progress.update(seen as u64, None);
    }
    progress.done();
    Ok(saved_at)
}

/// Where a side came from: its name, base URL and deployment.
struct Origin {
    name: String,
    base_url: String,
    deployment: String,
}

impl Origin {
    fn of_file(path: &Path) -> Result<Origin, Failure> {
        let header = open(path)?.header().clone();
        Ok(Origin {
            name: path.display().to_string(),
            base_url: header.base_url,
            deployment: header.deployment,
        })
    }

    /// "https://findings.example.com, deployment 4711".
    fn said(&self) -> String {
        let url = findings_base::redact::mask_url_credentials(&self.base_url);
        findings_base::text::one_line(&format!("{url}, deployment {}", self.deployment))
            .into_owned()
    }
}

/// The two sides must come from the same server and deployment: else
/// (likely the wrong profile or file) every finding would show as new on
/// one side and gone on the other. Refused naming both, or with `--force`
/// said and compared. A side that does not record one is not compared on it.
fn check_origins(args: &DiffArgs, client: Option<&Client>) -> Result<(), Failure> {
    let old = Origin::of_file(&args.old)?;
    let new = match (&args.new, client) {
        (Some(path), _) => Origin::of_file(path)?,
        (None, Some(client)) => Origin {
            name: "the live side".into(),
            base_url: client.base_url().to_owned(),
            deployment: client.deployment().to_owned(),
        },
        (None, None) => return Ok(()),
    };
    let known = |a: &str, b: &str| !a.trim().is_empty() && !b.trim().is_empty();
    let other_server = known(&old.base_url, &new.base_url)
        && !findings_base::net::same_server(&old.base_url, &new.base_url);
    let other_deployment =
        known(&old.deployment, &new.deployment) && old.deployment.trim() != new.deployment.trim();
    if !other_server && !other_deployment {
        return Ok(());
    }
    let what = if other_server { "server" } else { "deployment" };
    let said = format!(
        "{} is of {}; {} is of {}",
        findings_base::text::one_line(&old.name),
        old.said(),
        findings_base::text::one_line(&new.name),
        new.said(),
    );
    if args.force {
        eprintln!("findings: warning: another {what}, compared anyway (--force): {said}");
        return Ok(());
    }
    Err(Failure::Usage(format!(
        "{said}: another {what}, where every finding would show as new or gone; \
         --force compares anyway"
    )))
}

/// The old side: held up to [`findings_snapshot::DIFF_BOUND`] findings,
/// else partitioned. A debug build (the end-to-end tests') takes another
/// bound from `FINDINGS_TEST_DIFF_BOUND`, so a small diff is partitioned
/// and stopped midway; a release build never reads it, so no one's diff
/// is changed by it.
fn open_old(path: &Path) -> Result<(Header, Differ), findings_snapshot::SnapshotError> {
    #[cfg(debug_assertions)]
    if let Some(bound) = std::env::var("FINDINGS_TEST_DIFF_BOUND")
        .ok()
        .and_then(|b| b.parse().ok())
    {
        return Differ::open_with(path, bound, &std::env::temp_dir());
    }
    Differ::open(path)
}

/// A diff of two files never awaits, so a stop (Ctrl-C) is not seen by
/// [`super::destination::until_interrupted`] until it ends: looked at here,
/// at each finding compared and each change said.
fn stop_if_interrupted() -> Result<(), Failure> {
    if super::destination::interrupted() {
        return Err(Failure::Interrupted(String::new()));
    }
    Ok(())
}

/// A finding of the new side compared (or, partitioned, put by): a
/// snapshot error is of the temporary files.
fn compare(
    baseline: &mut Differ,
    entry: &Entry,
    emit: &mut impl FnMut(Change) -> Result<(), Failure>,
) -> Result<(), Halt<Failure>> {
    stop_if_interrupted().map_err(Halt::Said)?;
    let mut result = Ok(());
    baseline.compare(entry, |change| {
        if result.is_ok() {
            result = emit(change);
        }
    })?;
    result.map_err(Halt::Said)
}

/// "no change since review.snap (2026-11-20 14:02 UTC)", and of which kinds
/// when not all were asked for.
fn no_change(old: &Path, header: &Header, wanted: &[Category]) -> String {
    let name = old.file_name().map_or_else(
        || old.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let kinds = if wanted.len() == Category::ALL.len() {
        String::new()
    } else {
        let names: Vec<&str> = wanted.iter().map(|c| c.name()).collect();
        format!(" of the kinds asked for ({})", names.join(", "))
    };
    format!(
        "no change{kinds} since {} ({})",
        findings_base::text::one_line(&name),
        header.saved_at.format("%Y-%m-%d %H:%M UTC")
    )
}

/// The Markdown summary: a heading, the count of each kind asked for, then
/// a table per kind that has changes (or that there is none).
fn summary(
    out: &mut impl Write,
    (old_path, old): (&Path, &Header),
    new_time: findings_model::Timestamp,
    wanted: &[Category],
    kept: &mut Kept,
) -> Result<(), Failure> {
    writeln!(
        out,
        "### Findings since {}\n\n{} to {}, deployment {}\n",
        old.saved_at.format("%Y-%m-%d %H:%M UTC"),
        old.saved_at.format("%Y-%m-%d %H:%M"),
        new_time.format("%Y-%m-%d %H:%M"),
        markdown::cell(&old.deployment),
    )?;
    if kept.total() == 0 {
        writeln!(out, "{}", no_change(old_path, old, wanted))?;
        return Ok(());
    }
    writeln!(out, "{}", markdown::header(["change", "findings"]))?;
    for &c in wanted {
        writeln!(
            out,
            "{}",
            markdown::row([c.name(), &kept.count(c).to_string()])
        )?;
    }
    for &c in wanted {
        let n = kept.count(c);
        if n == 0 {
            continue;
        }
        writeln!(out, "\n#### {} ({n})\n", c.name())?;
        let mut table = Writer::new::<Change>(&mut *out, Format::Markdown, usize::MAX);
        kept.files
            .each(c, |change| table.item(&change))
            .map_err(|e| match e {
                Halt::Snapshot(e) => Failure::Runtime(e.to_string()),
                Halt::Said(e) => Failure::from(e),
            })?;
        table.finish()?;
    }
    Ok(())
}
