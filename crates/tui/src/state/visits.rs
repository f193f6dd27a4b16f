//! "New since last visit": when each pane's list was last seen, per
//! profile and by pane id, kept in `visits.json` in the platform's state
//! folder. The times are read at start (findings relevant or created after
//! them are new) and written when the app ends, for the panes that were
//! shown.

use crate::message::PaneId;
use crate::state::remembered::ProfileStore;
use findings_model::Timestamp;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file's name in the state folder.
pub const FILE_NAME: &str = "visits.json";

/// When the panes were last seen under one profile, by pane id
/// (`{"issues": TIME, "report": TIME}`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Visits(BTreeMap<String, Timestamp>);

impl Visits {
    /// When pane `pane` was last seen.
    pub fn of(&self, pane: PaneId) -> Option<Timestamp> {
        self.0.get(pane.0).copied()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<(PaneId, Timestamp)> for Visits {
    fn from_iter<I: IntoIterator<Item = (PaneId, Timestamp)>>(seen: I) -> Visits {
        Visits(seen.into_iter().map(|(p, t)| (p.0.to_owned(), t)).collect())
    }
}

/// Where a session's visits are kept: the file and the profile's key in it.
#[derive(Debug, Clone, PartialEq)]
pub struct VisitsFile {
    pub path: PathBuf,
    pub profile: String,
}

impl VisitsFile {
    /// The file in `state_dir` for `profile`.
    pub fn new(state_dir: &Path, profile: &str) -> VisitsFile {
        VisitsFile {
            path: state_dir.join(FILE_NAME),
            profile: profile.to_owned(),
        }
    }

    /// The same file as the per-profile store every such file is.
    fn store(&self) -> ProfileStore {
        ProfileStore {
            path: self.path.clone(),
            profile: self.profile.clone(),
            what: "visits",
        }
    }

    /// The profile's last visits; none when the file does not exist yet.
    /// A file that cannot be read is an error the caller shows, not fatal.
    pub fn load(&self) -> Result<Visits, String> {
        Ok(self.store().load()?.unwrap_or_default())
    }

    /// Records `seen` for the profile (a pane not in it keeps its time),
    /// keeping the other profiles'. Written to a temporary file and renamed,
    /// so a crash never leaves half a file. A file that cannot be read is
    /// started anew.
    pub fn save(&self, seen: Visits) -> Result<(), String> {
        let mut visits: Visits = self.store().load().ok().flatten().unwrap_or_default();
        visits.0.extend(seen.0);
        self.store().save(&visits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn no_file_means_no_visit_yet() {
        let dir = tempfile::tempdir().unwrap();
        let file = VisitsFile::new(dir.path(), "work");
        assert_eq!(file.load(), Ok(Visits::default()));
    }

    #[test]
    fn visits_are_kept_per_profile_and_per_pane() {
        let dir = tempfile::tempdir().unwrap();
        let work = VisitsFile::new(&dir.path().join("nested"), "work");
        let home = VisitsFile::new(&dir.path().join("nested"), "home");
        work.save(Visits::from_iter([(
            PaneId("issues"),
            at("2026-11-20T10:00:00Z"),
        )]))
        .unwrap();
        home.save(Visits::from_iter([(
            PaneId("report"),
            at("2026-11-19T08:00:00Z"),
        )]))
        .unwrap();
        // A later visit that shows only the report keeps the Issues time.
        work.save(Visits::from_iter([(
            PaneId("report"),
            at("2026-11-21T09:30:00Z"),
        )]))
        .unwrap();
        assert_eq!(
            work.load().unwrap(),
            Visits::from_iter([
                (PaneId("issues"), at("2026-11-20T10:00:00Z")),
                (PaneId("report"), at("2026-11-21T09:30:00Z"))
            ])
        );
        assert_eq!(
            home.load().unwrap(),
            Visits::from_iter([(PaneId("report"), at("2026-11-19T08:00:00Z"))])
        );
        assert!(!dir.path().join("nested/visits.json.tmp").exists());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&work.path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_damaged_file_is_reported_and_then_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let file = VisitsFile::new(dir.path(), "work");
        std::fs::write(&file.path, "{not json").unwrap();
        let e = file.load().unwrap_err();
        assert!(
            e.contains("visits.json") && e.contains("not a visits file"),
            "{e}"
        );
        let seen = Visits::from_iter([(PaneId("issues"), at("2026-11-21T00:00:00Z"))]);
        file.save(seen.clone()).unwrap();
        assert_eq!(file.load(), Ok(seen));
    }

    /// Quitting writes visits.json: a link planted at its old fixed
    /// temporary name, or at the file, never has its target written.
    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_never_written_through_on_quit() {
        use std::os::unix::fs::{PermissionsExt, symlink};
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("authorized_keys");
        std::fs::write(&victim, "ssh-ed25519 AAAA me").unwrap();
        let file = VisitsFile::new(dir.path(), "work");
        let seen = Visits::from_iter([(PaneId("issues"), at("2026-11-21T00:00:00Z"))]);
        symlink(&victim, dir.path().join("visits.json.tmp")).unwrap();
        file.save(seen.clone()).unwrap();
        assert_eq!(
            std::fs::read_to_string(&victim).unwrap(),
            "ssh-ed25519 AAAA me"
        );
        let meta = file.path.symlink_metadata().unwrap();
        assert!(meta.file_type().is_file(), "visits.json is not the link");
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        std::fs::remove_file(&file.path).unwrap();
        symlink(&victim, &file.path).unwrap();
        file.save(seen.clone()).unwrap();
        assert_eq!(
            std::fs::read_to_string(&victim).unwrap(),
            "ssh-ed25519 AAAA me"
        );
        assert_eq!(file.load(), Ok(seen));
    }

    /// visits.json as a FIFO, a link to an endless device or a huge file:
    /// an error naming it, at once (nothing read without end), and the
    /// next save replaces it with a file of its own.
    #[cfg(unix)]
    #[test]
    fn a_fifo_a_device_or_a_huge_file_is_refused_never_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = VisitsFile::new(dir.path(), "work");
        findings_base::sys::make_fifo(&file.path).unwrap();
        let e = file.load().unwrap_err();
        assert!(
            e.contains("visits.json") && e.contains("not a regular file"),
            "{e}"
        );
        std::fs::remove_file(&file.path).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &file.path).unwrap();
        let e = file.load().unwrap_err();
        assert!(
            e.contains("visits.json") && e.contains("not a regular file"),
            "{e}"
        );
        let seen = Visits::from_iter([(PaneId("issues"), at("2026-11-21T00:00:00Z"))]);
        file.save(seen.clone()).unwrap();
        assert_eq!(file.load(), Ok(seen));
        let huge =
            vec![b' '; usize::try_from(super::super::remembered::MAX_STATE_FILE).unwrap() + 1];
        std::fs::write(&file.path, huge).unwrap();
        let e = file.load().unwrap_err();
        assert!(e.contains("visits.json") && e.contains("more than"), "{e}");
    }
}
