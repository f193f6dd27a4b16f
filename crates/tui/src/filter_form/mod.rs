//! A form over a filter schema: one row per field of the operation's filter
//! object (every field reachable), text for strings, lists (comma separated),
//! times and enums, tri-state (any / true / false) for booleans. While a
//! field is edited, Tab completes its last value from the values it takes
//! (an enum's, or those the server knows for a free field).

pub mod completing;
pub mod view;

use completing::Completing;

use crossterm::event::{KeyCode, KeyEvent};
use findings_requests::filter_spec::{self, Field, FieldKind};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    /// Free text; list fields take comma-separated values.
    Text(String),
    /// `None` = any.
    Tri(Option<bool>),
}

/// What the user did with the form.
#[derive(Debug, Clone, PartialEq)]
pub enum FormOutcome {
    Open,
    Cancelled,
    /// The pairs to build the filter from.
    Applied(Vec<(String, String)>),
    /// Saved view `k` (of those the form was given) was chosen.
    View(usize),
}

#[derive(Debug, Clone)]
pub struct FilterForm {
    pub schema: &'static [Field],
    pub values: Vec<FieldValue>,
    /// Row selected; `schema.len()` is the Apply row, `+1` the Clear row.
    pub selected: usize,
    pub editing: Option<Input>,
    pub error: Option<String>,
    /// Saved views offered below the fields: name and what it sets.
    pub views: Vec<(String, String)>,
    /// The values the server knows for free fields, by field name.
    pub offered: Vec<(&'static str, Vec<String>)>,
    /// Tab's cycle through the candidates.
    completing: Completing,
    /// Reopened from edits left with Esc, not applied (said in the form).
    pub draft: bool,
}

impl FilterForm {
    /// A form showing the filter in force (enum values as typed).
    pub fn new<T: Serialize>(schema: &'static [Field], current: &T) -> Self {
        let set = filter_spec::pairs_of(schema, current);
        let values = schema
            .iter()
            .map(|f| {
                let mine: Vec<&str> = set
                    .iter()
                    .filter(|(k, _)| k == f.name)
                    .map(|(_, v)| v.as_str())
                    .collect();
                match f.kind {
                    FieldKind::Bool => FieldValue::Tri(mine.first().and_then(|v| v.parse().ok())),
                    _ => FieldValue::Text(filter_spec::join_list(&mine)),
                }
            })
            .collect();
        FilterForm {
            schema,
            values,
            selected: 0,
            editing: None,
            error: None,
            views: Vec::new(),
            offered: Vec::new(),
            completing: Completing::default(),
            draft: false,
        }
    }

    /// Offers the known values of free fields (when they arrive).
    pub fn with_offered(mut self, offered: Vec<(&'static str, Vec<String>)>) -> Self {
        self.offered = offered;
        self
    }

    /// What the selected field's last value (after the last comma of a
    /// list) could become, as it is typed now.
    pub fn candidates(&self) -> Vec<String> {
        let Some(field) = self.schema.get(self.selected) else {
            return Vec::new();
        };
        let typed = match &self.editing {
            Some(input) => self.completing.typed(input),
            None => String::new(),
        };
        let partial = Completing::partial(&typed, field.kind.is_list());
        let known = |name: &str| {
            self.offered
                .iter()
                .find(|(f, _)| *f == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        filter_spec::values_for(field, partial, &known)
    }

    /// Tab while editing: the next candidate in place of the last value.
    fn complete(&mut self) {
        let candidates = self.candidates();
        let list = self
            .schema
            .get(self.selected)
            .is_some_and(|f| f.kind.is_list());
        if let Some(input) = &mut self.editing {
            self.completing.tab(input, list, &candidates);
        }
    }

    /// Offers saved views (name, summary) as rows after Clear all.
    pub fn with_views(mut self, views: Vec<(String, String)>) -> Self {
        self.views = views;
        self
    }

    /// Fields, Apply, Clear all, then the saved views.
    pub fn rows(&self) -> usize {
        self.schema.len() + 2 + self.views.len()
    }

    /// The saved view of a row, if it is one.
    pub fn view_of_row(&self, row: usize) -> Option<usize> {
        row.checked_sub(self.schema.len() + 2)
            .filter(|k| *k < self.views.len())
    }

    pub fn is_editing(&self) -> bool {
        self.editing.is_some()
    }

    pub fn next(&mut self) {
        self.selected = (self.selected + 1) % self.rows();
    }

    pub fn prev(&mut self) {
        self.selected = (self.selected + self.rows() - 1) % self.rows();
    }

    /// `g`: the first field.
    pub fn first(&mut self) {
        self.selected = 0;
    }

    /// `G`: the Apply row, so that Enter there applies.
    pub fn last(&mut self) {
        self.selected = self.schema.len();
    }

    /// Whether the fields say something else than `other`'s (the form of
    /// the filter in force): Esc keeps such edits as a draft.
    pub fn differs_from(&self, other: &FilterForm) -> bool {
        self.values != other.values || self.editing.is_some()
    }

    /// The field being typed in keeps what is typed.
    fn keep_typed(&mut self) {
        if let Some(input) = self.editing.take()
            && let Some(FieldValue::Text(t)) = self.values.get_mut(self.selected)
        {
            *t = input.value().to_owned();
        }
        self.completing.reset();
    }

    /// `Ctrl-s`: applies from any field, what is being typed included.
    pub fn apply(&mut self) -> FormOutcome {
        self.keep_typed();
        self.selected = self.schema.len();
        self.submit()
    }

    /// Space: cycles a boolean any → true → false.
    pub fn toggle(&mut self) {
        if let Some(FieldValue::Tri(v)) = self.values.get_mut(self.selected) {
            *v = match v {
                None => Some(true),
                Some(true) => Some(false),
                Some(false) => None,
            };
        }
    }

    pub fn clear_field(&mut self) {
        match self.values.get_mut(self.selected) {
            Some(FieldValue::Tri(v)) => *v = None,
            Some(FieldValue::Text(t)) => t.clear(),
            None => {}
        }
    }

    /// Enter: edits a text field, toggles a boolean, applies/clears, or
    /// picks a saved view.
    pub fn submit(&mut self) -> FormOutcome {
        if let Some(k) = self.view_of_row(self.selected) {
            return FormOutcome::View(k);
        }
        if self.selected == self.schema.len() {
            return match self.pairs() {
                Ok(pairs) => FormOutcome::Applied(pairs),
                Err(e) => {
                    self.error = Some(e);
                    FormOutcome::Open
                }
            };
        }
        if self.selected == self.schema.len() + 1 {
            for v in &mut self.values {
                match v {
                    FieldValue::Text(t) => t.clear(),
                    FieldValue::Tri(b) => *b = None,
                }
            }
            return FormOutcome::Applied(Vec::new());
        }
        match &self.values[self.selected] {
            FieldValue::Text(t) => {
                self.editing = Some(Input::new(t.clone()));
                self.completing.reset();
            }
            FieldValue::Tri(_) => self.toggle(),
        }
        FormOutcome::Open
    }

    /// Keys while a text field is edited: Enter keeps, Esc discards.
    pub fn on_text_key(&mut self, key: KeyEvent) {
        let Some(input) = &mut self.editing else {
            return;
        };
        if key.code == KeyCode::Tab {
            return self.complete();
        }
        self.completing.reset();
        match key.code {
            KeyCode::Enter => {
                let value = input.value().to_owned();
                if let Some(FieldValue::Text(t)) = self.values.get_mut(self.selected) {
                    *t = value;
                }
                self.editing = None;
                self.error = None;
            }
            KeyCode::Esc => self.editing = None,
            _ => {
                input.handle_event(&crossterm::event::Event::Key(key));
            }
        }
    }

    /// The filled fields as `(field, value)` pairs, checked.
    pub fn pairs(&self) -> Result<Vec<(String, String)>, String> {
        let mut pairs = Vec::new();
        for (field, value) in self.schema.iter().zip(&self.values) {
            match value {
                FieldValue::Tri(Some(b)) => pairs.push((field.name.to_owned(), b.to_string())),
                FieldValue::Tri(None) => {}
                FieldValue::Text(t) => {
                    if field.kind.is_list() {
                        for part in filter_spec::split_list(t) {
                            pairs.push((field.name.to_owned(), part));
                        }
                    } else if !t.trim().is_empty() {
                        pairs.push((field.name.to_owned(), t.trim().to_owned()));
                    }
                }
            }
        }
        // Check now, so a mistake is shown in the form, not after sending.
        Ok(pairs)
    }

    /// Builds the filter from the form, or says which field is wrong.
    pub fn build<T: DeserializeOwned>(
        schema: &[Field],
        operation: &str,
        pairs: &[(String, String)],
    ) -> Result<Option<T>, String> {
        filter_spec::build(schema, operation, pairs).map_err(|e| e.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::*;
    use findings_requests::filter_spec::LIST_FILTER;

    #[test]
    fn the_form_shows_and_round_trips_the_filter() {
        let current = ListSelection {
            issue_types: vec![IssueType::Sca],
            filter: ListIssuesFilter {
                repository_names: vec!["a/b".into(), "c/d".into()],
                aggregate_issue_states: vec![
                    AggregateState::Open,
                    AggregateState::ProvisionallyIgnoredApp,
                ],
                include_archived: Some(false),
                ..Default::default()
            },
        };
        let form = FilterForm::new(LIST_FILTER, &current);
        let shown = |name: &str| {
            let k = LIST_FILTER.iter().position(|f| f.name == name).unwrap();
            form.values[k].clone()
        };
        // Enum values show as one types them, not by their wire names.
        assert_eq!(
            shown("aggregateIssueStates"),
            FieldValue::Text("open, provisionally-ignored".into())
        );
        assert_eq!(shown("issueTypes"), FieldValue::Text("sca".into()));
        assert_eq!(shown("includeArchived"), FieldValue::Tri(Some(false)));
        let pairs = form.pairs().unwrap();
        let rebuilt: ListSelection = FilterForm::build(LIST_FILTER, "issues", &pairs)
            .unwrap()
            .unwrap();
        assert_eq!(rebuilt, current);
    }

    #[test]
    fn saved_views_are_rows_after_clear_and_enter_picks_one() {
        let mut form = FilterForm::new(LIST_FILTER, &ListSelection::default()).with_views(vec![
            ("critical".into(), "sort severity".into()),
            ("mine".into(), "repositoryNames=a/b".into()),
        ]);
        assert_eq!(form.rows(), LIST_FILTER.len() + 4);
        // Up from the first field wraps to the last view.
        form.prev();
        assert_eq!(form.view_of_row(form.selected), Some(1));
        assert_eq!(form.submit(), FormOutcome::View(1));
        form.prev();
        assert_eq!(form.submit(), FormOutcome::View(0));
        // Space and Ctrl-r on a view row change nothing.
        let before = form.values.clone();
        form.toggle();
        form.clear_field();
        assert_eq!(form.values, before);
        form.prev();
        assert_eq!(form.view_of_row(form.selected), None, "Clear all");
    }

    #[test]
    fn booleans_cycle_through_three_states() {
        let mut form = FilterForm::new(LIST_FILTER, &ListSelection::default());
        form.selected = LIST_FILTER
            .iter()
            .position(|f| f.name == "excludeHistorical")
            .unwrap();
        form.toggle();
        assert_eq!(form.values[form.selected], FieldValue::Tri(Some(true)));
        form.toggle();
        assert_eq!(form.values[form.selected], FieldValue::Tri(Some(false)));
        form.toggle();
        assert_eq!(form.values[form.selected], FieldValue::Tri(None));
    }
}
