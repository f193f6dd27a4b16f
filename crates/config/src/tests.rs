//! The configuration as a whole: the file's checks, precedence, `config
//! show`, tokens.

use super::effective::TokenSource;
use super::paths::expand_path;
use super::theme_file::{BuiltinTheme, Colour, Role, StyleSpec};
use super::token::shell_quote;
use super::*;
use findings_base::token::Token;
use findings_model::SortBy;
use std::path::{Path, PathBuf};
use std::time::Duration;

// ---- the file ----

fn path() -> PathBuf {
    PathBuf::from("/cfg/findings/config.toml")
}

fn parse_ok(text: &str) -> ConfigFile {
    parse(&path(), text).unwrap_or_else(|e| panic!("{}", e.0))
}

fn parse_err(text: &str) -> String {
    parse(&path(), text).unwrap_err().0
}

#[test]
fn the_example_parses_commented_and_uncommented() {
    let file = parse_ok(EXAMPLE);
    assert!(file.profiles.is_empty() && file.default_profile.is_none());
    // Uncomment every setting and table header: still a valid file.
    let uncommented: String = EXAMPLE
        .lines()
        .map(|l| match l.strip_prefix("# ") {
            Some(rest)
                if rest.starts_with('[')
                    || rest.split_once(" = ").is_some_and(|(k, _)| {
                        k.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                    }) =>
            {
                rest
            }
            _ => l,
        })
        .filter(|l| !l.starts_with("token = ") && !l.starts_with("token_file = "))
        .collect::<Vec<_>>()
        .join("\n");
    let file = parse_ok(&uncommented);
    let work = &file.profiles["work"];
    assert_eq!(file.default_profile.as_deref(), Some("work"));
    assert_eq!(work.deployment.as_deref(), Some("4711"));
    assert_eq!(work.page_size, Some(200));
    assert_eq!(
        work.token,
        Some(ProfileToken::Command("pass show findings/work".into()))
    );
    assert_eq!(work.views["payments"].sort_by, Some(SortBy::Severity));
    assert_eq!(file.views["secrets"].filters.len(), 2);
    assert_eq!(file.theme, Some(ThemeName("light".into())));
    assert_eq!(work.theme, Some(ThemeName("high-contrast".into())));
    assert!(file.theme_file.is_some());
}

#[test]
fn errors_name_the_file_the_line_and_the_key() {
    let err = parse_err("[profiles.work]\nbase_url = \"https://x\"\npage_size = 5000\n");
    assert!(err.contains("/cfg/findings/config.toml"), "{err}");
    assert!(err.contains("line 3"), "{err}");
    assert!(err.contains("profiles.work.page_size"), "{err}");
    assert!(err.contains("1 to 1000"), "{err}");

    let err = parse_err("[profiles.work]\n\nbase_ur = \"https://x\"\n");
    assert!(err.contains("line 3"), "{err}");
    assert!(err.contains("base_ur"), "{err}");
    assert!(err.contains("base_url"), "{err}: the valid keys are named");

    let err = parse_err("colour = \"red\"\n");
    assert!(err.contains("line 1") && err.contains("colour"), "{err}");

    let err = parse_err("[profiles.work]\ndeployment = \"abc\"\n");
    assert!(err.contains("line 2") && err.contains("numeric"), "{err}");

    // Which panes there are is checked where the TUI starts (the panes
    // declare their names); what cannot be a name is refused here.
    let err = parse_err("[profiles.work]\ndefault_pane = \"dash board\"\n");
    assert!(
        err.contains("profiles.work.default_pane") && err.contains("not a pane name"),
        "{err}"
    );

    let err = parse_err("[profiles.work]\nsla_days = { critical = 0 }\n");
    assert!(
        err.contains("sla_days.critical must be at least 1 day"),
        "{err}"
    );
    let err = parse_err("[profiles.work]\nsla_days = { urgent = 3 }\n");
    assert!(err.contains("urgent") && err.contains("critical"), "{err}");

    let err = parse_err("[profiles.work]\ndefault_sort = \"size\"\n");
    assert!(err.contains("relevant-since"), "{err}");

    let err = parse_err("[profiles.w]\ndefault_filters = [\"colour=red\"]\n");
    assert!(err.contains("line 2") && err.contains("colour"), "{err}");
    assert!(err.contains("repositoryNames"), "{err}: valid fields named");

    let err = parse_err("[views.v]\nfilters = [\"issueTypes=urgent\"]\n");
    assert!(
        err.contains("views.v.filters") && err.contains("urgent"),
        "{err}"
    );

    let err = parse_err("[views.v]\npane = \"scm\"\nsort = \"severity\"\n");
    assert!(err.contains("issues pane"), "{err}");

    // A syntax error: the line, and the key written on it, never the
    // value.
    let err = parse_err("default_profile = \n");
    assert!(err.contains("line 1, key default_profile"), "{err}");
    let err = parse_err("[profiles.w]\nbase_url = \"https://x\"\ntoken = s3cr3t\n");
    assert!(err.contains("line 3, key profiles.w.token"), "{err}");
    assert!(!err.contains("s3cr3t"), "{err}");
    let err = parse_err("[profiles.w\n");
    assert!(err.contains("line 1") && !err.contains("key"), "{err}");

    let err = parse_err("default_profile = \"nope\"\n[profiles.work]\n");
    assert!(err.contains("line 1") && err.contains("\"work\""), "{err}");
}

#[test]
fn one_token_source_per_profile() {
    let err = parse_err("[profiles.w]\ntoken_command = \"x\"\ntoken_file = \"y\"\n");
    assert!(err.contains("token_file and token_command"), "{err}");
    assert!(err.contains("profiles.w"), "{err}");
    let err = parse_err("[profiles.w]\ntoken_command = \"  \"\n");
    assert!(err.contains("empty"), "{err}");
}

#[test]
fn a_literal_token_is_masked_in_debug() {
    let file = parse_ok("[profiles.w]\ntoken = \"s3cr3t\"\n");
    let debug = format!("{file:?}");
    assert!(!debug.contains("s3cr3t"), "{debug}");
}

// ---- precedence ----

const FILE: &str = r#"
default_profile = "work"
[profiles.work]
base_url = "https://work.example.com"
deployment = 11
token_command = "echo from-command"
page_size = 250
triage_confirm_above = 10
sla_days = { critical = 3, low = 365 }
default_pane = "report"
default_sort = "severity"
read_only = true
[profiles.work.views.mine]
sort = "rule"
[profiles.other]
base_url = "https://other.example.com"
deployment = "22"
token = "literal"
[views.mine]
sort = "repo"
[views.all]
filters = ["excludeHistorical=true"]
"#;

fn loaded() -> Loaded {
    Loaded {
        path: path(),
        file: parse_ok(FILE),
    }
}

fn cli() -> CommandLine {
    CommandLine::default()
}

fn given(v: &str, s: Source) -> Option<Given<String>> {
    Some(Given::new(v.to_owned(), s))
}

#[test]
fn defaults_without_a_file() {
    let e = effective(cli(), None, path(), None).unwrap();
    assert!(e.base_url.is_none() && e.profile.is_none());
    assert_eq!(e.page_size, Given::new(100, Source::Default));
    assert_eq!(e.triage_confirm_above, Given::new(50, Source::Default));
    assert_eq!(e.default_pane.value, "issues");
    assert_eq!(e.page_size_override(), None);
    assert!(matches!(
        e.target(),
        Ok(Target::Demo(DemoWhy::NothingConfigured))
    ));
    assert_eq!(e.token, TokenSource::None);
}

#[test]
fn the_default_profile_applies_below_flags_and_env() {
    let e = effective(cli(), None, path(), Some(&loaded())).unwrap();
    assert_eq!(e.profile, given("work", Source::File));
    assert_eq!(
        e.base_url,
        given("https://work.example.com", Source::Profile("work".into()))
    );
    assert_eq!(e.deployment.as_ref().unwrap().value, "11");
    assert_eq!(e.page_size.value, 250);
    assert_eq!(e.page_size_override(), Some(250));
    assert_eq!(e.triage_confirm_above.value, 10);
    // A target not given keeps ours.
    assert_eq!(e.sla_days.value.most_severe_first(), [3, 30, 90, 365]);
    assert_eq!(e.default_pane.value, "report");
    assert_eq!(e.default_sort.as_ref().unwrap().value, SortBy::Severity);
    assert!(e.read_only.value);
    // A profile's view replaces the top-level one of the same name.
    assert_eq!(e.views["mine"].value.sort_by, Some(SortBy::Rule));
    assert_eq!(e.views["mine"].value.name, "mine");
    let names: Vec<String> = e.saved_views().into_iter().map(|v| v.name).collect();
    assert_eq!(names, ["all", "mine"]);
    assert_eq!(e.views["all"].source, Source::File);
    match e.target().unwrap() {
        Target::Remote(cfg) => {
            assert_eq!(cfg.token.expose(), "from-command");
            assert_eq!(cfg.deployment, "11");
        }
        other => panic!("the profile has a base URL and a deployment: {other:?}"),
    }

    // The environment beats the profile, a flag beats both (clap has
    // already merged the flag with its env twin into one value).
    let mut c = cli();
    c.deployment = given("33", Source::Env(ENV_DEPLOYMENT));
    let e = effective(c.clone(), None, path(), Some(&loaded())).unwrap();
    assert_eq!(e.deployment, given("33", Source::Env(ENV_DEPLOYMENT)));
    c.deployment = given("44", Source::Flag("--deployment"));
    let e = effective(c, None, path(), Some(&loaded())).unwrap();
    assert_eq!(e.deployment, given("44", Source::Flag("--deployment")));
}

/// The deployment is asked of the server only when no flag, environment
/// or profile gives one; any of them is used as is, without a lookup.
#[test]
fn a_deployment_given_anywhere_beats_the_lookup() {
    let deployment_of = |e: &Effective| match e.target().unwrap() {
        Target::Remote(cfg) => Some(cfg.deployment),
        Target::Discover(cfg) => {
            assert_eq!(cfg.deployment, "");
            None
        }
        Target::Demo(_) => panic!("a base URL is set"),
    };
    let token = || Some(Token::new("t"));
    // No file: a base URL and a token, no deployment: looked up.
    let mut c = cli();
    c.base_url = given("https://x.example.com", Source::Env(ENV_BASE_URL));
    let e = effective(c.clone(), token(), path(), None).unwrap();
    assert_eq!(deployment_of(&e), None);
    // The environment, or the flag, gives one: no lookup.
    c.deployment = given("55", Source::Env(ENV_DEPLOYMENT));
    let e = effective(c.clone(), token(), path(), None).unwrap();
    assert_eq!(deployment_of(&e).as_deref(), Some("55"));
    c.deployment = given("66", Source::Flag("--deployment"));
    let e = effective(c, token(), path(), None).unwrap();
    assert_eq!(deployment_of(&e).as_deref(), Some("66"));
    // A profile's deployment: no lookup; a flag still beats it.
    let e = effective(cli(), token(), path(), Some(&loaded())).unwrap();
    assert_eq!(deployment_of(&e).as_deref(), Some("11"));
    let mut c = cli();
    c.deployment = given("77", Source::Flag("--deployment"));
    let e = effective(c, token(), path(), Some(&loaded())).unwrap();
    assert_eq!(deployment_of(&e).as_deref(), Some("77"));
    // A profile without one: looked up, with the profile's token.
    let file = Loaded {
        path: path(),
        file: parse_ok(
            "default_profile = \"p\"\n[profiles.p]\nbase_url = \"https://p.example.com\"\ntoken = \"pt\"\n",
        ),
    };
    let e = effective(cli(), None, path(), Some(&file)).unwrap();
    match e.target().unwrap() {
        Target::Discover(cfg) => assert_eq!(cfg.token.expose(), "pt"),
        other => panic!("{other:?}"),
    }
    let shown = show(&e, None);
    assert!(
        shown.contains("# deployment: none (the token's deployment is asked of the server)"),
        "{shown}"
    );
}

#[test]
fn the_profile_flag_picks_another_profile() {
    let mut c = cli();
    c.profile = given("other", Source::Flag("--profile"));
    let e = effective(c, None, path(), Some(&loaded())).unwrap();
    assert_eq!(
        e.base_url.as_ref().unwrap().value,
        "https://other.example.com"
    );
    assert_eq!(e.page_size.source, Source::Default);
    assert!(!e.read_only.value);
    assert_eq!(e.views["mine"].value.sort_by, Some(SortBy::Repo));
    match e.target().unwrap() {
        Target::Remote(cfg) => assert_eq!(cfg.token.expose(), "literal"),
        other => panic!("{other:?}"),
    }
    let mut c = cli();
    c.profile = given("nope", Source::Flag("--profile"));
    let err = effective(c, None, path(), Some(&loaded())).unwrap_err().0;
    assert!(
        err.contains("\"nope\"") && err.contains("\"other\""),
        "{err}"
    );
}

#[test]
fn the_env_token_beats_the_profile_token() {
    let e = effective(
        cli(),
        Some(Token::new("env-token")),
        path(),
        Some(&loaded()),
    )
    .unwrap();
    assert!(matches!(e.token, TokenSource::Env(_)));
    match e.target().unwrap() {
        Target::Remote(cfg) => assert_eq!(cfg.token.expose(), "env-token"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_profile_token_is_not_sent_to_another_server() {
    let mut c = cli();
    c.base_url = given("https://elsewhere.example.com", Source::Env(ENV_BASE_URL));
    let e = effective(c.clone(), None, path(), Some(&loaded())).unwrap();
    assert!(matches!(e.token, TokenSource::Withheld { .. }));
    let err = e.target().unwrap_err().0;
    assert!(
        err.contains(ENV_TOKEN) && err.contains("elsewhere"),
        "{err}"
    );
    // The same server, written with a trailing slash, keeps it.
    c.base_url = given("https://work.example.com/", Source::Flag("--base-url"));
    let e = effective(c, None, path(), Some(&loaded())).unwrap();
    assert!(matches!(e.token, TokenSource::Profile { .. }));
}

#[test]
fn flags_turn_on_what_the_profile_leaves_off() {
    let mut c = cli();
    c.profile = given("other", Source::Flag("--profile"));
    c.read_only = Some(Source::Flag("--read-only"));
    let e = effective(c, None, path(), Some(&loaded())).unwrap();
    assert_eq!(e.read_only, Given::new(true, Source::Flag("--read-only")));
}

#[test]
fn a_profile_without_a_file_is_an_error() {
    let mut c = cli();
    c.profile = given("work", Source::Env(ENV_PROFILE));
    let err = effective(c, None, path(), None).unwrap_err().0;
    assert!(err.contains("config init"), "{err}");
}

#[test]
fn show_masks_the_token() {
    let mut c = cli();
    c.profile = given("other", Source::Flag("--profile"));
    let e = effective(c, None, path(), Some(&loaded())).unwrap();
    let out = show(&e, None);
    assert!(!out.contains("literal"), "{out}");
    assert!(out.contains("token = \"***\""), "{out}");
    assert!(out.contains("profile other"), "{out}");
    let e = effective(
        cli(),
        Some(Token::new("env-secret")),
        path(),
        Some(&loaded()),
    )
    .unwrap();
    let out = show(&e, None);
    assert!(
        !out.contains("env-secret") && out.contains(ENV_TOKEN),
        "{out}"
    );
}

#[test]
fn the_theme_takes_flag_env_profile_and_file_in_that_order() {
    let text = "theme = \"dark\"\ndefault_profile = \"w\"\n[profiles.w]\ntheme = \"light\"\n[profiles.plain]\n";
    let loaded = Loaded {
        path: path(),
        file: parse_ok(text),
    };
    let e = effective(cli(), None, path(), Some(&loaded)).unwrap();
    assert_eq!(e.theme, given("light", Source::Profile("w".into())));
    let mut c = cli();
    c.profile = given("plain", Source::Flag("--profile"));
    let e = effective(c.clone(), None, path(), Some(&loaded)).unwrap();
    assert_eq!(e.theme, given("dark", Source::File));
    c.theme = given("high-contrast", Source::Env(ENV_THEME));
    let e = effective(c, None, path(), Some(&loaded)).unwrap();
    assert_eq!(e.theme, given("high-contrast", Source::Env(ENV_THEME)));
    let e = effective(cli(), None, path(), None).unwrap();
    assert_eq!(e.theme, None);
    assert_eq!(
        e.theme_file,
        Given::new(PathBuf::from("/cfg/findings/theme.toml"), Source::Default)
    );
    let loaded = Loaded {
        path: path(),
        file: parse_ok("theme_file = \"t/mine.toml\"\n"),
    };
    let e = effective(cli(), None, path(), Some(&loaded)).unwrap();
    assert_eq!(
        e.theme_file,
        Given::new(PathBuf::from("/cfg/findings/t/mine.toml"), Source::File)
    );
    let err = parse_err("[profiles.w]\n\ntheme = \"sepia\"\n");
    assert!(
        err.contains("line 3, key profiles.w.theme") && err.contains("high-contrast"),
        "{err}"
    );
}

#[test]
fn the_theme_choice_reads_the_theme_file_and_checks_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    let theme_file = dir.path().join("theme.toml");
    let e = effective(cli(), None, config.clone(), None).unwrap();
    let choice = e.theme_choice(false).unwrap();
    assert_eq!(choice.name, Given::new("default".into(), Source::Default));
    assert!(choice.file.is_none());
    assert!(show(&e, Some(&choice)).contains("default (not there)"));

    std::fs::write(
        &theme_file,
        "base = \"light\"\n[styles]\nselected = { fg = \"black\", bg = \"#ffd700\" }\n",
    )
    .unwrap();
    let gold = vec![(
        Role::Selected,
        StyleSpec {
            fg: Some(Colour::Black),
            bg: Some(Colour::Rgb(255, 215, 0)),
            modifiers: vec![],
        },
    )];
    let choice = e.theme_choice(false).unwrap();
    assert_eq!(choice.name, Given::new("light".into(), Source::ThemeFile));
    assert_eq!(choice.builtin, BuiltinTheme::Light);
    assert_eq!(choice.file.as_ref().unwrap().styles, gold);
    assert!(!choice.no_color);
    let out = show(&e, Some(&choice));
    assert!(out.contains("base of the theme file"), "{out}");
    assert!(out.contains("(sets selected)"), "{out}");
    assert!(!out.contains("NO_COLOR"), "{out}");

    // A named theme beats the file's base; the file's styles still apply.
    let mut c = cli();
    c.theme = given("dark", Source::Flag("--theme"));
    let e = effective(c.clone(), None, config.clone(), None).unwrap();
    let choice = e.theme_choice(false).unwrap();
    assert_eq!(choice.name.value, "dark");
    assert_eq!(choice.builtin, BuiltinTheme::Dark);
    assert_eq!(choice.file.as_ref().unwrap().styles, gold);
    // NO_COLOR over both (the TUI draws without colours).
    let choice = e.theme_choice(true).unwrap();
    assert!(choice.no_color);
    assert!(show(&e, Some(&choice)).contains("NO_COLOR is set"));

    c.theme = given("sepia", Source::Env(ENV_THEME));
    let e = effective(c, None, config.clone(), None).unwrap();
    let err = e.theme_choice(true).unwrap_err().0;
    assert!(
        err.starts_with("FINDINGS_THEME: unknown theme \"sepia\""),
        "{err}"
    );

    std::fs::write(&theme_file, "[styles]\nkey = { fg = \"nope\" }\n").unwrap();
    let e = effective(cli(), None, config, None).unwrap();
    let err = e.theme_choice(false).unwrap_err().0;
    assert!(
        err.contains("line 2, key styles.key.fg") && err.contains("theme.toml"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn token_command_output_is_trimmed_and_failures_named() {
    let t = run_token_command(
        "printf '  tok-123  \\nsecond line\\n'",
        TOKEN_COMMAND_TIMEOUT,
    )
    .unwrap();
    assert_eq!(t.expose(), "tok-123");
    let err = run_token_command("echo leaked; exit 3", TOKEN_COMMAND_TIMEOUT).unwrap_err();
    assert!(err.contains("exit status: 3"), "{err}");
    assert!(!err.contains("leaked"), "{err}");
    let err = run_token_command("true", TOKEN_COMMAND_TIMEOUT).unwrap_err();
    assert!(err.contains("printed nothing"), "{err}");
    let err = run_token_command("sleep 5", Duration::from_millis(200)).unwrap_err();
    assert!(err.contains("did not finish"), "{err}");
    // No stdin: a command that reads it sees its end at once.
    let err = run_token_command("cat", TOKEN_COMMAND_TIMEOUT).unwrap_err();
    assert!(err.contains("printed nothing"), "{err}");
}

#[test]
fn paths_expand_from_home_and_the_config_folder() {
    let dir = Path::new("/cfg/findings");
    assert_eq!(expand_path("tok", dir), PathBuf::from("/cfg/findings/tok"));
    assert_eq!(expand_path("/abs/tok", dir), PathBuf::from("/abs/tok"));
    if let Some(home) = directories::BaseDirs::new() {
        assert_eq!(expand_path("~/t", dir), home.home_dir().join("t"));
    }
    assert_eq!(shell_quote("/a b/c"), "'/a b/c'");
    assert_eq!(shell_quote("/a/c.toml"), "/a/c.toml");
}

/// A config file (or token file) written with `mode`, owned by `uid` when
/// given.
#[cfg(unix)]
fn file_with(dir: &Path, name: &str, text: &str, mode: u32, uid: Option<u32>) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    if let Some(uid) = uid {
        std::os::unix::fs::chown(&path, Some(uid), None).unwrap();
    }
    path
}

/// A uid that is neither ours nor root's, when we may give a file to it
/// (only root may).
#[cfg(unix)]
fn another_uid() -> Option<u32> {
    (findings_base::sys::effective_uid() == 0).then_some(54_321)
}

#[cfg(unix)]
#[test]
fn a_config_naming_a_command_or_token_file_is_refused_when_others_can_change_it() {
    let dir = tempfile::tempdir().unwrap();
    let configs = [
        (
            "token_command",
            "[profiles.p]\ntoken_command = \"pass show findings\"\n",
        ),
        ("token_file", "[profiles.p]\ntoken_file = \"p.token\"\n"),
    ];
    for (key, text) in configs {
        for mode in [0o666, 0o660, 0o620, 0o602, 0o664, 0o646] {
            let path = file_with(dir.path(), "config.toml", text, mode, None);
            let err = file::load(&path).unwrap_err().0;
            assert!(err.contains(&path.display().to_string()), "{err}");
            assert!(err.contains(key), "{err}");
            assert!(err.contains("chmod go-w"), "{mode:o}: {err}");
            assert!(err.contains(&format!("{mode:03o}")), "{err}");
        }
        // Readable by others is fine for a file holding no secret.
        for mode in [0o600, 0o644, 0o640, 0o400] {
            let path = file_with(dir.path(), "config.toml", text, mode, None);
            assert!(file::load(&path).is_ok(), "{key} {mode:o}");
        }
        // Another user's file is refused even at 0600.
        if let Some(uid) = another_uid() {
            let path = file_with(dir.path(), "config.toml", text, 0o600, Some(uid));
            let err = file::load(&path).unwrap_err().0;
            assert!(
                err.contains("another user") && err.contains("chmod 600"),
                "{err}"
            );
            std::fs::remove_file(&path).unwrap();
        }
    }
    // A file without a token or a command is anyone's business.
    let path = file_with(dir.path(), "config.toml", "[profiles.p]\n", 0o666, None);
    assert!(file::load(&path).is_ok());
}

#[cfg(unix)]
#[test]
fn a_literal_token_or_a_token_file_is_refused_when_not_the_users_alone() {
    let dir = tempfile::tempdir().unwrap();
    let text = "[profiles.p]\ntoken = \"t\"\n";
    for mode in [0o644, 0o640, 0o604, 0o660, 0o602] {
        let path = file_with(dir.path(), "config.toml", text, mode, None);
        let err = file::load(&path).unwrap_err().0;
        assert!(
            err.contains("chmod 600") && err.contains("profiles.p.token"),
            "{err}"
        );
    }
    let path = file_with(dir.path(), "config.toml", text, 0o600, None);
    assert!(file::load(&path).is_ok());
    let token = file_with(dir.path(), "p.token", "t\n", 0o600, None);
    assert!(token::read_token_file(&token, "p").is_ok());
    if let Some(uid) = another_uid() {
        let path = file_with(dir.path(), "config.toml", text, 0o600, Some(uid));
        let err = file::load(&path).unwrap_err().0;
        assert!(err.contains("another user"), "{err}");
        let token = file_with(dir.path(), "p.token", "t\n", 0o600, Some(uid));
        let err = token::read_token_file(&token, "p").unwrap_err().0;
        assert!(
            err.contains("another user") && err.contains("p.token"),
            "{err}"
        );
    }
}

/// The demo stands in only for "nothing at all configured": a token, a
/// deployment, a profile, a named config file or an empty base URL without
/// a base URL is a usage error naming what is set and where to set the URL.
#[test]
fn a_missing_base_url_is_refused_when_anything_else_is_configured() {
    let refused = |e: &Effective, what: &str| {
        let err = e.target().unwrap_err().0;
        assert!(err.contains(what), "{err}");
        assert!(err.contains(ENV_BASE_URL) && err.contains("=demo"), "{err}");
    };
    let token = effective(cli(), Some(Token::new("real-secret")), path(), None).unwrap();
    refused(&token, "FINDINGS_TOKEN is set");
    let mut c = cli();
    c.deployment = given("4711", Source::Env(ENV_DEPLOYMENT));
    refused(
        &effective(c, None, path(), None).unwrap(),
        "FINDINGS_DEPLOYMENT",
    );
    let mut c = cli();
    c.base_url = given("", Source::Env(ENV_BASE_URL));
    refused(
        &effective(c, None, path(), None).unwrap(),
        "FINDINGS_BASE_URL is set and empty",
    );
    let mut c = cli();
    c.config_named = Some(Source::Env(ENV_CONFIG));
    let empty = Loaded {
        path: path(),
        file: parse_ok(""),
    };
    refused(
        &effective(c.clone(), None, path(), Some(&empty)).unwrap(),
        "named by FINDINGS_CONFIG",
    );
    // Named and not there: a mistake, said before anything else.
    let err = effective(c, None, path(), None)
        .unwrap()
        .target()
        .unwrap_err()
        .0;
    assert!(
        err.contains("FINDINGS_CONFIG names") && err.contains("does not exist"),
        "{err}"
    );
    // The file's default profile (no base URL in it) is a configuration too.
    let file = parse_ok("default_profile = \"ci\"\n[profiles.ci]\ndeployment = 4711\n");
    let loaded = Loaded { path: path(), file };
    refused(
        &effective(cli(), None, path(), Some(&loaded)).unwrap(),
        "(profile ci)",
    );
    // Asked for by name, the demo serves whatever else is set (its own
    // token and deployment).
    let mut c = cli();
    c.base_url = given("demo", Source::Env(ENV_BASE_URL));
    let e = effective(c, Some(Token::new("real-secret")), path(), None).unwrap();
    assert!(matches!(e.target(), Ok(Target::Demo(DemoWhy::Asked))));
    assert!(e.token_key().is_none(), "no token is stored for the demo");
}
