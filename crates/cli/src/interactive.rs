//! `findings` on a terminal: the TUI, with the user's keymap and theme,
//! the profile's views and the last visits.

use super::Failure;
use super::session::Session;
use super::settings::no_color;
use findings_config::Effective;
use std::path::Path;

/// Connects (or opens `snapshot` offline) and runs the TUI until it ends.
pub(super) async fn run(settings: Effective, snapshot: Option<&Path>) -> Result<(), Failure> {
    // The user's files are checked before anything starts (a demo
    // server, a token command) and before the terminal is taken.
    let keymap = user_keymap()?;
    check_default_pane(&settings)?;
    // FINDINGS_NOW (the demo's `--days-later` line sets it) moves the
    // TUI's clock as it moves the commands'; a bad value stops here.
    let clock_offset =
        findings_requests::clock::now().map_err(Failure::Usage)? - chrono::Utc::now();
    let theme = findings_tui::theme::Theme::chosen(&settings.theme_choice(no_color())?);
    let (session, offline) = match snapshot {
        Some(path) => {
            let opened = super::offline::open(path).await?;
            let saved_at = opened.header.saved_at;
            (opened.session, Some(saved_at))
        }
        None => (
            Session::open_for(&settings, super::session::Audience::Tui).await?,
            None,
        ),
    };
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
    let info = findings_tui::state::session::Session {
        deployment: session.client.deployment().to_owned(),
        deployment_name: session
            .discovered
            .as_ref()
            .and_then(|d| d.shown_name())
            .map(str::to_owned),
        base_url: session.client.base_url().to_owned(),
        demo: session.demo.is_some() && offline.is_none(),
        read_only: settings.read_only.value || offline.is_some(),
        offline,
        default_pane: Some(findings_tui::message::PaneId(settings.default_pane.value)),
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
        clock_offset,
    };
    // A snapshot is no visit of the profile's deployment: nothing of the
    // profile's last visits or panes is read or written.
    let info = if offline.is_some() {
        info
    } else {
        with_visits(info, settings.profile.as_ref().map(|g| g.value.as_str()))
    };
    findings_tui::main(
        session.client.clone(),
        info,
        keymap,
        theme,
        findings_config::state_dir(),
    )
    .await
    .map_err(Failure::Runtime)
}

/// What the session needs for "new since last visit": the profile's last
/// visits from the state folder (the demo and a run without a profile have
/// their own). A damaged file is logged and replaced when the app ends.
fn with_visits(
    mut info: findings_tui::state::session::Session,
    profile: Option<&str>,
) -> findings_tui::state::session::Session {
    use findings_tui::state::visits::VisitsFile;
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
    let panes = findings_tui::panes::names()
        .into_iter()
        .map(|(pane, _)| findings_tui::message::PaneId(pane.as_str()));
    for id in panes.chain([findings_tui::actions::REMEMBERED_AS]) {
        let store = findings_tui::state::remembered::ProfileStore::pane(&dir, &key, id);
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
fn check_default_pane(settings: &Effective) -> Result<(), Failure> {
    let given = &settings.default_pane;
    findings_tui::panes::find(given.value)
        .map(|_| ())
        .map_err(|e| {
            Failure::Usage(format!(
                "config file {}: default_pane = {:?} ({}): {e}",
                settings.config_path.display(),
                given.value,
                given.source,
            ))
        })
}

/// The default keymap with the user's `keymap.toml` (beside the config file)
/// merged over it; a bad file is a usage error naming it.
fn user_keymap() -> Result<findings_tui::keymap::Keymap, Failure> {
    let defaults = findings_tui::keymap::Keymap::default_keymap();
    let Ok(path) = findings_config::keymap_path() else {
        return Ok(defaults);
    };
    let Some(file) =
        findings_config::keymap_file::KeymapFile::read(&path).map_err(Failure::Usage)?
    else {
        return Ok(defaults);
    };
    // The contexts and panes it names are the panes' to say.
    let keymap = defaults.with_overrides(file);
    keymap
        .check(&findings_tui::panes::names())
        .map_err(|e| Failure::Usage(format!("keymap file {}: {e}", path.display())))?;
    Ok(keymap)
}
