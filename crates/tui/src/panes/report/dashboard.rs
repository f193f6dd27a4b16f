//! The dashboard's reports in the Report pane (`ReportsService_Get*Report`):
//! the charts area shows one block at a time (`d`/`D`): the counts of the
//! whole set, the activity, the worst repositories, the worst rules, the
//! open age. A block's report is asked when it is shown, with the pane's
//! selectors (period, bucket, types, severities, repositories), and kept
//! for that selection for the session (a selection seen before is not
//! asked again) until a write changes what they count; a report the
//! server does not offer (404, 501) says so in its place.
//!
//! With a period, the findings opened in it are counted too, by rule and
//! by repository ([`ApiRequest::Opened`]): the rules and repositories
//! views list them most opened first, with the still open of them and
//! the open backlog at the period's end beside, and the counts' top
//! charts show them beside the backlog's.

use crate::message::{
    ApiRequest, ApiResponse, ApiResult, DashboardAnswer, DashboardReport, Outbox, RequestId,
};
use findings_client::ApiError;
use findings_model::*;

/// What the charts area shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Block {
    /// The counts by severity and the trend (the pane's own charts).
    #[default]
    Counts,
    Activity,
    /// The open backlog at each bucket's end, by severity.
    Backlog,
    Repositories,
    Rules,
    OpenAge,
}

impl Block {
    pub const ALL: [Block; 6] = [
        Block::Counts,
        Block::Activity,
        Block::Backlog,
        Block::Repositories,
        Block::Rules,
        Block::OpenAge,
    ];

    /// The report the block shows (`None`: the pane's own counts).
    pub fn report(self) -> Option<DashboardReport> {
        match self {
            Block::Counts => None,
            Block::Activity => Some(DashboardReport::Activity),
            Block::Backlog => Some(DashboardReport::BacklogBySeverity),
            Block::Repositories => Some(DashboardReport::ByProject),
            Block::Rules => Some(DashboardReport::BacklogByRule),
            Block::OpenAge => Some(DashboardReport::MedianOpenAge),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Block::Counts => "counts",
            Block::Activity => "activity",
            Block::Backlog => "backlog",
            Block::Repositories => "repositories",
            Block::Rules => "rules",
            Block::OpenAge => "open age",
        }
    }

    /// What the block counts, in words (where it is chosen).
    pub fn meaning(self) -> &'static str {
        match self {
            Block::Counts => "the report type's findings by severity, and by bucket",
            Block::Activity => "opened, fixed and ignored per bucket, and the net change",
            Block::Backlog => "open findings at each bucket's end, by severity: the trend",
            Block::Repositories => {
                "by repository: opened in the period (with a period), open at its end"
            }
            Block::Rules => "by rule: opened in the period (with a period), open at its end",
            Block::OpenAge => "median age in days of the open findings, by severity",
        }
    }
}

/// The reports the views show (in [`Block::ALL`]'s order).
const VIEWS: [DashboardReport; 5] = [
    DashboardReport::Activity,
    DashboardReport::BacklogBySeverity,
    DashboardReport::ByProject,
    DashboardReport::BacklogByRule,
    DashboardReport::MedianOpenAge,
];

/// One row of a list view: a repository's name or a rule's id, and its
/// open findings at the period's end (by severity for a repository);
/// with a period counted, what it opened in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: String,
    pub total: i64,
    pub by_severity: Option<BySeverity>,
    pub opened: Option<Opened>,
}

/// Where the count of the findings opened in the period stands.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum OpenedAnswer {
    #[default]
    NotAsked,
    Loading(RequestId),
    Known(Box<OpenedInPeriod>),
    Failed(String),
}

/// Where one report stands.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Answer {
    #[default]
    NotAsked,
    Loading(RequestId),
    Known(DashboardAnswer),
    /// The server does not offer it (404, 501): said in its place.
    NotOffered(String),
    Failed(String),
}

#[derive(Debug, Clone, Default)]
pub struct Dashboard {
    pub block: Block,
    /// The entry selected in a list view (repositories, rules): `Enter`
    /// narrows the Issues pane to it.
    pub selected: usize,
    /// By [`DashboardReport`], of `asked_with`.
    answers: Vec<(DashboardReport, Answer)>,
    /// The filters the answers are of.
    asked_with: Option<ReportFilters>,
    /// The list views' entries, ordered once when their answer comes.
    lists: Vec<(DashboardReport, Vec<Entry>)>,
    /// The same entries as the counts' top charts show them: most first,
    /// labelled, with the open findings they add up to.
    tops: Vec<(DashboardReport, Top)>,
    /// What was answered for the other selections of the session, newest
    /// last: cycling the period back finds its answers, nothing asked.
    kept: Vec<(ReportFilters, Kept)>,
    /// The findings opened in the period of `asked_with` (none asked for
    /// all time).
    pub opened: OpenedAnswer,
    /// Its most opened rules and repositories (the top charts'), sorted
    /// once when it comes.
    pub opened_tops: [Vec<(String, Opened)>; 2],
}

/// The answers of one selection, kept while another is shown.
#[derive(Debug, Clone, Default)]
struct Kept {
    answers: Vec<(DashboardReport, Answer)>,
    lists: Vec<(DashboardReport, Vec<Entry>)>,
    tops: Vec<(DashboardReport, Top)>,
    opened: OpenedAnswer,
}

/// How many other selections' answers are kept (a few kilobytes each).
const KEPT_SELECTIONS: usize = 32;

impl Dashboard {
    pub fn answer(&self, report: DashboardReport) -> &Answer {
        self.answers
            .iter()
            .find(|(r, _)| *r == report)
            .map_or(&Answer::NotAsked, |(_, a)| a)
    }

    fn set(&mut self, report: DashboardReport, answer: Answer) {
        match self.answers.iter_mut().find(|(r, _)| *r == report) {
            Some((_, a)) => *a = answer,
            None => self.answers.push((report, answer)),
        }
    }

    pub fn is_loading(&self) -> bool {
        self.answers
            .iter()
            .any(|(_, a)| matches!(a, Answer::Loading(_)))
            || matches!(self.opened, OpenedAnswer::Loading(_))
    }

    /// The findings opened in the period, once counted.
    pub fn opened(&self) -> Option<&OpenedInPeriod> {
        match &self.opened {
            OpenedAnswer::Known(o) => Some(o),
            _ => None,
        }
    }

    /// Forgets every answer, of every selection (a write changed what
    /// they count): the next [`Dashboard::show`] asks again.
    pub fn forget(&mut self, outbox: &mut Outbox) {
        self.cancel(outbox);
        self.answers.clear();
        self.lists.clear();
        self.tops.clear();
        self.kept.clear();
        self.opened = OpenedAnswer::NotAsked;
        self.opened_tops = Default::default();
        self.asked_with = None;
    }

    /// Puts the shown selection's answers aside (what is in flight for it
    /// cancelled) and takes out `filters`' when they were kept.
    fn switch_to(&mut self, filters: &ReportFilters, outbox: &mut Outbox) {
        self.cancel(outbox);
        let shown = Kept {
            answers: std::mem::take(&mut self.answers)
                .into_iter()
                .filter(|(_, a)| !matches!(a, Answer::NotAsked | Answer::Failed(_)))
                .collect(),
            lists: std::mem::take(&mut self.lists),
            tops: std::mem::take(&mut self.tops),
            opened: match std::mem::take(&mut self.opened) {
                known @ OpenedAnswer::Known(_) => known,
                _ => OpenedAnswer::NotAsked,
            },
        };
        if let Some(before) = self.asked_with.take()
            && (!shown.answers.is_empty() || shown.opened != OpenedAnswer::NotAsked)
        {
            self.kept.retain(|(f, _)| *f != before);
            if self.kept.len() == KEPT_SELECTIONS {
                self.kept.remove(0);
            }
            self.kept.push((before, shown));
        }
        if let Some(k) = self.kept.iter().position(|(f, _)| f == filters) {
            let (_, kept) = self.kept.remove(k);
            self.answers = kept.answers;
            self.lists = kept.lists;
            self.tops = kept.tops;
            self.opened = kept.opened;
        }
        self.relist();
        self.asked_with = Some(filters.clone());
    }

    /// Forgets the answers of another selection (cancelling what is in
    /// flight for it), then asks the reports not known for `filters`:
    /// with a report's view shown, every view's; with the counts shown,
    /// the lists' when `tops` (the counts' top rules and repositories
    /// are then theirs); and with `opened` (the filters of a period: none
    /// for all time), the findings opened in it where the view shows
    /// them. The caller files the requests in its slot.
    pub fn show(
        &mut self,
        filters: &ReportFilters,
        tops: bool,
        opened: Option<&ReportFilters>,
        outbox: &mut Outbox,
    ) {
        if self.asked_with.as_ref() != Some(filters) {
            self.switch_to(filters, outbox);
        }
        let opened_shown = match self.block {
            Block::Counts => tops,
            Block::Rules | Block::Repositories => true,
            _ => false,
        };
        if let Some(period) = opened.filter(|_| opened_shown)
            && matches!(
                self.opened,
                OpenedAnswer::NotAsked | OpenedAnswer::Failed(_)
            )
            && let Some(id) = outbox.send(ApiRequest::Opened(period.clone()))
        {
            self.opened = OpenedAnswer::Loading(id);
        }
        let wanted: &[DashboardReport] = match self.block {
            Block::Counts if tops => &[DashboardReport::ByProject, DashboardReport::BacklogByRule],
            Block::Counts => &[],
            // Every view's report at once, in parallel through the worker:
            // the next `d` finds its view ready.
            _ => &VIEWS,
        };
        for &report in wanted {
            if matches!(self.answer(report), Answer::NotAsked | Answer::Failed(_)) {
                let request = GetReportRequest {
                    filters: Some(filters.clone()),
                };
                if let Some(id) = outbox.send(ApiRequest::Dashboard(report, request)) {
                    self.set(report, Answer::Loading(id));
                }
            }
        }
    }

    /// The entries of the list view shown, worst first.
    pub fn entries(&self) -> Vec<Entry> {
        self.entries_of(self.block).to_vec()
    }

    /// The entries of list view `block` (shown or not), as ordered when
    /// its answer came.
    pub fn entries_of(&self, block: Block) -> &[Entry] {
        block
            .report()
            .and_then(|r| self.lists.iter().find(|(l, _)| *l == r))
            .map_or(&[], |(_, entries)| entries.as_slice())
    }

    /// The view beside the shown one on a wide screen: the next report.
    pub fn beside(&self) -> Block {
        let at = Block::ALL
            .iter()
            .position(|b| *b == self.block)
            .unwrap_or(0);
        let next = Block::ALL[(at + 1) % Block::ALL.len()];
        if next == Block::Counts {
            Block::Activity
        } else {
            next
        }
    }

    /// Whether the view shown is a list whose `Enter` narrows the Issues
    /// pane to the selected entry.
    pub fn is_list(&self) -> bool {
        matches!(self.block, Block::Repositories | Block::Rules)
    }

    /// Whether the view shown has rows the keys move in (and scroll to
    /// where the screen is too short): the lists and the activity's
    /// buckets.
    pub fn has_rows(&self) -> bool {
        self.is_list() || matches!(self.block, Block::Activity | Block::Backlog)
    }

    /// The rows of view `block`: its entries, or the activity's buckets.
    pub fn row_count(&self, block: Block) -> usize {
        match block {
            Block::Activity => match self.answer(DashboardReport::Activity) {
                Answer::Known(DashboardAnswer::Activity(a)) => a.buckets.len(),
                _ => 0,
            },
            Block::Backlog => match self.answer(DashboardReport::BacklogBySeverity) {
                Answer::Known(DashboardAnswer::BySeverity(r)) => r.buckets.len(),
                _ => 0,
            },
            _ => self.entries_of(block).len(),
        }
    }

    /// The selected row of the view shown, within its rows (the
    /// activity starts at its latest bucket).
    pub fn selected_row(&self) -> usize {
        self.selected
            .min(self.row_count(self.block).saturating_sub(1))
    }

    /// Shows `block`, its first row selected (the activity's latest).
    pub fn choose(&mut self, block: Block) {
        self.block = block;
        // A trend starts at its latest bucket.
        self.selected = if matches!(block, Block::Activity | Block::Backlog) {
            usize::MAX
        } else {
            0
        };
    }

    /// A reply to one of its requests (one no longer waited for is
    /// dropped).
    pub fn accept(&mut self, id: RequestId, result: ApiResult) {
        if self.opened == OpenedAnswer::Loading(id) {
            self.opened = match result {
                Ok(ApiResponse::Opened(opened)) => OpenedAnswer::Known(opened),
                Ok(other) => OpenedAnswer::Failed(other.unexpected().to_string()),
                Err(e) => OpenedAnswer::Failed(e.to_string()),
            };
            self.relist();
            return;
        }
        let Some(report) = self
            .answers
            .iter()
            .find(|(_, a)| *a == Answer::Loading(id))
            .map(|(r, _)| *r)
        else {
            return;
        };
        let answer = match result {
            Ok(ApiResponse::Dashboard(answer)) => Answer::Known(answer),
            Ok(other) => Answer::Failed(other.unexpected().to_string()),
            Err(e) if not_offered(&e) => Answer::NotOffered(e.to_string()),
            Err(e) => Answer::Failed(e.to_string()),
        };
        if let Answer::Known(known) = &answer {
            let entries = ordered(known);
            self.tops.retain(|(r, _)| *r != report);
            self.tops.push((report, Top::of(report, &entries)));
        }
        self.set(report, answer);
        self.relist();
    }

    /// The list views' entries from their answers, with what was opened
    /// in the period when it is counted: then most opened first (a rule
    /// or repository that opened none in it after, by its backlog).
    fn relist(&mut self) {
        self.lists.clear();
        self.opened_tops = match self.opened() {
            Some(o) => [o.rules(), o.repositories()].map(|mut rows| {
                rows.truncate(super::TOP);
                rows
            }),
            None => Default::default(),
        };
        for report in [DashboardReport::ByProject, DashboardReport::BacklogByRule] {
            let Answer::Known(known) = self.answer(report) else {
                continue;
            };
            let mut entries = ordered(known);
            if let Some(opened) = self.opened() {
                let counted = if report == DashboardReport::BacklogByRule {
                    opened.rules()
                } else {
                    opened.repositories()
                };
                with_opened(&mut entries, counted, report == DashboardReport::ByProject);
            }
            self.lists.push((report, entries));
        }
    }

    /// The top chart of list view `block`, once its answer is in.
    pub fn top_of(&self, block: Block) -> Option<&Top> {
        let report = block.report()?;
        self.tops.iter().find(|(r, _)| *r == report).map(|(_, t)| t)
    }

    /// The filters the answers are of (what the views say they cover).
    pub fn asked_with(&self) -> Option<&ReportFilters> {
        self.asked_with.as_ref()
    }

    /// Stops what is in flight; whether anything was.
    pub fn cancel(&mut self, outbox: &mut Outbox) -> bool {
        let mut any = false;
        if let OpenedAnswer::Loading(id) = self.opened {
            outbox.cancel(Some(id));
            self.opened = OpenedAnswer::NotAsked;
            any = true;
        }
        for (_, answer) in &mut self.answers {
            if let Answer::Loading(id) = answer {
                outbox.cancel(Some(*id));
                *answer = Answer::NotAsked;
                any = true;
            }
        }
        any
    }
}

/// A list view's entries as a top chart shows them.
#[derive(Debug, Clone, Default)]
pub struct Top {
    /// Label and open findings, most first.
    pub items: Vec<(String, u64)>,
    /// The report's key of each item (a rule's id, a repository's name).
    pub keys: Vec<String>,
    /// The open findings of them all.
    pub open: i64,
}

impl Top {
    /// Rules by the short name the RULE column shows, told apart where two
    /// share one (as the loaded pages' chart labels them); repositories by
    /// name.
    fn of(report: DashboardReport, entries: &[Entry]) -> Top {
        let mut entries: Vec<&Entry> = entries.iter().collect();
        entries.sort_by_key(|e| std::cmp::Reverse(e.total));
        let labels: Vec<String> = if report == DashboardReport::BacklogByRule {
            let pairs: Vec<(&str, &str)> = entries
                .iter()
                .map(|e| (e.key.as_str(), short_rule(&e.key)))
                .collect();
            super::stats::rule_labels(&pairs)
        } else {
            entries.iter().map(|e| e.key.clone()).collect()
        };
        Top {
            items: labels
                .into_iter()
                .zip(&entries)
                .map(|(label, e)| (label, e.total.max(0).unsigned_abs()))
                .collect(),
            keys: entries.iter().map(|e| e.key.clone()).collect(),
            open: entries.iter().map(|e| e.total).sum(),
        }
    }
}

/// `entries` (the backlog's) with what each opened in the period, most
/// opened first (then the backlog, then the key); one that opened
/// findings and has none open at the end is added.
fn with_opened(entries: &mut Vec<Entry>, counted: Vec<(String, Opened)>, by_severity: bool) {
    let at: std::collections::HashMap<String, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.key.clone(), i))
        .collect();
    for e in entries.iter_mut() {
        e.opened = Some(Opened::default());
    }
    for (key, n) in counted {
        match at.get(&key) {
            Some(&i) => entries[i].opened = Some(n),
            None => entries.push(Entry {
                key,
                total: 0,
                by_severity: by_severity.then(BySeverity::default),
                opened: Some(n),
            }),
        }
    }
    entries.sort_by(|a, b| {
        let n = |e: &Entry| e.opened.unwrap_or_default();
        (n(b).opened, n(b).still_open, b.total)
            .cmp(&(n(a).opened, n(a).still_open, a.total))
            .then_with(|| a.key.cmp(&b.key))
    });
}

/// A list view's entries from its answer: repositories worst first, the
/// rules of the last bucket most first (none for the other reports).
fn ordered(answer: &DashboardAnswer) -> Vec<Entry> {
    match answer {
        DashboardAnswer::ByProject(p) => p
            .worst_first()
            .into_iter()
            .map(|(name, counts)| Entry {
                key: name.clone(),
                total: counts.total(),
                by_severity: Some(*counts),
                opened: None,
            })
            .collect(),
        DashboardAnswer::BacklogByRule(r) => r.buckets.last().map_or_else(Vec::new, |last| {
            last.most_first()
                .into_iter()
                .map(|(id, total)| Entry {
                    key: id.clone(),
                    total,
                    by_severity: None,
                    opened: None,
                })
                .collect()
        }),
        _ => Vec::new(),
    }
}

/// A 404, or a 501 (not implemented): the deployment does not offer the
/// report.
fn not_offered(e: &ApiError) -> bool {
    match e {
        ApiError::NotFound(_) => true,
        ApiError::Server(m) | ApiError::UnexpectedStatus(m) => m.status == 501,
        _ => false,
    }
}
