//! Where the Issues pane puts its parts: the counts of the filter over the
//! table (a line by state, and one for the archived projects' findings the
//! list leaves out), the table, and the `/` input under it. The view draws
//! them; paging and clicks read them.

use super::IssuesPane;
use crate::list::issue_counts::{CountState, archived_note, by_state_lines_with};
use crate::pane::Cx;
use ratatui::layout::{Constraint, Layout, Rect};

/// Below this many rows the body has no room for the counts.
const ROOM_FOR_COUNTS: u16 = 8;

pub struct IssuesAreas {
    /// The counts lines (none in the groups view, or when cramped).
    pub counts: Rect,
    pub table: Rect,
    /// The local filter input, while it is typed.
    pub input: Option<Rect>,
}

impl IssuesPane {
    /// The lines the counts take: by state (two when the states do not fit
    /// one), and the note (wrapped) when archived projects hold findings
    /// of the filter.
    fn counts_height(&self, body: Rect) -> u16 {
        if self.groups.shown || body.height < ROOM_FOR_COUNTS {
            return 0;
        }
        match &self.counts.state {
            CountState::Known(c) => {
                let states = by_state_lines_with(c, &self.past_the_counts(c), body.width as usize)
                    .len()
                    .clamp(1, 2);
                let archived = self.selection.filter.include_archived == Some(true);
                let note = archived_note(c, archived).map_or(0, |note| {
                    crate::widgets::common::wrap(&note, body.width as usize).len()
                });
                crate::layout::cells(states + note)
            }
            _ => 1,
        }
    }

    /// The loaded findings past the counts' total, by state.
    pub(super) fn past_the_counts(
        &self,
        c: &findings_model::GetIssueCountsResponse,
    ) -> Vec<(&'static str, i64)> {
        self.listed_states.past_the_counts(c)
    }

    pub fn areas(&self, body: Rect) -> IssuesAreas {
        let input = self.local_input.is_some() && !self.groups.shown;
        let [counts, rest] = Layout::vertical([
            Constraint::Length(self.counts_height(body)),
            Constraint::Min(0),
        ])
        .areas(body);
        if input && rest.height > 2 {
            let [table, input] =
                Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(rest);
            IssuesAreas {
                counts,
                table,
                input: Some(input),
            }
        } else {
            IssuesAreas {
                counts,
                table: rest,
                input: None,
            }
        }
    }

    /// Loads the list anew and counts again (`r`, a triage by filter):
    /// the findings may have changed, the filter not.
    pub(super) fn reload_and_recount(&mut self, cx: &mut Cx) {
        self.reload_with(cx, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{App, Session};
    use crate::keymap::{Action, Keymap};
    use crate::message::{ApiRequest, ApiResponse, Outbox, RequestId};
    use crate::pane::testing::Drive;
    use crate::theme::Theme;
    use findings_client::ApiError;
    use findings_model::GetIssueCountsResponse;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn screen(pane: IssuesPane) -> String {
        let mut app = App::new(
            Session::default(),
            Keymap::default_keymap(),
            Theme::no_color(),
            (100, 30),
        );
        *app.issues_mut() = pane;
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        terminal.draw(|f| crate::app::view::draw(f, &app)).unwrap();
        let buf = terminal.backend().buffer();
        (0..30)
            .map(|y| (0..100).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
            .collect()
    }

    fn counts_request(outbox: &Outbox) -> RequestId {
        outbox
            .requests()
            .iter()
            .rev()
            .find(|(_, r)| matches!(r, ApiRequest::IssueCounts(_)))
            .expect("a counts request")
            .0
    }

    #[test]
    fn a_failed_count_says_so_briefly_and_the_list_is_left_alone() {
        let mut outbox = Outbox::default();
        let mut pane = IssuesPane::default();
        pane.start(&mut outbox);
        let id = counts_request(&outbox);
        pane.reply(id, Err(ApiError::Connection("refused".into())), &mut outbox);
        assert!(outbox.events.is_empty(), "no popup: {:?}", outbox.events);
        assert!(pane.list.loader.is_loading(), "the page is still coming");
        let s = screen(pane);
        assert!(s.contains("counts unavailable (r asks again): "), "{s}");
        assert!(s.contains("refused"), "{s}");
    }

    #[test]
    fn the_counts_and_the_archived_line_take_their_place_over_the_table() {
        let mut outbox = Outbox::default();
        let mut pane = IssuesPane::default();
        pane.start(&mut outbox);
        let body = Rect::new(0, 0, 100, 27);
        assert_eq!(pane.areas(body).counts.height, 1);
        let id = counts_request(&outbox);
        let counts = GetIssueCountsResponse {
            open: Some(180),
            reviewing: Some(12),
            archived: Some(33),
            ..Default::default()
        };
        pane.reply(id, Ok(ApiResponse::IssueCounts(counts)), &mut outbox);
        let areas = pane.areas(body);
        assert_eq!(areas.counts.height, 2, "the archived line too");
        assert_eq!(areas.table.y, 2);
        let s = screen(pane);
        assert!(s.contains("192 match: open 180 · reviewing 12"), "{s}");
        assert!(
            s.contains("33 in archived projects not listed: :filter includeArchived=true"),
            "{s}"
        );
    }

    #[test]
    fn esc_while_counting_stops_the_count_and_says_so() {
        let mut outbox = Outbox::default();
        let mut pane = IssuesPane::default();
        pane.start(&mut outbox);
        assert!(pane.counts.is_loading() && pane.list.loader.is_loading());
        pane.act(Action::Back, 20, &mut outbox);
        assert!(!pane.counts.is_loading() && !pane.list.loader.is_loading());
        assert_eq!(outbox.cancelled().len(), 2, "the page and the count");
        assert!(screen(pane).contains("counting stopped (r asks again)"));
    }
}
