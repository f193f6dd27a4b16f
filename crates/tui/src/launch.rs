//! Starting the TUI from the command line's settings: the user's keymap,
//! theme and default pane checked first, then the session (its views,
//! last visits and remembered selectors) and the loop. The binary hands
//! these to the command line, so that the command line need not depend
//! on (and wait in the build for) this crate.

use crate::keymap::Keymap;
use crate::message::PaneId;
use crate::state::session::Session;
use crate::theme::Theme;
use findings_client::Client;
use findings_config::Effective;

/// The user's keymap and theme, checked before anything starts (a demo
/// server, a token command) and before the terminal is taken.
pub struct Ready {
    keymap: Keymap,
    theme: Theme,
}

/// What the command line connected to (or opened, for a snapshot).
pub struct Connected {
    pub client: Client,
    /// The deployment's name as the server gives it.
    pub deployment_name: Option<String>,
    /// The embedded demo server.
    pub demo: bool,
    /// When the snapshot opened offline was saved.
    pub offline: Option<chrono::DateTime<chrono::Utc>>,
    /// How far FINDINGS_NOW moves the clock.
    pub clock_offset: chrono::TimeDelta,
}

/// Checks the user's files; an error is a usage error naming the file.
pub fn prepare(settings: &Effective, no_color: bool) -> Result<Ready, String> {
    let keymap = user_keymap()?;
    check_default_pane(settings)?;
    let choice = settings.theme_choice(no_color).map_err(|e| e.0)?;
    Ok(Ready {
        keymap,
        theme: Theme::chosen(&choice),
    })
}

/// Runs the TUI until it ends.
pub async fn run(ready: Ready, settings: Effective, connected: Connected) -> Result<(), String> {
    let offline = connected.offline;
    let default_view = (settings.default_sort.is_some()
        || settings.default_direction.is_some()
        || settings.default_filters.is_some())
    .then(|| findings_config::SavedView {
        name: "default".into(),
        sort_by: settings.default_sort.as_ref().map(|g| g.value.clone()),
        direction: settings.default_direction.as_ref().map(|g| g.value.clone()),
        filters: settings
            .default_filters
            .as_ref()
            .map(|g| g.value.clone())
            .unwrap_or_default(),
    });
    let info = Session {
        deployment: connected.client.deployment().to_owned(),
        deployment_name: connected.deployment_name,
        base_url: connected.client.base_url().to_owned(),
        demo: connected.demo && offline.is_none(),
        read_only: settings.read_only.value || offline.is_some(),
        offline,
        default_pane: Some(PaneId(settings.default_pane.value)),
        default_view,
        views: settings.saved_views(),
        page_size: Some(settings.page_size.value),
        triage_confirm_above: Some(settings.triage_confirm_above.value as usize),
        sla_days: settings.sla_days.value,
        last_visit: Default::default(),
        visits_file: None,
        config_file: Some(settings.config_path.clone()),
        profile: settings.profile.as_ref().map(|g| g.value.clone()),
        remembered: Default::default(),
        remember_in: None,
        clock_offset: connected.clock_offset,
    };
    // A snapshot is no visit of the profile's deployment: nothing of the
    // profile's last visits or panes is read or written.
    let info = if offline.is_some() {
        info
    } else {
        with_visits(info, settings.profile.as_ref().map(|g| g.value.as_str()))
    };
    crate::runtime::main(
        connected.client,
        info,
        ready.keymap,
        ready.theme,
        findings_config::state_dir(),
    )
    .await
}

/// What the session needs for "new since last visit": the profile's last
/// visits from the state folder (the demo and a run without a profile have
/// their own). A damaged file is logged and replaced when the app ends.
fn with_visits(mut info: Session, profile: Option<&str>) -> Session {
    use crate::state::visits::VisitsFile;
    let Some(dir) = findings_config::state_dir() else {
        return info;
    };
    // The embedded demo's address changes with every start; a real
    // deployment is told apart by where it is, should a flag point a
    // profile elsewhere.
    let key = if info.demo {
        "(demo)".to_owned()
    } else {
        format!(
            "{} {} deployment {}",
            profile.unwrap_or("(no profile)"),
            info.base_url,
            info.deployment
        )
    };
    let file = VisitsFile::new(&dir, &key);
    match file.load() {
        Ok(visits) => info.last_visit = visits,
        Err(e) => tracing::warn!("{e}"),
    }
    info.visits_file = Some(file);
    // What each pane remembered from the last run (the Report's
    // selectors), and the Act menu (its ticketing instance).
    let panes = crate::panes::names()
        .into_iter()
        .map(|(pane, _)| PaneId(pane.as_str()));
    for id in panes.chain([crate::actions::REMEMBERED_AS]) {
        let store = crate::state::remembered::ProfileStore::pane(&dir, &key, id);
        match store.load() {
            Ok(Some(value)) => {
                info.remembered.insert(id.0.to_owned(), value);
            }
            Ok(None) => {}
            Err(e) => tracing::warn!("{e}"),
        }
    }
    info.remember_in = Some((dir, key));
    info
}

/// A profile's `default_pane` names a pane there is.
fn check_default_pane(settings: &Effective) -> Result<(), String> {
    let given = &settings.default_pane;
    crate::panes::find(given.value).map(|_| ()).map_err(|e| {
        format!(
            "config file {}: default_pane = {:?} ({}): {e}",
            settings.config_path.display(),
            given.value,
            given.source,
        )
    })
}

/// The default keymap with the user's `keymap.toml` (beside the config file)
/// merged over it; a bad file is a usage error naming it.
fn user_keymap() -> Result<Keymap, String> {
    let defaults = Keymap::default_keymap();
    let Ok(path) = findings_config::keymap_path() else {
        return Ok(defaults);
    };
    let Some(file) = findings_config::keymap_file::KeymapFile::read(&path)? else {
        return Ok(defaults);
    };
    // The contexts and panes it names are the panes' to say.
    let keymap = defaults.with_overrides(file);
    keymap
        .check(&crate::panes::names())
        .map_err(|e| format!("keymap file {}: {e}", path.display()))?;
    Ok(keymap)
}

/// How wide the plain-text detail is.
const WIDTH: usize = 100;

/// The detail, every tab, as plain text (made terminal-safe as the TUI
/// draws it): `findings show ID` on a terminal.
pub fn plain_detail(issue: findings_model::Issue) -> String {
    use crate::detail::DetailView;
    use crate::detail::view::tab_lines;
    let theme = Theme::no_color();
    let detail = DetailView::new(issue);
    let mut text = String::new();
    for tab in &detail.tabs {
        text.push_str(&format!("── {} ──\n", tab.title()));
        for line in tab_lines(*tab, &detail.issue, &theme, WIDTH) {
            let shown: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            text.push_str(shown.trim_end());
            text.push('\n');
        }
        text.push('\n');
    }
    text
}
