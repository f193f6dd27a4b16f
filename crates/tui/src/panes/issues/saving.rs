//! `:save NAME`: the pane's filters and sort saved as a view in the config
//! file. The file is written outside `update`, by whoever performs
//! [`Effect::SaveView`]; the outcome comes back addressed to the pane as
//! [`PaneMsg::ViewSaved`](crate::message::PaneMsg::ViewSaved).

use super::{ID, IssuesPane};
use crate::message::{AppEvent, Effect, Outbox};
use findings_config::{SavedAt, SavedView};
use findings_requests::filter_spec::{self, LIST_FILTER};

impl IssuesPane {
    pub(super) fn save_view(&self, args: &[&str], outbox: &mut Outbox) -> Result<(), String> {
        let [name] = args else {
            return Err("usage: :save NAME (the Issues pane's filters and sort as a view)".into());
        };
        let Some(path) = self.config_file.clone() else {
            return Err("no config file to save the view into".into());
        };
        let filters: Vec<String> = filter_spec::pairs_of(LIST_FILTER, &self.selection)
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let view = SavedView {
            name: (*name).to_owned(),
            sort_by: self.sort_by.clone(),
            direction: self.sort_direction.clone(),
            filters,
        };
        if view.sort_by.is_none() && view.direction.is_none() && view.filters.is_empty() {
            return Err(
                "nothing to save: the Issues pane has no filters and the default sort".into(),
            );
        }
        outbox.effects.push(Effect::SaveView {
            pane: ID,
            path,
            profile: self.profile.clone(),
            view,
        });
        Ok(())
    }

    /// The view is offered (`:view NAME`, the form) once it is in the file.
    pub(super) fn view_saved(
        &mut self,
        view: SavedView,
        result: Result<SavedAt, String>,
        outbox: &mut Outbox,
    ) {
        match result {
            Ok(at) => {
                let name = findings_base::text::one_line(&view.name).into_owned();
                self.views.retain(|v| v.name != view.name);
                self.views.push(view);
                outbox.status(format!(
                    "saved view {name} as {} in {} (:view {name} applies it)",
                    at.table,
                    findings_base::text::one_line(&at.path)
                ));
            }
            Err(message) => outbox.events.push(AppEvent::Error {
                title: "Save view".into(),
                message,
            }),
        }
    }
}
