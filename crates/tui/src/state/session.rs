//! Facts about the connection, for the header, and what the config file
//! asks of the start.

use crate::message::PaneId;
use crate::state::remembered::ProfileStore;
use crate::state::visits::{Visits, VisitsFile};
pub use findings_config::SavedView;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Debug, Clone, Default)]
pub struct Session {
    pub deployment: String,
    /// The deployment's name, when the server named it (it was asked for
    /// by the token).
    pub deployment_name: Option<String>,
    pub base_url: String,
    pub demo: bool,
    pub read_only: bool,
    /// Browsing a snapshot offline (read-only, no network): its saved
    /// time, as the header's badge says it.
    pub offline: Option<findings_model::Timestamp>,
    /// The pane to open on (a profile's `default_pane`).
    pub default_pane: Option<PaneId>,
    /// The Issues pane's first sort and filters (a profile's defaults).
    pub default_view: Option<SavedView>,
    /// Saved views, applied with `:view NAME`.
    pub views: Vec<SavedView>,
    /// Items per page the lists ask for (a profile's `page_size`).
    pub page_size: Option<i64>,
    /// Above this many findings a triage by filter asks a second `y`.
    /// (`None`: the default.)
    pub triage_confirm_above: Option<usize>,
    /// Open-age targets by severity (a profile's `sla_days`).
    pub sla_days: findings_config::SlaDays,
    /// When the findings panes were last seen under this profile: what
    /// came after is marked new.
    pub last_visit: Visits,
    /// Where this visit is recorded when the app ends (none in tests).
    pub visits_file: Option<VisitsFile>,
    /// The config file `:save` writes views into, and the profile whose
    /// views they are (none: the views of every profile).
    pub config_file: Option<std::path::PathBuf>,
    pub profile: Option<String>,
    /// What each pane kept from the last run under this profile, by pane
    /// id ([`Pane::remember`](crate::pane::Pane::remember)).
    pub remembered: BTreeMap<String, serde_json::Value>,
    /// Where the panes' state is remembered when the app ends: the state
    /// folder and the profile's key in its files (none in tests).
    pub remember_in: Option<(PathBuf, String)>,
    /// How far the app's clock is ahead of the machine's: `FINDINGS_NOW`
    /// less the time at start (the demo's `--days-later` data lies ahead),
    /// so ages, periods and spans count to the same day the headless
    /// commands do. Zero without it.
    pub clock_offset: chrono::TimeDelta,
}

impl Session {
    /// What pane `pane` kept from the last run, if it reads as a `T` (a
    /// value this build cannot read is forgotten, not fatal).
    pub fn remembered_by<T: serde::de::DeserializeOwned>(&self, pane: PaneId) -> Option<T> {
        findings_base::json::from_value(self.remembered.get(pane.0)?).ok()
    }

    /// Where pane `pane`'s state is remembered.
    pub fn store_of(&self, pane: PaneId) -> Option<ProfileStore> {
        let (dir, profile) = self.remember_in.as_ref()?;
        Some(ProfileStore::pane(dir, profile, pane))
    }
}
