//! `:save NAME`: the Issues pane's filters and sort saved as a view in the
//! config file. The file is written outside `update`, by whoever performs
//! [`Effect::SaveView`](super::Effect::SaveView); the outcome comes back
//! as [`Msg::SavedView`](super::Msg::SavedView).

use super::{App, Effect, Overlay, SavedView};
use crate::config::SavedAt;
use crate::filter_spec::{self, LIST_FILTER};

impl App {
    pub(super) fn save_command(&mut self, args: &[&str]) {
        if let Err(message) = self.save_view(args) {
            self.status = Some(message.clone());
            self.overlay = Some(Overlay::Error {
                title: "Save view".into(),
                message,
            });
        }
    }

    fn save_view(&mut self, args: &[&str]) -> Result<(), String> {
        let [name] = args else {
            return Err("usage: :save NAME (the Issues pane's filters and sort as a view)".into());
        };
        let Some(path) = self.session.config_file.clone() else {
            return Err("no config file to save the view into".into());
        };
        let issues = self.issues();
        let filters: Vec<String> = filter_spec::pairs_of(LIST_FILTER, &issues.selection)
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let view = SavedView {
            name: (*name).to_owned(),
            sort_by: issues.sort_by.clone(),
            direction: issues.sort_direction.clone(),
            filters,
        };
        if view.sort_by.is_none() && view.direction.is_none() && view.filters.is_empty() {
            return Err(
                "nothing to save: the Issues pane has no filters and the default sort".into(),
            );
        }
        self.outbox.effects.push(Effect::SaveView {
            path,
            profile: self.session.profile.clone(),
            view,
        });
        Ok(())
    }

    /// The view is offered (`:view NAME`, the form) once it is in the file.
    pub(super) fn view_saved(&mut self, view: SavedView, result: Result<SavedAt, String>) {
        match result {
            Ok(at) => {
                let name = crate::text::one_line(&view.name).into_owned();
                let views = &mut self.issues_mut().views;
                views.retain(|v| v.name != view.name);
                views.push(view);
                self.status = Some(format!(
                    "saved view {name} as {} in {} (:view {name} applies it)",
                    at.table,
                    crate::text::one_line(&at.path)
                ));
            }
            Err(message) => {
                self.status = Some(message.clone());
                self.overlay = Some(Overlay::Error {
                    title: "Save view".into(),
                    message,
                });
            }
        }
    }
}
