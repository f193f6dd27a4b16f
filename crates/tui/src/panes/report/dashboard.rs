//! The dashboard's reports in the Report pane (`ReportsService_Get*Report`):
//! the charts area shows one block at a time (`d`/`D`): the counts of the
//! whole set, the activity, the worst repositories, the worst rules, the
//! open age. A block's report is asked when it is shown, with the pane's
//! selectors (period, bucket, types, severities, repositories), and kept
//! for that selection for the session (a selection seen before is not
//! asked again) until a write changes what they count; a report the
//! server does not offer (404, 501) says so in its place.

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
            Block::Repositories => "open findings by repository at the period's end, worst first",
            Block::Rules => "open findings by rule at the period's end, most first",
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
/// open findings (by severity for a repository).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: String,
    pub total: i64,
    pub by_severity: Option<BySeverity>,
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
}

/// The answers of one selection, kept while another is shown.
#[derive(Debug, Clone, Default)]
struct Kept {
    answers: Vec<(DashboardReport, Answer)>,
    lists: Vec<(DashboardReport, Vec<Entry>)>,
    tops: Vec<(DashboardReport, Top)>,
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
    }

    /// Forgets every answer, of every selection (a write changed what
    /// they count): the next [`Dashboard::show`] asks again.
    pub fn forget(&mut self, outbox: &mut Outbox) {
        self.cancel(outbox);
        self.answers.clear();
        self.lists.clear();
        self.tops.clear();
        self.kept.clear();
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
        };
        if let Some(before) = self.asked_with.take()
            && !shown.answers.is_empty()
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
        }
        self.asked_with = Some(filters.clone());
    }

    /// Forgets the answers of another selection (cancelling what is in
    /// flight for it), then asks the reports not known for `filters`:
    /// with a report's view shown, every view's; with the counts shown,
    /// the lists' when `tops` (the counts' top rules and repositories
    /// are then theirs). The caller files the requests in its slot.
    pub fn show(&mut self, filters: &ReportFilters, tops: bool, outbox: &mut Outbox) {
        if self.asked_with.as_ref() != Some(filters) {
            self.switch_to(filters, outbox);
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
            self.lists.retain(|(r, _)| *r != report);
            self.lists.push((report, entries));
        }
        self.set(report, answer);
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
            })
            .collect(),
        DashboardAnswer::BacklogByRule(r) => r.buckets.last().map_or_else(Vec::new, |last| {
            last.most_first()
                .into_iter()
                .map(|(id, total)| Entry {
                    key: id.clone(),
                    total,
                    by_severity: None,
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
