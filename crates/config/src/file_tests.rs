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
