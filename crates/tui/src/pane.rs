//! The seam between the app and its panes. Every pane implements [`Pane`];
//! the app reaches the pane on show through it and never does a pane's
//! work itself. Methods have do-nothing defaults, so a pane implements
//! only what it has.

use super::keymap::{Action, Context, Keymap};
use super::message::{ApiResult, Changed, Fetch, Outbox, PaneId, PaneMsg, RequestId, Slot, Then};
use super::theme::Theme;
use crossterm::event::KeyEvent;
use findings_model::{Issue, ListSelection, Timestamp};
use findings_requests::triage::Target;
use ratatui::Frame;
use ratatui::layout::Rect;
use std::any::Any;

/// What an update of a pane may use: where to put requests and events, the
/// time of the message, and the area the pane has on screen.
pub struct Cx<'a> {
    pub outbox: &'a mut Outbox,
    /// When the message being handled happened.
    pub now: Timestamp,
    /// The screen's body, where the pane's list goes (from the geometry
    /// computed on resize; the pane splits it with its own layout).
    pub area: Rect,
    /// The bindings in force, for messages that name a key.
    pub keymap: &'a Keymap,
}

/// What drawing a pane may read besides the pane.
pub struct ViewCx<'a> {
    pub theme: &'a Theme,
    pub keymap: &'a Keymap,
    /// The spinner's frame.
    pub spinner: usize,
    /// The deployment requests go to (shown in request lines).
    pub deployment: &'a str,
    /// When the last message was handled: what "expired" is judged by.
    pub now: Timestamp,
}

impl ViewCx<'_> {
    /// The key bound to `action` in `context` (or an outer context), as a
    /// hint shows it: the bindings in force, so a rebinding shows
    /// everywhere.
    pub fn key(&self, context: Context, action: Action) -> String {
        self.keymap.hint(context, action)
    }

    /// The key bound to `action` in the first of `contexts` that binds it,
    /// else globally: for a pane whose keys live in several contexts (its
    /// own and the list's).
    pub fn key_among(&self, contexts: &[Context], action: Action) -> String {
        self.keymap.hint_among(contexts, action)
    }

    /// Every key bound to `action` there, as `y/Enter`.
    pub fn keys(&self, context: Context, action: Action) -> String {
        self.keymap.hints(context, action)
    }
}

/// A pane that lists findings: what export, copy and marks need of it.
pub trait FindingsSource {
    /// How many rows are marked.
    fn marked(&self) -> usize;
    /// How many rows are shown (the local filter applies).
    fn shown(&self) -> usize;
    /// The selected finding as its row knows it
    /// ([`FindingRow::summary`](crate::message::rows::FindingRow::summary)).
    fn selected_issue(&self) -> Option<Issue>;
    /// The marked rows (in list order, shown or not) as their rows know
    /// them.
    fn marked_issues(&self) -> Vec<Issue>;
    /// A local filter (`/`) is in force: the rows shown are not all the
    /// server-side filter's.
    fn locally_filtered(&self) -> bool;
    /// The rows a local filter (`/`) shows, as their rows know them;
    /// `None` when none is in force, `Err` while its rows still load.
    fn filtered_issues(&self) -> Option<Result<Vec<Issue>, String>>;
    /// How to fetch whole the rows an export writes: the marked ones, else
    /// every shown row (`None`: there are none).
    fn export_fetch(&self, then: Then) -> Option<Fetch>;
    /// How to fetch the selected row whole.
    fn selected_fetch(&self, then: Then) -> Option<Fetch>;
    /// The columns an export (`e`) writes unless told otherwise, with what
    /// their cells are reckoned with as of `now`: the finding's id, then
    /// the columns the list shows, in its order.
    fn export_columns(&self, now: findings_model::Timestamp) -> findings_export::Chosen;
}

/// What an action on the rows shown is told while the pane's work
/// (`note`, its [`Pane::work_left`]) leaves them partial. Refused rather
/// than queued: a queued export or triage would run later on rows the
/// user has not seen, after keys that may have changed the query.
pub fn waits_for_work(note: &str, what: &str) -> String {
    format!(
        "still {note}: {what} acts on the rows shown, so it waits until they are exact; \
         press it again then (Esc stops the search)"
    )
}

pub trait Pane: Any {
    fn id(&self) -> PaneId;

    /// The header's name of the pane.
    fn title(&self) -> &'static str;

    /// The key contexts in force, innermost first (`Global` is added by the
    /// app).
    fn contexts(&self) -> Vec<Context>;

    /// Every key context of the pane's own, with its heading in the help
    /// overlay: a keymap file's `[[NAME]]` tables bind keys there.
    fn key_contexts(&self) -> &'static [(Context, &'static str)] {
        &[]
    }

    /// A message addressed to this pane (by [`Pane::id`]).
    fn on_message(&mut self, _msg: PaneMsg, _cx: &mut Cx) {}

    /// Why a profile's start settings did not apply, said once at the
    /// start.
    fn start_note(&mut self) -> Option<String> {
        None
    }

    /// What the pane keeps for the next run under the profile, when it
    /// changed this run: saved when the app ends under the pane's id, and
    /// handed back at the next start through the session.
    fn remember(&self) -> Option<serde_json::Value> {
        None
    }

    /// The server-side filter the pane's list is under: what a triage by
    /// filter (`:triage-all`) triages.
    fn filter_scope(&self) -> Option<&ListSelection> {
        None
    }

    /// A text input has the keys (typed letters are text, not actions).
    fn text_input_active(&self) -> bool {
        false
    }

    /// Work the pane does a slice at a time between input events (a `/`
    /// search through millions of rows), said as it shows ("/q
    /// searching… 42%"); `None`: nothing left.
    fn work_left(&self) -> Option<String> {
        None
    }

    /// One slice of that work (the event loop calls it while
    /// [`Pane::work_left`] says some is left, input first).
    fn work(&mut self, _cx: &mut Cx) {}

    fn is_loading(&self) -> bool {
        false
    }

    /// The pane is shown: the first time, it asks for its data.
    fn activate(&mut self, _cx: &mut Cx) {}

    /// How many the pane's filter matches, for its tab in the header:
    /// only a count of the filter in force, `None` while it is not known.
    fn tab_count(&self) -> Option<i64> {
        None
    }

    /// At the start, for the panes not shown: asks only for the count its
    /// tab carries (not its data).
    fn count_for_tab(&mut self, _cx: &mut Cx) {}

    fn on_action(&mut self, _action: Action, _cx: &mut Cx) {}

    /// What keys mean in what the pane shows now, beyond its bindings
    /// (a view whose rows `j`/`k` move): a title and its (keys, meaning)
    /// rows, listed first by `?`.
    fn help_here(&self, _v: &ViewCx) -> Option<(String, Vec<(String, String)>)> {
        None
    }

    /// A key while [`Pane::text_input_active`].
    fn on_text_key(&mut self, _key: KeyEvent, _cx: &mut Cx) {}

    /// The answer to a request this pane sent, in the slot it filed the
    /// request under (see [`ReplySlot`](super::message::ReplySlot)).
    fn on_reply(&mut self, _slot: Slot, _id: RequestId, _result: ApiResult, _cx: &mut Cx) {}

    /// After every message: prefetch and keep the selection on screen.
    fn after_update(&mut self, _cx: &mut Cx) {}

    /// How many rows of its list the pane shows in `area` (what a page
    /// is): a table filling the area unless the pane puts more there.
    fn list_rows(&self, area: Rect) -> usize {
        super::layout::table_rows(area).height.max(1) as usize
    }

    /// A left click at (`x`, `y`) on the screen; `area` is the screen's body.
    fn click(&mut self, _area: Rect, _x: u16, _y: u16) {}

    /// A `:` command: `None` when the pane has no such command.
    fn command(&mut self, _name: &str, _args: &[&str], _cx: &mut Cx) -> Option<Result<(), String>> {
        None
    }

    /// The `:` commands the pane answers, as their usage (`sort FIELD
    /// [asc|desc]`); the app sends each to the pane on show if it has it,
    /// else to the first pane that does.
    fn commands(&self) -> &'static [&'static str] {
        &[]
    }

    /// Completions of `word`, being typed after `:name args`: whole words
    /// it could become (the command line's Tab). None by default.
    fn complete(&self, _name: &str, _args: &[&str], _word: &str) -> Vec<String> {
        Vec::new()
    }

    /// The finding list behind export, copy and marks, if the pane has one.
    fn findings(&self) -> Option<Box<dyn FindingsSource + '_>> {
        None
    }

    /// What `T` triages here: the marked rows, else the selected one
    /// (panes with a finding list have it from [`Pane::findings`]).
    fn triage_targets(&self) -> Option<Vec<Target>> {
        let findings = self.findings()?;
        // What a triage reads of a finding (its id, states, permission
        // and label) is in its row: nothing is fetched.
        let issues: Vec<Issue> = if findings.marked() > 0 {
            findings.marked_issues()
        } else {
            findings.selected_issue().into_iter().collect()
        };
        let targets: Vec<Target> = issues
            .iter()
            .filter(|i| !i.id().is_empty())
            .map(|i| Target::finding(i).note_unread())
            .collect();
        (!targets.is_empty()).then_some(targets)
    }

    /// What `:triage-all` triages here, before the server-side filter: the
    /// marked rows, else the rows a `/` filter shows (`None`: neither, the
    /// server-side filter decides).
    fn triage_all_targets(&self) -> Option<Result<Vec<Target>, String>> {
        let findings = self.findings()?;
        let issues = if findings.marked() > 0 {
            findings.marked_issues()
        } else {
            match findings.filtered_issues()? {
                Ok(issues) => issues,
                Err(why) => return Some(Err(why)),
            }
        };
        let targets: Vec<Target> = issues
            .iter()
            .filter(|i| !i.id().is_empty())
            .map(|i| Target::finding(i).note_unread())
            .collect();
        Some(if targets.is_empty() {
            Err("the / filter shows no finding to triage".into())
        } else {
            Ok(targets)
        })
    }

    /// Findings or issues changed on the server: show the fresh copies in
    /// place, or load again.
    fn changed(&mut self, _change: &Changed, _cx: &mut Cx) {}

    /// Work that quitting would lose, one line each, naming it ("an
    /// unsent SCM draft of config 1001").
    fn unsent_work(&self) -> Vec<String> {
        Vec::new()
    }

    /// When the list on show was asked for: the visit to record.
    fn seen_at(&self) -> Option<Timestamp> {
        None
    }

    fn draw(&self, f: &mut Frame, area: Rect, v: &ViewCx);

    /// The pane's part of the status line.
    fn status(&self, v: &ViewCx) -> String;
}

/// Driving a pane in unit tests as the app does: `height` is the rows of a
/// list filling the body (the body is `height + 3` rows of 100 columns).
#[cfg(test)]
pub mod testing {
    use super::*;
    use crate::message::{ApiResult, Owner};

    pub fn cx(outbox: &mut Outbox, height: usize) -> Cx<'_> {
        // As the app does: the requests are a pane's, in its slots.
        outbox.act_for(Owner::Pane(PaneId("test"), Slot::default()));
        static KEYMAP: std::sync::OnceLock<Keymap> = std::sync::OnceLock::new();
        Cx {
            outbox,
            now: chrono::Utc::now(),
            area: Rect::new(0, 0, 100, crate::layout::cells(height).saturating_add(3)),
            keymap: KEYMAP.get_or_init(Keymap::default_keymap),
        }
    }

    pub trait Drive: Pane {
        fn act(&mut self, action: Action, height: usize, outbox: &mut Outbox) {
            self.on_action(action, &mut cx(outbox, height));
        }
        fn start(&mut self, outbox: &mut Outbox) {
            self.activate(&mut cx(outbox, 20));
        }
        fn after(&mut self, height: usize, outbox: &mut Outbox) {
            self.after_update(&mut cx(outbox, height));
        }
        fn reply(&mut self, id: RequestId, result: ApiResult, outbox: &mut Outbox) {
            let slot = outbox.slot_of(id);
            self.on_reply(slot, id, result, &mut cx(outbox, 20));
        }
        fn change(&mut self, change: &crate::message::Changed, outbox: &mut Outbox) {
            self.changed(change, &mut cx(outbox, 20));
        }
        fn type_key(&mut self, key: KeyEvent, outbox: &mut Outbox) {
            self.on_text_key(key, &mut cx(outbox, 20));
        }
        fn run(&mut self, name: &str, args: &[&str], outbox: &mut Outbox) -> Result<(), String> {
            self.command(name, args, &mut cx(outbox, 20))
                .unwrap_or_else(|| Err(format!("no command {name}")))
        }
    }

    impl<P: Pane> Drive for P {}
}
