//! `findings` on a terminal: the TUI, with the user's keymap and theme,
//! the profile's views and the last visits.

use super::Failure;
use super::session::Session;
use super::settings::no_color;
use crate::config::Effective;

/// Connects and runs the TUI until it ends.
pub(super) async fn run(settings: Effective) -> Result<(), Failure> {
    // The user's files are checked before anything starts (a demo
    // server, a token command) and before the terminal is taken.
    let keymap = user_keymap()?;
    let theme = crate::tui::theme::Theme::chosen(&settings.theme_choice(no_color())?);
    let session = Session::open_quiet(&settings, true).await?;
    let default_view = (settings.default_sort.is_some()
        || settings.default_direction.is_some()
        || settings.default_filters.is_some())
    .then(|| crate::config::SavedView {
        name: "default".into(),
        sort_by: settings.default_sort.as_ref().map(|g| g.value.clone()),
        direction: settings.default_direction.as_ref().map(|g| g.value.clone()),
        filters: settings
            .default_filters
            .as_ref()
            .map(|g| g.value.clone())
            .unwrap_or_default(),
    });
    let info = crate::tui::state::session::Session {
        deployment: session.client.deployment().to_owned(),
        deployment_name: session
            .discovered
            .as_ref()
            .and_then(|d| d.shown_name())
            .map(str::to_owned),
        base_url: session.client.base_url().to_owned(),
        demo: session.demo.is_some(),
        read_only: settings.read_only.value,
        default_pane: Some(crate::tui::message::PaneId(settings.default_pane.value)),
        default_view,
        views: settings.saved_views(),
        page_size: Some(settings.page_size.value),
        triage_confirm_above: Some(settings.triage_confirm_above.value as usize),
        last_visit: Default::default(),
        visits_file: None,
        config_file: Some(settings.config_path.clone()),
        profile: settings.profile.as_ref().map(|g| g.value.clone()),
        report_selectors: None,
        report_file: None,
    };
    let info = with_visits(info, settings.profile.as_ref().map(|g| g.value.as_str()));
    crate::tui::main(
        session.client.clone(),
        info,
        keymap,
        theme,
        crate::config::state_dir(),
    )
    .await
    .map_err(Failure::Runtime)
}

/// What the session needs for "new since last visit": the profile's last
/// visits from the state folder (the demo and a run without a profile have
/// their own). A damaged file is logged and replaced when the app ends.
fn with_visits(
    mut info: crate::tui::state::session::Session,
    profile: Option<&str>,
) -> crate::tui::state::session::Session {
    use crate::tui::state::visits::VisitsFile;
    let Some(dir) = crate::config::state_dir() else {
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
    let report = crate::tui::state::remembered::ProfileStore::report(&dir, &key);
    match report.load() {
        Ok(selectors) => info.report_selectors = selectors,
        Err(e) => tracing::warn!("{e}"),
    }
    info.report_file = Some(report);
    info
}

/// The default keymap with the user's `keymap.toml` (beside the config file)
/// merged over it; a bad file is a usage error naming it.
fn user_keymap() -> Result<crate::tui::keymap::Keymap, Failure> {
    let defaults = crate::tui::keymap::Keymap::default_keymap();
    let Ok(path) = crate::config::keymap_path() else {
        return Ok(defaults);
    };
    match crate::config::keymap_file::KeymapFile::read(&path).map_err(Failure::Usage)? {
        Some(file) => Ok(defaults.with_overrides(file)),
        None => Ok(defaults),
    }
}
