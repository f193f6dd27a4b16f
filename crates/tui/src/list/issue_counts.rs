//! How many findings an Issues filter matches, asked of the server
//! (`IssuesService_GetIssueCounts`): by state, and how many more are in
//! archived projects (which List issues leaves out unless asked). A pane
//! asks once per filter (again when the data changed: a triage, `r`) and
//! owns the reply; this also says the counts in words.

use crate::message::{ApiRequest, ApiResponse, ApiResult, Outbox, RequestId};
use findings_base::text::thousands;
use findings_model::{
    AggregateState, GetIssueCountsRequest, GetIssueCountsResponse, ListSelection,
};

/// Where the counts of a filter stand.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum CountState {
    /// Never asked for.
    #[default]
    NotAsked,
    Loading(RequestId),
    Known(GetIssueCountsResponse),
    /// The request failed: why (the list does not depend on it).
    Failed(String),
    /// `Esc` stopped the request.
    Stopped,
}

#[derive(Debug, Clone, Default)]
pub struct IssueCounts {
    /// The selection counted (or being counted).
    of: Option<ListSelection>,
    pub state: CountState,
}

/// The counts request of a List issues selection: the same filter object
/// and type selection.
pub fn request(selection: &ListSelection) -> GetIssueCountsRequest {
    GetIssueCountsRequest {
        issue_types: selection.issue_types.clone(),
        filter: (!selection.filter.is_empty()).then(|| selection.filter.clone()),
        ..Default::default()
    }
}

impl IssueCounts {
    /// Asks for the counts of `selection`, unless they are known or asked
    /// for already; `again` asks anyway (the findings changed).
    pub fn ask(&mut self, selection: &ListSelection, again: bool, outbox: &mut Outbox) {
        let settled = matches!(self.state, CountState::Known(_) | CountState::Loading(_));
        if !again && settled && self.of.as_ref() == Some(selection) {
            return;
        }
        self.cancel(outbox);
        self.of = Some(selection.clone());
        self.state = match outbox.send(ApiRequest::IssueCounts(request(selection))) {
            Some(id) => CountState::Loading(id),
            None => CountState::NotAsked,
        };
    }

    /// Forgets the counts (the pane no longer asks for any).
    pub fn clear(&mut self, outbox: &mut Outbox) {
        self.cancel(outbox);
        *self = IssueCounts::default();
    }

    /// Takes the reply to its request (one it no longer waits for is
    /// dropped).
    pub fn accept(&mut self, id: RequestId, result: ApiResult) {
        if self.state != CountState::Loading(id) {
            return;
        }
        self.state = match result {
            Ok(ApiResponse::IssueCounts(counts)) => CountState::Known(counts),
            Ok(other) => CountState::Failed(other.unexpected().to_string()),
            Err(e) => CountState::Failed(e.to_string()),
        };
    }

    /// `Esc`: stops the request in flight; whether there was one.
    pub fn cancel(&mut self, outbox: &mut Outbox) -> bool {
        let CountState::Loading(id) = self.state else {
            return false;
        };
        outbox.cancel(Some(id));
        self.state = CountState::Stopped;
        true
    }

    pub fn is_loading(&self) -> bool {
        matches!(self.state, CountState::Loading(_))
    }

    /// Whether counts were ever asked for (the list is in use).
    pub fn was_asked(&self) -> bool {
        self.of.is_some()
    }

    /// The counts of `selection`, if they are known.
    pub fn known_for(&self, selection: &ListSelection) -> Option<&GetIssueCountsResponse> {
        match &self.state {
            CountState::Known(c) if self.of.as_ref() == Some(selection) => Some(c),
            _ => None,
        }
    }
}

/// The counts by state, those with none left out, in lines of at most
/// `width` cells broken between states (a state too long for the width is
/// cut when drawn): `233 match: open 181 · reviewing 27 · fixing 25`.
pub fn by_state_lines(c: &GetIssueCountsResponse, width: usize) -> Vec<String> {
    by_state_lines_with(c, &[], width)
}

/// [`by_state_lines`], and `more`: findings the list has past the
/// counts' total (the counts came without them), by the state the rows
/// are in, said so the list's length and the counts agree. When the
/// states take more than two lines, their names are shortened (all but
/// `unknown`), so every state the list shows is counted at any width.
pub fn by_state_lines_with(
    c: &GetIssueCountsResponse,
    more: &[(&str, i64)],
    width: usize,
) -> Vec<String> {
    let lines = state_lines(c, more, width, false);
    if lines.len() <= 2 {
        return lines;
    }
    state_lines(c, more, width, true)
}

/// The loaded rows by the count each is in, in the order first seen, kept
/// as pages come: a pass over every loaded row at each update (the counts
/// line's height is laid out after every message) held the screen still
/// for minutes at millions of rows while pages piled up behind it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListedStates {
    /// (the count's name, rows in it), in the order first seen.
    seen: Vec<(&'static str, i64)>,
}

impl ListedStates {
    /// `rows` counted from none.
    pub fn of(rows: impl Iterator<Item = Option<AggregateState>>) -> Self {
        let mut listed = ListedStates::default();
        listed.add(rows);
        listed
    }

    /// Counts `rows` in.
    pub fn add(&mut self, rows: impl Iterator<Item = Option<AggregateState>>) {
        // A page's rows come a few states at a time: the last one's slot
        // first, without a search.
        let mut last = usize::MAX;
        for state in rows {
            let name = counted_as(state.as_ref());
            if self.seen.get(last).is_none_or(|(n, _)| *n != name) {
                last = self
                    .seen
                    .iter()
                    .position(|(n, _)| *n == name)
                    .unwrap_or_else(|| {
                        self.seen.push((name, 0));
                        self.seen.len() - 1
                    });
            }
            if let Some((_, n)) = self.seen.get_mut(last) {
                *n += 1;
            }
        }
    }

    /// The rows counted.
    pub fn rows(&self) -> i64 {
        self.seen.iter().map(|(_, n)| n).sum()
    }

    /// The rows counted in past the counts' total, by state: for each
    /// state the counts name, how many more rows are in it than its count
    /// says. Nothing when the list holds no more than the total.
    pub fn past_the_counts(&self, c: &GetIssueCountsResponse) -> Vec<(&'static str, i64)> {
        if self.rows() <= c.listed() {
            return Vec::new();
        }
        let counted = |name: &str| {
            by_state(c, false)
                .into_iter()
                .find(|(n, _)| *n == name)
                .and_then(|(_, n)| n)
                .unwrap_or(0)
                .max(0)
        };
        self.seen
            .iter()
            .map(|&(name, n)| (name, n - counted(name)))
            .filter(|(_, n)| *n > 0)
            .collect()
    }
}

/// The count a finding in `state` is in, by its name in the count line.
fn counted_as(state: Option<&AggregateState>) -> &'static str {
    use AggregateState as S;
    match state {
        Some(S::Open) => "open",
        Some(S::Reviewing) => "reviewing",
        Some(S::Fixing) => "fixing",
        Some(S::ProvisionallyIgnoredApp) => "prov. ignored",
        Some(S::IgnoredApp | S::IgnoredCode) => "ignored",
        Some(S::Fixed | S::Removed) => "closed",
        _ => "unknown",
    }
}

fn state_lines(
    c: &GetIssueCountsResponse,
    more: &[(&str, i64)],
    width: usize,
    short: bool,
) -> Vec<String> {
    use unicode_width::UnicodeWidthStr;
    let mut lines: Vec<String> = Vec::new();
    let mut parts = by_state_parts(c, short);
    let total: i64 = more.iter().map(|(_, n)| n).sum();
    if total > 0 {
        let each: Vec<String> = more
            .iter()
            .map(|(name, n)| format!("{name} {}", thousands(*n)))
            .collect();
        parts.push(format!(
            "+{} more listed: {}",
            thousands(total),
            each.join(", ")
        ));
    }
    for part in parts {
        match lines.last_mut() {
            Some(line) if line.width() + 3 + part.width() <= width => {
                line.push_str(" · ");
                line.push_str(&part);
            }
            _ => lines.push(part),
        }
    }
    lines
}

/// Each count by its name, and its short name.
fn by_state(c: &GetIssueCountsResponse, short: bool) -> Vec<(&'static str, Option<i64>)> {
    [
        ("open", "open", c.open),
        ("reviewing", "rev", c.reviewing),
        ("fixing", "fix", c.fixing),
        ("prov. ignored", "prov", c.provisionally_ignored),
        ("ignored", "ign", c.ignored),
        ("closed", "closed", c.closed),
        ("unknown", "unknown", c.unknown),
    ]
    .into_iter()
    .map(|(name, short_name, n)| (if short { short_name } else { name }, n))
    .collect()
}

/// `233 match: open 181`, then `reviewing 27`, ... `unknown 3`; `short`:
/// `rev 27`, ... (`unknown` whole: it is no state a filter form offers by
/// another name).
fn by_state_parts(c: &GetIssueCountsResponse, short: bool) -> Vec<String> {
    let mut parts: Vec<String> = by_state(c, short)
        .into_iter()
        .filter_map(|(name, n)| {
            n.filter(|n| *n > 0)
                .map(|n| format!("{name} {}", thousands(n)))
        })
        .collect();
    let listed = thousands(c.listed());
    match parts.first_mut() {
        Some(first) => *first = format!("{listed} match: {first}"),
        None => parts.push(format!("{listed} match")),
    }
    parts
}

/// What the list leaves out in archived projects, and the filter that
/// shows them; when the list shows only those (`includeArchived=true`),
/// that, and how to list the others. `None` when no finding of the filter
/// is in an archived project.
pub fn archived_note(c: &GetIssueCountsResponse, include_archived: bool) -> Option<String> {
    let archived = c.archived.unwrap_or(0);
    if include_archived {
        return Some(
            "archived projects only (includeArchived=true); the others: :filter includeArchived="
                .to_owned(),
        );
    }
    (archived > 0).then(|| {
        format!(
            "{} in archived projects not listed: :filter includeArchived=true",
            thousands(archived)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_client::ApiError;
    use findings_model::Severity;

    fn counts() -> GetIssueCountsResponse {
        GetIssueCountsResponse {
            open: Some(180),
            reviewing: Some(12),
            fixing: Some(8),
            ignored: Some(20),
            closed: Some(1010),
            provisionally_ignored: Some(0),
            archived: Some(33),
            ..Default::default()
        }
    }

    #[test]
    fn findings_in_no_counted_state_are_said() {
        // 11 ignored more than counted, 2 in no state at all.
        let rows = std::iter::repeat_n(Some(AggregateState::IgnoredApp), 31)
            .chain(std::iter::repeat_n(Some(AggregateState::Open), 180))
            .chain(std::iter::repeat_n(Some(AggregateState::Reviewing), 12))
            .chain(std::iter::repeat_n(Some(AggregateState::Fixing), 8))
            .chain([None, None]);
        let mut c = counts();
        c.closed = Some(0);
        let more = ListedStates::of(rows).past_the_counts(&c);
        assert_eq!(more, vec![("ignored", 11), ("unknown", 2)]);
        let lines = by_state_lines_with(&c, &more, 200).join(" | ");
        assert!(
            lines.ends_with(" · +13 more listed: ignored 11, unknown 2"),
            "{lines}"
        );
        assert!(
            ListedStates::of(std::iter::repeat_n(None, 30))
                .past_the_counts(&counts())
                .is_empty(),
            "fewer rows than counted: nothing more"
        );
        assert_eq!(
            by_state_lines_with(&counts(), &[], 200),
            by_state_lines(&counts(), 200)
        );
    }

    #[test]
    fn counts_read_as_a_line_by_state_and_the_archived_as_a_filter() {
        assert_eq!(
            by_state_lines(&counts(), 100).join(" | "),
            "1,230 match: open 180 · reviewing 12 · fixing 8 · ignored 20 · closed 1,010"
        );
        assert_eq!(
            archived_note(&counts(), false).unwrap(),
            "33 in archived projects not listed: :filter includeArchived=true"
        );
        assert!(archived_note(&counts(), true).unwrap().contains("only"));
        assert_eq!(
            by_state_lines(&counts(), 60),
            [
                "1,230 match: open 180 · reviewing 12 · fixing 8 · ignored 20",
                "closed 1,010"
            ]
        );
        let none = GetIssueCountsResponse::default();
        assert_eq!(by_state_lines(&none, 100), ["0 match"]);
        assert_eq!(archived_note(&none, false), None);
    }

    #[test]
    fn the_unknown_state_is_counted_and_named_at_every_width() {
        let c = GetIssueCountsResponse {
            open: Some(400_123),
            reviewing: Some(55_000),
            fixing: Some(50_000),
            provisionally_ignored: Some(33_000),
            ignored: Some(130_000),
            closed: Some(230_125),
            unknown: Some(12_629),
            ..Default::default()
        };
        assert_eq!(c.listed(), 910_877);
        for width in [60, 80, 100] {
            let lines = by_state_lines(&c, width);
            assert!(lines.len() <= 2, "{width}: {lines:?}");
            assert!(
                lines.iter().all(|l| l.chars().count() <= width),
                "{lines:?}"
            );
            let all = lines.join(" · ");
            assert!(all.starts_with("910,877 match: open 400,123"), "{all}");
            assert!(all.ends_with("unknown 12,629"), "{width}: {all}");
        }
        assert_eq!(
            by_state_lines(&c, 60).join(" | "),
            "910,877 match: open 400,123 · rev 55,000 · fix 50,000 | prov 33,000 · ign 130,000 · closed 230,125 · unknown 12,629"
        );
    }

    #[test]
    fn counts_from_a_hostile_server_neither_panic_nor_wrap() {
        let c = GetIssueCountsResponse {
            open: Some(i64::MAX),
            closed: Some(i64::MAX),
            ignored: Some(-1),
            archived: Some(i64::MIN),
            ..Default::default()
        };
        assert_eq!(c.listed(), i64::MAX);
        let lines = by_state_lines(&c, 80);
        assert!(
            lines[0].starts_with("9,223,372,036,854,775,807 match: open 9,223,372,036,854,775,807"),
            "{lines:?}"
        );
        assert!(
            !lines.concat().contains("ignored"),
            "a negative count is none"
        );
        assert_eq!(archived_note(&c, false), None);
    }

    #[test]
    fn asked_once_per_selection_and_again_when_the_data_changed() {
        let mut outbox = Outbox::default();
        let mut c = IssueCounts::default();
        let mut critical = ListSelection::default();
        critical.filter.severities = vec![Severity::Critical];
        c.ask(&critical, false, &mut outbox);
        c.ask(&critical, false, &mut outbox);
        assert_eq!(outbox.requests().len(), 1, "once per selection");
        let (id, ApiRequest::IssueCounts(req)) = outbox.requests()[0] else {
            panic!("a counts request")
        };
        assert_eq!(
            req.filter.as_ref().unwrap().severities,
            [Severity::Critical]
        );
        // A superseded request's answer changes nothing.
        c.accept(id + 100, Ok(ApiResponse::IssueCounts(counts())));
        assert!(c.is_loading());
        c.accept(id, Ok(ApiResponse::IssueCounts(counts())));
        assert_eq!(c.known_for(&critical), Some(&counts()));
        assert_eq!(c.known_for(&ListSelection::default()), None);
        c.ask(&critical, false, &mut outbox);
        assert_eq!(outbox.requests().len(), 1, "known: not asked again");
        c.ask(&critical, true, &mut outbox);
        assert_eq!(outbox.requests().len(), 2, "the data changed");
        // A new selection while one is in flight cancels it.
        c.ask(&ListSelection::default(), false, &mut outbox);
        assert_eq!(outbox.cancelled().len(), 1);
        let id = outbox.requests()[2].0;
        c.accept(id, Err(ApiError::Connection("refused".into())));
        assert!(matches!(&c.state, CountState::Failed(e) if e.contains("refused")));
        c.ask(&ListSelection::default(), false, &mut outbox);
        assert_eq!(outbox.requests().len(), 4, "a failure is asked again");
        assert!(c.cancel(&mut outbox) && c.state == CountState::Stopped);
        assert!(!c.cancel(&mut outbox));
    }
}
