//! What the app remembers between runs per profile besides the visits:
//! what each pane keeps ([`Pane::remember`](crate::pane::Pane::remember)),
//! in `PANE.json` in the platform's state folder (beside `visits.json`;
//! the Report's selectors in `report.json`), read at start and written when
//! the app ends. A damaged file is reported, not fatal, and replaced on the
//! next write.

use crate::message::PaneId;
use findings_base::atomic_file::{self, Access, Replace};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The most a state file may weigh (a few KB in use).
pub const MAX_STATE_FILE: u64 = 1024 * 1024;

/// The Report's selectors, by wire name (a value this build does not know
/// is dropped when they are restored).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReportSelectors {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_type: Option<String>,
    /// Days back from now; none: all time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period_days: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bucket: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub severities: Vec<String>,
    /// The repository filter.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub projects: Vec<String>,
}

/// One profile's entry in a JSON file of entries by profile
/// (`{"profiles": {NAME: entry}}`): the Report's selectors and the visits.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileStore {
    pub path: PathBuf,
    pub profile: String,
    /// What the file keeps, as a damaged file is reported ("visits").
    pub what: &'static str,
}

impl ProfileStore {
    /// Pane `pane`'s file in `state_dir` for `profile` (`report.json` for
    /// the Report).
    pub fn pane(state_dir: &Path, profile: &str, pane: PaneId) -> ProfileStore {
        ProfileStore {
            path: state_dir.join(format!("{}.json", pane.0)),
            profile: profile.to_owned(),
            what: pane.0,
        }
    }

    /// The profile's entry; `None` when there is none yet. A file or an
    /// entry that cannot be read is an error the caller shows.
    pub fn load<T: DeserializeOwned>(&self) -> Result<Option<T>, String> {
        let Some(entry) = self.read()?.remove(&self.profile) else {
            return Ok(None);
        };
        findings_base::json::from_value(&entry)
            .map(Some)
            .map_err(|e| format!("{}: a damaged entry: {e}", self.path.display()))
    }

    fn read(&self) -> Result<Map<String, Value>, String> {
        let damaged = |e: String| {
            format!(
                "{} is damaged (not a {} file): {e}",
                self.path.display(),
                self.what
            )
        };
        // A regular file of at most 1 MiB: a link to a device or a FIFO
        // planted here is refused, never read without end.
        match atomic_file::read_capped(&self.path, MAX_STATE_FILE) {
            Ok(text) => {
                match serde_json::from_slice::<Value>(&text).map_err(|e| damaged(e.to_string()))? {
                    Value::Object(mut top) => match top.remove("profiles") {
                        Some(Value::Object(profiles)) => Ok(profiles),
                        None => Ok(Map::new()),
                        Some(_) => Err(damaged("profiles is not an object".into())),
                    },
                    _ => Err(damaged("not an object".into())),
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Map::new()),
            Err(e) => Err(format!("cannot read {}: {e}", self.path.display())),
        }
    }

    /// Sets the profile's entry, keeping the other profiles' (a damaged
    /// file is started anew). Written whole (`atomic_file`).
    pub fn save<T: Serialize>(&self, entry: &T) -> Result<(), String> {
        let mut profiles = self.read().unwrap_or_default();
        let entry = findings_base::json::to_value(entry).map_err(|e| e.to_string())?;
        profiles.insert(self.profile.clone(), entry);
        let json = serde_json::to_vec_pretty(&serde_json::json!({ "profiles": profiles }))
            .map_err(|e| e.to_string())?;
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", self.path.display());
        if let Some(dir) = self.path.parent() {
            atomic_file::create_folder(dir, Access::Private)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        // What was seen when is nobody else's business: the owner's only.
        atomic_file::write(&self.path, &json, Access::Private, Replace::Existing).map_err(fail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: PaneId = PaneId("report");

    fn some() -> ReportSelectors {
        ReportSelectors {
            period_days: Some(30),
            severities: vec!["FINDING_SEVERITY_HIGH".into()],
            projects: vec!["acme/a".into()],
            ..Default::default()
        }
    }

    #[test]
    fn kept_per_profile() {
        let dir = tempfile::tempdir().unwrap();
        let work = ProfileStore::pane(dir.path(), "work", REPORT);
        let home = ProfileStore::pane(dir.path(), "home", REPORT);
        assert_eq!(work.load::<ReportSelectors>(), Ok(None));
        work.save(&some()).unwrap();
        home.save(&ReportSelectors::default()).unwrap();
        assert_eq!(work.load(), Ok(Some(some())));
        assert_eq!(home.load(), Ok(Some(ReportSelectors::default())));
    }

    #[test]
    fn a_damaged_file_or_entry_is_reported_then_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let work = ProfileStore::pane(dir.path(), "work", REPORT);
        std::fs::write(&work.path, "{not json").unwrap();
        let e = work.load::<ReportSelectors>().unwrap_err();
        assert!(e.contains("report.json is damaged"), "{e}");
        work.save(&some()).unwrap();
        assert_eq!(work.load(), Ok(Some(some())));
        std::fs::write(
            &work.path,
            r#"{"profiles": {"work": {"periodDays": "x", "period_days": -1}}}"#,
        )
        .unwrap();
        assert!(
            work.load::<ReportSelectors>()
                .unwrap_err()
                .contains("damaged entry")
        );
    }

    /// A link planted at the old fixed temporary name, or at the file
    /// itself, is never written through: its target keeps its bytes.
    #[cfg(unix)]
    #[test]
    fn links_planted_beside_or_at_the_file_are_never_written_through() {
        use std::os::unix::fs::{PermissionsExt, symlink};
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let work = ProfileStore::pane(dir.path(), "work", REPORT);
        symlink(&victim, dir.path().join("report.json.tmp")).unwrap();
        work.save(&some()).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        let meta = work.path.symlink_metadata().unwrap();
        assert!(
            meta.file_type().is_file(),
            "report.json is a file of its own"
        );
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        assert_eq!(work.load(), Ok(Some(some())));
        // A link at report.json itself is replaced, not followed.
        std::fs::remove_file(&work.path).unwrap();
        symlink(&victim, &work.path).unwrap();
        work.save(&some()).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(work.path.symlink_metadata().unwrap().file_type().is_file());
    }
}
