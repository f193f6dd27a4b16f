//! Loading the list anew (a new filter or sort, `r`, a triage) and the
//! pages as they come; `r` keeps the rows loaded until its first page
//! comes, and a reload that fails puts them back.

use super::{IssuesPane, Slot};
use crate::filter_form::{FilterForm, FormOutcome};
use crate::keymap::Action;
use crate::list::findings_list::{Marks, NewSince};
use crate::list::issue_counts::ListedStates;
use crate::list::load::PagedList;
use crate::message::rows::{FindingRow, RowPage, SearchIndex};
use crate::message::{self, ApiRequest, Outbox};
use crate::pane::Cx;
use findings_model::IssueItem;
use findings_requests::filter_spec::LIST_FILTER;

/// The list as it was before a reload.
#[derive(Debug)]
pub(super) struct Kept {
    list: PagedList<FindingRow<IssueItem>>,
    search: SearchIndex,
    listed_states: ListedStates,
    order: Option<Vec<u32>>,
    marked: Marks,
    new: NewSince,
}

impl IssuesPane {
    /// Starts again from the first page (new filter, new sort); the
    /// counts are asked for when the filter is new.
    pub fn reload(&mut self, cx: &mut Cx) {
        self.reload_with(cx, false);
    }

    /// [`IssuesPane::reload`]; `recount`: the same filter asked again (the
    /// findings may have changed), so the counts are asked again and the
    /// rows loaded are kept until the first page comes.
    pub(super) fn reload_with(&mut self, cx: &mut Cx, recount: bool) {
        if !recount {
            // Another filter: an alias looked for an older one is dropped
            // (its reply finds no search).
            self.alias_search = None;
        }
        let new = self.new.clone();
        self.new.restart(cx.now);
        let (cancel, before) = self.list.reset_taking();
        cx.outbox.cancel(cancel);
        self.kept = (recount && !before.items.is_empty()).then(|| {
            Box::new(Kept {
                list: before,
                search: std::mem::take(&mut self.search),
                listed_states: std::mem::take(&mut self.listed_states),
                order: self.order.take(),
                marked: std::mem::take(&mut self.marked),
                new,
            })
        });
        self.loading_all = None;
        self.order = None;
        self.marked.clear();
        self.search.clear();
        self.listed_states = ListedStates::default();
        self.apply_local_filter();
        self.load_next(cx.outbox);
        // Over target only: known of every finding, so every one loads.
        if self.over_target.is_some() {
            self.load_all(false, cx);
        }
        cx.outbox.in_slot(Slot::Counts, |o| {
            self.counts.ask(&self.selection, recount, o);
        });
        // A new filter (`:filter`, `:view`) while the groups show: theirs too.
        if self.groups.shown {
            self.groups.show(&self.selection, cx.outbox);
        }
    }

    pub(super) fn load_next(&mut self, outbox: &mut Outbox) {
        let req = self.request(self.list.next_cursor.clone());
        if let Some(id) = outbox.in_slot(Slot::List, |o| o.send(ApiRequest::ListRows(req))) {
            let superseded = self.list.loader.started(id);
            outbox.cancel(superseded);
        }
    }

    pub(super) fn take_page(&mut self, mut page: RowPage, outbox: &mut Outbox) {
        // Once the list is up (not racing its first page).
        outbox.in_slot(Slot::FilterValues, |o| self.known.request(o));
        // The reload came: the rows it replaces go.
        self.kept = None;
        let start = self.list.items.len();
        self.search.extend(&page.search);
        self.listed_states.add(page.rows.iter().map(|r| r.state()));
        self.rule_labels.learn(&page.rule_labels);
        self.learned.apply(&mut page.rows);
        self.new.count_page(&page.rows, |r| r.relevant_since());
        // What was shown before a narrowing lacks the new rows.
        self.typed.clear();
        self.list
            .add_page(page.rows, page.cursor, "Loading findings", outbox);
        self.extend_local_filter(start);
        // Everything is here: a sort the server cannot do is done now.
        if self.list.complete && self.sort_age && self.order.is_none() {
            self.sort_here();
        }
    }

    /// The form of the filter in force (no draft).
    fn fresh_form(&self) -> FilterForm {
        let views = self
            .views
            .iter()
            .map(|v| (v.name.clone(), v.summary()))
            .collect();
        FilterForm::new(LIST_FILTER, &self.selection)
            .with_views(views)
            .with_offered(self.known.offered(LIST_FILTER))
    }

    /// `f`: the edits left with Esc if the filter they were made over is
    /// still in force, else the filter in force.
    pub(super) fn open_form(&mut self) {
        let draft = self
            .form_draft
            .take()
            .filter(|(over, _)| *over == self.selection);
        self.form = Some(match draft {
            Some((_, mut form)) => {
                form.draft = true;
                form
            }
            None => self.fresh_form(),
        });
    }

    /// Esc: edits are kept as a draft (said), never dropped unsaid.
    fn leave_form(&mut self, cx: &mut Cx) {
        let Some(mut form) = self.form.take() else {
            return;
        };
        if form.differs_from(&self.fresh_form()) {
            form.error = None;
            self.form_draft = Some((self.selection.clone(), form));
            let f = cx.keymap.hint(super::KEYS, Action::FilterForm);
            cx.outbox.status(format!(
                "filter edits kept as a draft, not applied ({f} reopens them)"
            ));
        }
    }

    /// Keys while the filter form is open.
    pub(super) fn on_form_action(&mut self, action: Action, cx: &mut Cx) {
        let Some(form) = &mut self.form else { return };
        let outcome = match action {
            Action::NextField => return form.next(),
            Action::PrevField => return form.prev(),
            Action::Top => return form.first(),
            Action::Bottom => return form.last(),
            Action::Toggle => return form.toggle(),
            Action::ClearField => return form.clear_field(),
            Action::Revert => {
                // Back to the filter in force: the draft is gone.
                let selected = form.selected;
                let mut fresh = self.fresh_form();
                fresh.selected = selected.min(fresh.rows() - 1);
                self.form = Some(fresh);
                return;
            }
            Action::Back => return self.leave_form(cx),
            Action::Confirm => form.apply(),
            Action::Submit => form.submit(),
            _ => return,
        };
        match outcome {
            FormOutcome::Applied(pairs) => {
                let form = self.form.take();
                if let Err(e) = self.check_and_filter(pairs, None, cx) {
                    // Open again, saying what is wrong.
                    self.form = form;
                    if let Some(form) = &mut self.form {
                        form.error = Some(e);
                    }
                }
            }
            FormOutcome::Cancelled => self.form = None,
            FormOutcome::View(k) => {
                let Some(view) = self.views.get(k).cloned() else {
                    return;
                };
                // Checked before anything is dropped.
                let mut check = IssuesPane::default();
                match check.apply_view(&view) {
                    Ok(()) => {
                        self.form = None;
                        self.change_selection(super::narrow::Pending::View(view), cx);
                    }
                    Err(e) => {
                        if let Some(form) = &mut self.form {
                            form.error = Some(e);
                        }
                    }
                }
            }
            FormOutcome::Open => {}
        }
    }

    /// A reload failed before its first page: the rows loaded before are
    /// shown again, and the status line says so and since when.
    pub(super) fn put_back_kept(&mut self, e: &findings_client::ApiError, outbox: &mut Outbox) {
        let Some(kept) = self.kept.take() else { return };
        let Kept {
            list,
            search,
            listed_states,
            order,
            marked,
            new,
        } = *kept;
        self.list.put_back(list);
        self.search = search;
        self.listed_states = listed_states;
        self.order = order;
        self.marked = marked;
        self.new = new;
        self.typed.clear();
        // A search under way when the reload began left its rows partial.
        if !self.local_query.is_empty() || self.over_target.is_some() || self.new_local {
            self.apply_local_filter();
        }
        let at = self
            .new
            .listed_at
            .map_or_else(String::new, |t| format!(" at {}", t.format("%H:%M UTC")));
        outbox.events.push(message::AppEvent::Error {
            title: "reload failed".into(),
            message: format!(
                "{e}; showing the {} rows loaded{at}",
                findings_base::text::thousands_of(self.list.items.len())
            ),
        });
    }
}
