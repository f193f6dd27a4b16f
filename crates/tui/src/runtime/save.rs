//! Writing an export file: the IO of [`Effect::Export`](crate::message::Effect),
//! done by the event loop (on a blocking thread), never by `update`. An
//! existing file (or link) is never overwritten, and a file is written
//! whole or not at all.

use crate::message::{ExportItems, Msg, PaneId};
use findings_base::atomic_file::{Access, AtomicFile, Replace};
use findings_export::{Chosen, Format, Record, Writer};
use std::io::{BufWriter, ErrorKind};
use std::path::{Path, PathBuf};

/// Saves a view into the config file and says how it went, as the
/// message for the app.
pub fn save_view(
    pane: PaneId,
    path: &Path,
    profile: Option<&str>,
    view: findings_config::SavedView,
) -> Msg {
    let result = findings_config::save_view(path, profile, &view);
    Msg::SavedView { pane, view, result }
}

/// Width of the table format in a file (its last column takes the rest).
const TABLE_WIDTH: usize = 200;

/// Writes the export and says how it went, as the message for the app.
pub fn export(path: &Path, how: &(Format, Chosen), items: &ExportItems) -> Msg {
    let target = resolve(path);
    let result = write(&target, how, items);
    Msg::Exported {
        path: target.display().to_string(),
        result,
    }
}

/// Writes the export on the blocking pool and sends how it went to `done`:
/// the loop goes on meanwhile.
pub fn export_off_loop(
    path: PathBuf,
    how: (Format, Chosen),
    items: ExportItems,
    done: &tokio::sync::mpsc::UnboundedSender<Msg>,
) {
    let done = done.clone();
    tokio::task::spawn_blocking(move || {
        let _ = done.send(export(&path, &how, &items));
    });
}

/// `~/` is the home directory; a relative path is taken from the current
/// directory and shown absolute.
pub fn resolve(path: &Path) -> PathBuf {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty());
    let path = match (path.strip_prefix("~"), home) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path.to_path_buf(),
    };
    std::path::absolute(&path).unwrap_or(path)
}

/// Writes the items to a new file at `path` (refusing an existing file or
/// link), whole or not at all (`atomic_file`): a failure part-way leaves
/// nothing behind.
pub fn write(path: &Path, how: &(Format, Chosen), items: &ExportItems) -> Result<usize, String> {
    fn all<T: Record>(path: &Path, how: &(Format, Chosen), items: &[T]) -> Result<usize, String> {
        let mut file = ExportFile::create(path, how.0, how.1.clone())?;
        items.iter().try_for_each(|item| file.item(item))?;
        file.finish()
    }
    match items {
        ExportItems::Issues(v) => all(path, how, v),
        ExportItems::Findings(v) => all(path, how, v),
    }
}

/// An export file written item by item as the findings come, a page at a
/// time (an export of a million findings holds one page, not the million):
/// a new file (an existing file or link is refused), put in place whole by
/// [`ExportFile::finish`]; dropped unfinished (a failed fetch, `Esc`), it
/// leaves nothing behind.
pub struct ExportFile {
    shown: String,
    writer: Writer<BufWriter<AtomicFile>>,
}

impl ExportFile {
    /// Creates the file at `path` for findings, written in `format` (csv,
    /// table and markdown in `columns`).
    pub fn create(path: &Path, format: Format, columns: Chosen) -> Result<ExportFile, String> {
        let shown = findings_base::text::one_line(&path.display().to_string()).into_owned();
        let file =
            AtomicFile::create(path, Access::Private, Replace::Never).map_err(|e| {
                match e.kind() {
                    ErrorKind::AlreadyExists => {
                        format!("{shown} already exists; not overwritten (choose another name)")
                    }
                    _ => format!("cannot create {shown}: {e}"),
                }
            })?;
        let writer = Writer::with_columns(BufWriter::new(file), format, TABLE_WIDTH, columns);
        Ok(ExportFile { shown, writer })
    }

    pub fn item<T: Record>(&mut self, item: &T) -> Result<(), String> {
        self.writer.item(item).map_err(|e| self.failed(e))
    }

    /// Ends the document and puts the file in place; the items written.
    pub fn finish(self) -> Result<usize, String> {
        let n = self.writer.count();
        let shown = self.shown;
        let done = (|| -> std::io::Result<()> {
            let out = self.writer.finish()?;
            out.into_inner().map_err(|e| e.into_error())?.commit()
        })();
        done.map(|()| n).map_err(|e| failed(&shown, e))
    }

    fn failed(&self, e: std::io::Error) -> String {
        failed(&self.shown, e)
    }
}

fn failed(shown: &str, e: std::io::Error) -> String {
    match e.kind() {
        ErrorKind::AlreadyExists => {
            format!("{shown} appeared while writing; not overwritten (choose another name)")
        }
        _ => format!("cannot write {shown}: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::Issue;

    fn items() -> ExportItems {
        ExportItems::Findings(vec![Issue {
            id: Some("1".into()),
            rule_id: Some("r".into()),
            ..Default::default()
        }])
    }

    #[test]
    fn writes_a_new_file_and_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.sarif");
        assert_eq!(
            write(&path, &(Format::Sarif, Chosen::default()), &items()),
            Ok(1)
        );
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(doc["runs"][0]["results"][0]["ruleId"], "r");
        let before = std::fs::read(&path).unwrap();
        let err = write(&path, &(Format::Csv, Chosen::default()), &items()).unwrap_err();
        assert!(err.contains("already exists"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), before, "left untouched");
    }

    #[test]
    fn a_missing_directory_is_an_error_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/dir/out.csv");
        let err = write(&path, &(Format::Csv, Chosen::default()), &items()).unwrap_err();
        assert!(err.starts_with("cannot create"), "{err}");
        assert!(!path.exists());
    }

    #[test]
    fn relative_paths_resolve_to_absolute() {
        assert!(resolve(Path::new("x.csv")).is_absolute());
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            assert_eq!(
                resolve(Path::new("~/x.csv")),
                PathBuf::from(home).join("x.csv")
            );
        }
    }

    /// A link planted at the export's name is refused, and its target
    /// (which may be a file of the user's) keeps its bytes.
    #[cfg(unix)]
    #[test]
    fn a_link_at_the_name_is_refused_and_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let path = dir.path().join("out.csv");
        std::os::unix::fs::symlink(&victim, &path).unwrap();
        let err = write(&path, &(Format::Csv, Chosen::default()), &items()).unwrap_err();
        assert!(err.contains("already exists"), "{err}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        let dangling = dir.path().join("new.csv");
        std::os::unix::fs::symlink(dir.path().join("made"), &dangling).unwrap();
        assert!(write(&dangling, &(Format::Csv, Chosen::default()), &items()).is_err());
        assert!(!dir.path().join("made").exists());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 3, "no temporary file left: {names:?}");
    }

    /// An export is the user's file like any other: 0666 less the umask
    /// (what a file made here by any program gets).
    #[cfg(unix)]
    #[test]
    fn an_export_is_the_owners_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        write(&path, &(Format::Csv, Chosen::default()), &items()).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
    }
}
