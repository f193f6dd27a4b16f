//! The files the configuration reads, refused when they are no regular
//! file of a bounded size.

/// A FIFO where a file is expected would hold the start forever (an open
/// waits for a writer): the config, token, keymap and theme files are
/// refused at once instead, and so is a config too large to be one.
#[cfg(unix)]
#[test]
fn a_fifo_or_a_huge_file_is_refused_at_once_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    findings_base::sys::make_fifo(&fifo).unwrap();
    let token = crate::token::read_token_file(&fifo, "work").unwrap_err();
    assert!(token.0.contains("not a regular file"), "{token:?}");
    let config = crate::file::load(&fifo).unwrap_err();
    assert!(config.0.contains("not a regular file"), "{config:?}");
    let keymap = crate::keymap_file::KeymapFile::read(&fifo).unwrap_err();
    assert!(keymap.contains("not a regular file"), "{keymap}");
    let theme = crate::theme_file::ThemeFile::read(&fifo).unwrap_err();
    assert!(theme.contains("not a regular file"), "{theme}");
    let huge = dir.path().join("config.toml");
    std::fs::write(&huge, "# padding\n".repeat(200_000)).unwrap();
    let too_large = crate::file::load(&huge).unwrap_err();
    assert!(too_large.0.contains("more than the"), "{too_large:?}");
}

/// What a CI job sets by flag it may set in a profile too: the timeouts
/// and progress, each from the flag or the environment first, then the
/// profile, then the default; and each said by `config show`.
#[test]
fn the_timeouts_and_progress_come_from_a_profile_below_their_flags() {
    use crate::{CommandLine, Given, Loaded, Source, effective, parse};
    use std::path::PathBuf;
    use std::time::Duration;
    let path = PathBuf::from("/cfg/findings/config.toml");
    let text = "default_profile = \"ci\"\n[profiles.ci]\nconnect_timeout = 5\ntimeout = 120\nprogress = false\n";
    let loaded = Loaded {
        path: path.clone(),
        file: parse(&path, text).unwrap(),
    };
    let e = effective(CommandLine::default(), None, path.clone(), Some(&loaded)).unwrap();
    assert_eq!(e.connect_timeout, Duration::from_secs(5));
    assert_eq!(e.request_timeout, Duration::from_secs(120));
    let profile = Source::Profile("ci".into());
    assert_eq!(e.timeout_sources, (profile.clone(), profile.clone()));
    assert_eq!(e.progress, Given::new(false, profile));
    let shown = crate::show(&e, None);
    for key in ["connect_timeout = 5", "timeout = 120", "progress = false"] {
        assert!(shown.contains(key), "{shown}");
    }
    // The environment (or a flag) beats the profile.
    let cli = CommandLine {
        request_timeout: Some(Given::new(
            Duration::from_secs(7),
            Source::Env("FINDINGS_TIMEOUT"),
        )),
        ..Default::default()
    };
    let e = effective(cli, None, path.clone(), Some(&loaded)).unwrap();
    assert_eq!(e.request_timeout, Duration::from_secs(7));
    assert_eq!(e.timeout_sources.1, Source::Env("FINDINGS_TIMEOUT"));
    // Nothing says: the defaults, progress on.
    let e = effective(CommandLine::default(), None, path.clone(), None).unwrap();
    assert_eq!(e.connect_timeout, crate::DEFAULT_CONNECT_TIMEOUT);
    assert_eq!(e.request_timeout, crate::DEFAULT_REQUEST_TIMEOUT);
    assert_eq!(e.progress, Given::new(true, Source::Default));
    // Out of the flags' range: refused, naming the key.
    for bad in ["timeout = 0", "connect_timeout = 601", "timeout = -3"] {
        let err = parse(&path, &format!("[profiles.ci]\n{bad}\n")).unwrap_err();
        let key = bad.split(' ').next().unwrap();
        assert!(err.0.contains(key) && err.0.contains("seconds"), "{err:?}");
    }
}
