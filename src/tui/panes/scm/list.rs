//! The configs of the deployment as listed (`ScmService_ListScmConfig`,
//! docs/api.md §15), with the row selected.

use crate::api::model::ScmConfig;
use crate::tui::message::RequestId;

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
