//! Writing a saved view into the config file (`:save NAME`): the file is
//! edited, not rewritten, so its comments and layout stay; a file that
//! cannot be parsed, or that would not load after the edit, is left alone.

use super::views::SavedView;
use findings_base::atomic_file::{self, Access, Replace};
use std::path::Path;
use toml_edit::{Array, DocumentMut, Item, Table, value};

/// Where a view was saved: the file and the table, as a person reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedAt {
    pub path: String,
    pub table: String,
}

/// Saves `view` as `[views.NAME]`, or `[profiles.P.views.NAME]` under a
/// profile, replacing a view of that name (its comments kept). A missing
/// file is created.
pub fn save_view(path: &Path, profile: Option<&str>, view: &SavedView) -> Result<SavedAt, String> {
    let shown = path.display().to_string();
    let bytes = match findings_base::atomic_file::read_capped(path, crate::MAX_FILE_BYTES) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(format!("cannot read {shown}: {e}")),
    };
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown} is not UTF-8 text"))?;
    let edited = with_view(&text, profile, view)
        .map_err(|e| format!("{shown}: {e}; the view is not saved"))?;
    // What is written must load: the same check as at start.
    super::file::parse(path, &edited).map_err(|e| format!("{e}; the view is not saved"))?;
    write(path, &edited).map_err(|e| format!("cannot write {shown}: {e}"))?;
    let table = match profile {
        Some(p) => format!("[profiles.{}.views.{}]", key(p), key(&view.name)),
        None => format!("[views.{}]", key(&view.name)),
    };
    Ok(SavedAt { path: shown, table })
}

/// A TOML key as written in a table header (quoted when it must be).
fn key(name: &str) -> String {
    toml_edit::Key::new(name).display_repr().into_owned()
}

/// The config text with the view set.
pub fn with_view(text: &str, profile: Option<&str>, view: &SavedView) -> Result<String, String> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| format!("cannot be parsed ({})", e.message()))?;
    let mut table = doc.as_table_mut();
    let mut path = Vec::new();
    if let Some(p) = profile {
        path.extend(["profiles", p]);
    }
    path.push("views");
    for part in path {
        table = sub_table(table, part)?;
    }
    let entry = table
        .entry(&view.name)
        .or_insert_with(|| Item::Table(Table::new()));
    let Some(t) = entry.as_table_mut() else {
        return Err(format!("views.{} is not a table", view.name));
    };
    for k in ["pane", "sort", "direction", "filters"] {
        t.remove(k);
    }
    if let Some(by) = &view.sort_by {
        t["sort"] = value(by.label());
    }
    if let Some(dir) = &view.direction {
        t["direction"] = value(dir.label());
    }
    if !view.filters.is_empty() {
        t["filters"] = value(view.filters.iter().collect::<Array>());
    }
    Ok(doc.to_string())
}

/// The table `name` in `parent`, made (implicit, so only its sub-tables
/// show) when missing.
fn sub_table<'a>(parent: &'a mut Table, name: &str) -> Result<&'a mut Table, String> {
    let item = parent.entry(name).or_insert_with(|| {
        let mut t = Table::new();
        t.set_implicit(true);
        Item::Table(t)
    });
    item.as_table_mut()
        .ok_or_else(|| format!("{name} is not a table"))
}

/// Written whole (`atomic_file`), private to the user from the start (it
/// may hold a token). A config file kept as a link (a dotfiles folder) is
/// written where it points, so it stays a link.
fn write(path: &Path, text: &str) -> std::io::Result<()> {
    let target = atomic_file::through_links(path)?;
    if let Some(dir) = target.parent() {
        atomic_file::create_folder(dir, Access::Private)?;
    }
    atomic_file::write(&target, text.as_bytes(), Access::Private, Replace::Existing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::{SortBy, SortDirection};

    fn view(name: &str) -> SavedView {
        SavedView {
            name: name.into(),
            sort_by: Some(SortBy::Severity),
            direction: Some(SortDirection::Asc),
            filters: vec![
                "severities=critical".into(),
                "repositoryNames=acme/a".into(),
            ],
        }
    }

    const FILE: &str = "# My findings config\n\
        default_profile = \"work\"  # the usual one\n\
        \n\
        [profiles.work]\n\
        # production\n\
        deployment = \"1234\"\n\
        \n\
        # Views for everyone\n\
        [views.old]\n\
        sort = \"repo\" # by repo\n";

    #[test]
    fn a_view_is_added_keeping_comments_and_layout() {
        let out = with_view(FILE, None, &view("crit")).unwrap();
        assert!(out.starts_with(FILE), "nothing before changes:\n{out}");
        assert!(
            out.ends_with(
                "[views.crit]\nsort = \"severity\"\ndirection = \"asc\"\n\
                 filters = [\"severities=critical\", \"repositoryNames=acme/a\"]\n"
            ),
            "{out}"
        );
        let file = crate::parse(Path::new("c.toml"), &out).unwrap();
        assert_eq!(file.views["crit"], view("crit"));
    }

    #[test]
    fn under_a_profile_and_replacing_a_view_of_that_name() {
        let out = with_view(FILE, Some("work"), &view("old")).unwrap();
        assert!(out.contains("# production\ndeployment = \"1234\""), "{out}");
        assert!(out.contains("[profiles.work.views.old]"), "{out}");
        let file = crate::parse(Path::new("c.toml"), &out).unwrap();
        assert_eq!(file.profiles["work"].views["old"], view("old"));
        // Again at top level: the old table is replaced, its comment kept.
        let out = with_view(&out, None, &view("old")).unwrap();
        assert!(
            out.contains("# Views for everyone\n[views.old]\nsort = \"severity\""),
            "{out}"
        );
        assert!(!out.contains("repo\" # by repo"), "{out}");
    }

    #[test]
    fn a_file_that_cannot_be_parsed_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "views = [ not toml").unwrap();
        let e = save_view(&path, None, &view("crit")).unwrap_err();
        assert!(
            e.contains("cannot be parsed") && e.contains("not saved"),
            "{e}"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "views = [ not toml"
        );
        // A file that parses but would not load (views is no table) neither.
        std::fs::write(&path, "views = 3\n").unwrap();
        assert!(save_view(&path, None, &view("crit")).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "views = 3\n");
    }

    #[test]
    fn a_missing_file_is_created_and_says_where() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/config.toml");
        let at = save_view(&path, Some("my team"), &view("crit")).unwrap();
        assert_eq!(at.table, "[profiles.\"my team\".views.crit]");
        assert_eq!(at.path, path.display().to_string());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("[profiles.\"my team\".views.crit]"),
            "{text}"
        );
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        path.symlink_metadata().unwrap().permissions().mode() & 0o777
    }

    /// The file may hold a token: created, or replaced, the owner's only.
    #[cfg(unix)]
    #[test]
    fn the_file_written_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        save_view(&path, None, &view("crit")).unwrap();
        assert_eq!(mode(&path), 0o600);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        save_view(&path, None, &view("other")).unwrap();
        assert_eq!(mode(&path), 0o600);
    }

    /// A link planted at the old fixed temporary name is never written
    /// through (it would have received the whole config, token included),
    /// and config.toml does not become that link.
    #[cfg(unix)]
    #[test]
    fn a_link_at_the_old_temporary_name_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "[profiles.work]\ntoken = \"s3cret\"\n").unwrap();
        let spy = dir.path().join("spy");
        std::fs::write(&spy, "").unwrap();
        std::os::unix::fs::symlink(&spy, dir.path().join("config.toml.tmp")).unwrap();
        save_view(&path, None, &view("crit")).unwrap();
        assert_eq!(std::fs::read_to_string(&spy).unwrap(), "");
        assert!(path.symlink_metadata().unwrap().file_type().is_file());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("s3cret") && text.contains("[views.crit]"),
            "{text}"
        );
    }

    /// A config.toml kept as a link (dotfiles) is edited in its target,
    /// and stays a link.
    #[cfg(unix)]
    #[test]
    fn a_linked_config_is_edited_where_it_points() {
        let dir = tempfile::tempdir().unwrap();
        let dotfiles = dir.path().join("dotfiles");
        std::fs::create_dir(&dotfiles).unwrap();
        let real = dotfiles.join("findings.toml");
        std::fs::write(&real, FILE).unwrap();
        let path = dir.path().join("config.toml");
        std::os::unix::fs::symlink("dotfiles/findings.toml", &path).unwrap();
        let at = save_view(&path, None, &view("crit")).unwrap();
        assert_eq!(at.path, path.display().to_string());
        assert!(path.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(
            std::fs::read_link(&path).unwrap(),
            Path::new("dotfiles/findings.toml")
        );
        let text = std::fs::read_to_string(&real).unwrap();
        assert!(
            text.starts_with(FILE) && text.contains("[views.crit]"),
            "{text}"
        );
        assert_eq!(mode(&real), 0o600);
        let names: Vec<_> = std::fs::read_dir(&dotfiles).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left: {names:?}");
    }
}
