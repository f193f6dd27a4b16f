//! `findings config init` and `show`: the example file, and the settings
//! in force as TOML with where each came from.

use super::ENV_TOKEN;
use super::effective::{Effective, Given, Source, ThemeChoice, TokenSource};
use super::file::ProfileToken;
use std::fmt;

/// What `findings config init` writes: every setting, commented out, so the
/// file changes nothing until edited.
pub const EXAMPLE: &str = r#"# findings configuration (TOML).
#
# Precedence: command-line flags > environment (FINDINGS_BASE_URL,
# FINDINGS_DEPLOYMENT, FINDINGS_TOKEN, FINDINGS_PROFILE, FINDINGS_TIMEOUT,
# FINDINGS_CONNECT_TIMEOUT, FINDINGS_NO_PROGRESS, FINDINGS_READ_ONLY) > the
# profile in use > defaults. With no base URL from any source, findings uses its embedded demo
# server. `findings config show` prints what is in force.

# The profile used when neither --profile nor FINDINGS_PROFILE names one.
# default_profile = "work"

# The TUI's colours: default, dark, light or high-contrast (--theme and
# FINDINGS_THEME win over this, and a profile may set its own). A theme file,
# theme.toml beside this file or the one theme_file names, changes single
# styles (see docs/src/configuration.md, "Themes"). NO_COLOR=1 turns every
# colour off.
# theme = "light"
# theme_file = "~/.config/findings/theme.toml"

# [profiles.work]
# base_url = "https://findings.example.com"
# deployment = 4711
#
# The token: FINDINGS_TOKEN wins over these. Set at most one of the three.
# A command whose first line of output is the token (run with sh -c, no stdin):
# token_command = "pass show findings/work"
# Or a file holding it (must not be readable by others: chmod 600 FILE):
# token_file = "~/.config/findings/work.token"
# Or the token itself (this file must then be chmod 600):
# token = "..."
#
# Page size of the TUI's lists, and of a headless command's single page (no
# --limit, --all or --max; --all and --max ask pages of 1000) (1-1000).
# page_size = 200
# Above this many findings, :triage-all asks for a second y, and a headless
# triage by filter or of ids from stdin takes --yes only with --count N (default 50).
# triage_confirm_above = 50
# Open-age targets: days a finding of each severity may stay open (the
# Report's open age marks medians over them) (defaults shown).
# sla_days = { critical = 7, high = 30, medium = 90, low = 180 }
# The pane the TUI opens on: report, issues, agentic or scm.
# default_pane = "issues"
# The Issues pane's first sort and filters (as `:sort` and `:filter` take them).
# default_sort = "severity"
# default_direction = "desc"
# default_filters = ["excludeHistorical=true"]
# Refuse every write (SCM config updates, triage), as --read-only does.
# read_only = true
# Allow plain http:// to a host other than this machine, as --allow-http does
# (the token then crosses the network unencrypted; loopback needs no leave).
# allow_http = false
# This profile's theme (beats the top-level one).
# theme = "high-contrast"
# Seconds to wait for a connection (1-600) and for a whole answer (1-3600);
# --connect-timeout and --timeout, or FINDINGS_CONNECT_TIMEOUT and
# FINDINGS_TIMEOUT, win over these (defaults shown).
# connect_timeout = 10
# timeout = 30
# Progress lines on stderr for a step over a second. They show only for a
# person: on a terminal, with CI unset and TERM not dumb; false turns them
# off, as -q and FINDINGS_NO_PROGRESS=1 do.
# progress = true
# The policy of `findings gate` where the repository has no .findings/gate.toml
# (every key of that file, as a table: docs/src/ci.md, "The policy").
# gate = { severities = ["critical", "high"], handled = ["ignored"] }

# Saved views of the Issues pane, applied with `:view NAME`. A view in a
# profile (profiles.NAME.views.VIEW) belongs to it; views.VIEW to all.
# [views.secrets]
# pane = "issues"        # optional: views are the Issues pane's
# sort = "severity"
# direction = "desc"
# filters = ["issueTypes=secrets", "excludeHistorical=true"]
#
# [profiles.work.views.payments]
# sort = "severity"
# filters = ["repositoryNames=acme/payments-api", "repositoryNames=acme/payments-web"]
"#;

/// `findings config show`: the settings in force, secrets masked, each
/// with where it came from. With `theme`, the theme as the TUI would draw
/// with it (the theme file read); without, as the settings name it.
pub fn show(e: &Effective, theme: Option<&ThemeChoice>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# config file: {}{}",
        e.config_path.display(),
        if e.config_exists {
            ""
        } else {
            " (does not exist)"
        }
    );
    show_connection(&mut out, e);
    show_token(&mut out, e);
    show_preferences(&mut out, e);
    show_theme(&mut out, e, theme);
    show_views(&mut out, e);
    out
}

/// One setting: `key = value`, its source as a comment in a column.
fn line(out: &mut String, key: &str, value: String, source: &dyn fmt::Display) {
    use std::fmt::Write;
    let _ = writeln!(out, "{:<40} # {source}", format!("{key} = {value}"));
}

/// The profile, the server and the deployment.
fn show_connection(out: &mut String, e: &Effective) {
    use std::fmt::Write;
    let q = |s: &str| toml_string(s);
    match &e.profile {
        Some(p) => line(out, "profile", q(&p.value), &p.source),
        None => {
            let _ = writeln!(out, "# profile: none");
        }
    }
    match &e.base_url {
        // A password in the URL (refused when used) is never printed.
        Some(g) => line(
            out,
            "base_url",
            q(&findings_base::redact::mask_url_credentials(&g.value)),
            &g.source,
        ),
        None => {
            let _ = writeln!(
                out,
                "# base_url: none (the embedded demo server only when nothing else is configured and a person is at a terminal; base_url = \"demo\" asks for it)"
            );
        }
    }
    match &e.deployment {
        Some(g) => line(out, "deployment", q(&g.value), &g.source),
        None if e.base_url.is_some() => {
            let _ = writeln!(
                out,
                "# deployment: none (the token's deployment is asked of the server)"
            );
        }
        None => {
            let _ = writeln!(out, "# deployment: none");
        }
    }
}

/// Where the token comes from, never the token itself.
fn show_token(out: &mut String, e: &Effective) {
    use std::fmt::Write;
    let q = |s: &str| toml_string(s);
    match &e.token {
        TokenSource::Env(_) => line(out, "token", q("***"), &ENV_TOKEN),
        TokenSource::Profile { profile, token } => {
            let src = Source::Profile(profile.clone());
            match token {
                ProfileToken::Literal(_) => line(out, "token", q("***"), &src),
                ProfileToken::File(p) => line(out, "token_file", q(p), &src),
                ProfileToken::Command(c) => line(
                    out,
                    "token_command",
                    q(c),
                    &format!("{src} (not run by show)"),
                ),
            }
        }
        TokenSource::Withheld {
            profile,
            profile_url,
        } => {
            let _ = writeln!(
                out,
                "# token: none (profile {profile}'s token is only sent to {profile_url})"
            );
        }
        TokenSource::None if e.token_key().is_some() => {
            let _ = writeln!(
                out,
                "# token: the one findings auth login stored, if any (findings auth status says)"
            );
        }
        TokenSource::None => {
            let _ = writeln!(out, "# token: none");
        }
    }
}

/// The listing's defaults, the safety switches and the timeouts.
fn show_preferences(out: &mut String, e: &Effective) {
    let q = |s: &str| toml_string(s);
    line(
        out,
        "page_size",
        e.page_size.value.to_string(),
        &e.page_size.source,
    );
    line(
        out,
        "triage_confirm_above",
        e.triage_confirm_above.value.to_string(),
        &e.triage_confirm_above.source,
    );
    line(
        out,
        "sla_days",
        e.sla_days.value.shown(),
        &e.sla_days.source,
    );
    line(
        out,
        "default_pane",
        q(e.default_pane.value),
        &e.default_pane.source,
    );
    if let Some(s) = &e.default_sort {
        line(out, "default_sort", q(s.value.label()), &s.source);
    }
    if let Some(d) = &e.default_direction {
        line(out, "default_direction", q(d.value.label()), &d.source);
    }
    if let Some(f) = &e.default_filters {
        line(out, "default_filters", toml_list(&f.value), &f.source);
    }
    line(
        out,
        "read_only",
        e.read_only.value.to_string(),
        &e.read_only.source,
    );
    line(
        out,
        "allow_http",
        e.allow_http.value.to_string(),
        &e.allow_http.source,
    );
    line(
        out,
        "connect_timeout",
        e.connect_timeout.as_secs().to_string(),
        &e.timeout_sources.0,
    );
    line(
        out,
        "timeout",
        e.request_timeout.as_secs().to_string(),
        &e.timeout_sources.1,
    );
    line(
        out,
        "progress",
        e.progress.value.to_string(),
        &e.progress.source,
    );
}

/// The theme's name and file; with `theme`, what the file sets and
/// whether `NO_COLOR` overrides it.
fn show_theme(out: &mut String, e: &Effective, theme: Option<&ThemeChoice>) {
    use std::fmt::Write;
    let q = |s: &str| toml_string(s);
    let default_theme = Given::new("default".to_owned(), Source::Default);
    let name = theme
        .map(|t| &t.name)
        .or(e.theme.as_ref())
        .unwrap_or(&default_theme);
    line(out, "theme", q(&name.value), &name.source);
    let file_note = match theme {
        None => format!("{}", e.theme_file.source),
        Some(ThemeChoice { file: None, .. }) => format!("{} (not there)", e.theme_file.source),
        Some(ThemeChoice {
            file: Some(file), ..
        }) => {
            let roles: Vec<&str> = file.roles().iter().map(|r| r.name()).collect();
            if roles.is_empty() {
                format!("{} (sets no styles)", e.theme_file.source)
            } else {
                format!("{} (sets {})", e.theme_file.source, roles.join(", "))
            }
        }
    };
    line(
        out,
        "theme_file",
        q(&e.theme_file.value.display().to_string()),
        &file_note,
    );
    if theme.is_some_and(|t| t.no_color) {
        let _ = writeln!(
            out,
            "# NO_COLOR is set: no colours, whatever the theme (bold, dim, reverse and underline only)"
        );
    }
}

/// The saved views, one `[views.NAME]` table each.
fn show_views(out: &mut String, e: &Effective) {
    use std::fmt::Write;
    let q = |s: &str| toml_string(s);
    for (name, v) in &e.views {
        let _ = writeln!(out, "\n[views.{}]  # {}", toml_key(name), v.source);
        if let Some(s) = &v.value.sort_by {
            let _ = writeln!(out, "sort = {}", q(s.label()));
        }
        if let Some(d) = &v.value.direction {
            let _ = writeln!(out, "direction = {}", q(d.label()));
        }
        if !v.value.filters.is_empty() {
            let _ = writeln!(out, "filters = {}", toml_list(&v.value.filters));
        }
    }
}

fn toml_string(s: &str) -> String {
    toml::Value::String(findings_base::text::one_line(s).into_owned()).to_string()
}

fn toml_list(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| toml_string(s)).collect();
    format!("[{}]", parts.join(", "))
}

fn toml_key(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        s.to_owned()
    } else {
        toml_string(s)
    }
}
