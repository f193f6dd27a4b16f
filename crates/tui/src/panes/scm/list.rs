//! The configs of the deployment as listed (`ScmService_ListScmConfig`,
//! docs/src/api.md §15), with the row selected.

use super::{Draft, Slot};
use crate::keymap::Action;
use crate::message::{ApiRequest, ApiResponse, ApiResult, Outbox, RequestId};
use findings_model::{ListScmConfigsRequest, ScmConfig};

/// Where the list is.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Load {
    #[default]
    NotAsked,
    Loading(RequestId),
    Loaded,
    /// Why the list could not be had (what was listed before stays).
    Failed(String),
}

#[derive(Debug, Clone, Default)]
pub struct ConfigList {
    pub configs: Vec<ScmConfig>,
    pub load: Load,
    pub selected: usize,
}

impl ConfigList {
    pub fn selected_config(&self) -> Option<&ScmConfig> {
        self.configs.get(self.selected)
    }

    /// The config `id`, when listed.
    pub fn find(&self, id: &str) -> Option<&ScmConfig> {
        self.configs.iter().find(|c| c.id.as_deref() == Some(id))
    }

    /// Moves the selection by `delta` rows, within the list.
    pub fn step(&mut self, delta: isize) {
        let last = self.configs.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }

    pub fn select_last(&mut self) {
        self.selected = self.configs.len().saturating_sub(1);
    }

    /// A new listing: the selection stays on the same config when it is
    /// still there.
    pub fn replace(&mut self, configs: Vec<ScmConfig>) {
        let id = self.selected_config().and_then(|c| c.id.clone());
        self.configs = configs;
        self.selected = id
            .and_then(|id| self.configs.iter().position(|c| c.id.as_ref() == Some(&id)))
            .unwrap_or(0);
        self.load = Load::Loaded;
    }

    /// The row of `config` becomes what a PATCH returned.
    pub fn update(&mut self, config: &ScmConfig) {
        if let Some(row) = self
            .configs
            .iter_mut()
            .find(|c| c.id.is_some() && c.id == config.id)
        {
            *row = config.clone();
        }
    }

    /// Whether the list is being asked for.
    pub fn is_loading(&self) -> bool {
        matches!(self.load, Load::Loading(_))
    }
}

/// The pane's side of the list: asking for it, taking it, its keys.
impl super::ScmPane {
    /// Asks for the configs (again).
    pub(super) fn load_list(&mut self, outbox: &mut Outbox) {
        if let Load::Loading(id) = self.list.load {
            outbox.cancel(Some(id));
        }
        let request = ApiRequest::ListScmConfigs(ListScmConfigsRequest::default());
        if let Some(id) = outbox.in_slot(Slot::Configs, |o| o.send(request)) {
            self.list.load = Load::Loading(id);
        }
    }
    /// The configs arrived: drafts with nothing changed start from them.
    pub(super) fn listed(&mut self, configs: Vec<ScmConfig>) {
        self.list.replace(configs);
        let list = &self.list;
        let refresh = |d: &mut Draft| {
            if d.changes() == 0
                && let Some(c) = list.find(&d.config_id)
            {
                d.base = Some(c.clone());
            }
        };
        if self.in_flight.is_none() {
            refresh(&mut self.draft);
        }
        self.kept.values_mut().for_each(refresh);
    }
    pub(super) fn list_action(&mut self, action: Action, outbox: &mut Outbox) {
        match action {
            Action::Down => self.list.step(1),
            Action::Up => self.list.step(-1),
            Action::Top => self.list.selected = 0,
            Action::Bottom => self.list.select_last(),
            Action::Refresh => self.load_list(outbox),
            Action::Open => {
                let id = self
                    .list
                    .selected_config()
                    .map(|c| c.id.clone().unwrap_or_default());
                match id {
                    Some(id) if !id.is_empty() => {
                        if let Err(e) = self.set_config_id(&id) {
                            outbox.status(e);
                        }
                    }
                    Some(_) => outbox.status("this config has no id: it cannot be updated"),
                    // Nothing listed: edit a config by its id.
                    None => {
                        let id = self.draft.config_id.clone();
                        if let Err(e) = self.set_config_id(&id) {
                            outbox.status(e);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    /// The answer to the list request.
    pub(super) fn on_list_reply(&mut self, result: ApiResult, outbox: &mut Outbox) {
        match result {
            Ok(ApiResponse::ScmConfigs(configs)) => self.listed(configs),
            Ok(other) => self.list.load = Load::Failed(other.unexpected().to_string()),
            Err(e) => {
                let shown = findings_base::text::one_line(&e.to_string()).into_owned();
                outbox.status(format!(
                    "the SCM configs could not be listed: {shown}; :scm ID edits a config by its id"
                ));
                self.list.load = Load::Failed(shown);
            }
        }
    }
}
