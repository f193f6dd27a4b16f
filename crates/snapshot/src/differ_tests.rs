//! The partitioned diff says what the in-memory one says, in its order,
//! for generated snapshots (repeated ids, ids on one side only, tickets,
//! triage, both formats), and leaves nothing behind.

use super::*;
use crate::{Category, ChangeFiles, Header, Writer};
use findings_model::ListIssuesRequest;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
    fn pick<'a>(&mut self, of: &[&'a str]) -> &'a str {
        of[usize::try_from(self.below(of.len() as u64)).unwrap()]
    }
}

/// One finding as the server sends it (a version 4 line), or its entry
/// (a version 1 line).
fn finding(rng: &mut Rng) -> (String, Entry) {
    let id = match rng.below(10) {
        0 => format!("f-{}", rng.below(8)),
        1 => format!("00{}", rng.below(8)),
        _ => rng.below(40).to_string(),
    };
    let severity = rng.pick(&["CRITICAL", "HIGH", "MEDIUM", "LOW"]);
    let state = rng.pick(&["OPEN", "FIXING", "FIXED", "REMOVED", "IGNORED_APP"]);
    let triage = rng.pick(&["UNTRIAGED", "IGNORED", "REOPENED", "REVIEWING", ""]);
    let reason = rng.pick(&["FALSE_POSITIVE", "NO_TIME", ""]);
    let who = rng.pick(&["ana", "bo", ""]);
    let day = rng.below(3) + 1;
    let ticket = rng.pick(&["OPS-1", "OPS-2", "", ""]);
    let mut issue = format!(
        r#""id":"{id}","severity":"SEVERITY_{severity}","aggregateState":"AGGREGATE_ISSUE_STATE_{state}","filePath":"src/{id}.rs","ruleId":"r{}""#,
        rng.below(3)
    );
    if !triage.is_empty() {
        issue += &format!(r#","triageState":"FINDING_TRIAGE_STATE_{triage}""#);
    }
    if !reason.is_empty() {
        issue += &format!(r#","triageReason":"FINDING_TRIAGE_REASON_{reason}""#);
    }
    if !who.is_empty() {
        issue += &format!(
            r#","activityHistory":[{{"historyType":"HISTORY_TYPE_TRIAGE","date":"2026-11-0{day}T10:00:00Z","actor":"{who}"}}]"#
        );
    }
    if !ticket.is_empty() {
        issue += &format!(r#","externalTicket":{{"externalSlug":"{ticket}"}}"#);
    }
    let json = format!(r#"{{"issue":{{{issue}}}}}"#);
    let item: findings_model::IssueItem = serde_json::from_str(&json).unwrap();
    (json, Entry::of(&item).unwrap())
}

/// A snapshot of `n` generated findings: whole (version 4) or entries.
fn snapshot(dir: &Path, name: &str, rng: &mut Rng, n: u64, whole: bool) -> PathBuf {
    let header = Header::new(
        "2026-11-01T00:00:00Z".parse().unwrap(),
        "http://127.0.0.1:1",
        "1",
        &ListIssuesRequest::default(),
    );
    let mut writer = Writer::new(Vec::new(), &header).unwrap();
    for _ in 0..n {
        let (json, entry) = finding(rng);
        if whole {
            writer.item(json.as_bytes()).unwrap();
        } else {
            writer.entry(&entry).unwrap();
        }
    }
    let path = dir.join(name);
    std::fs::write(&path, writer.finish().unwrap()).unwrap();
    path
}

/// Every change of a diff of `old` and `new`, in the order said.
fn run(old: &Path, new: &Path, bound: u64, temp: &Path) -> Result<Vec<Change>, String> {
    let said = |e: SnapshotError| e.to_string();
    let (_, mut differ) = Differ::open_with(old, bound, temp).map_err(said)?;
    let mut reader = Reader::new(crate::open_file(new).unwrap()).map_err(said)?;
    if !Baseline::records_tickets(reader.header().version) {
        differ.without_tickets();
    }
    let mut changes = Vec::new();
    while let Some(entry) = reader.next_entry().map_err(said)? {
        differ.compare(&entry, |c| changes.push(c)).map_err(said)?;
    }
    let finished = differ.finish(|c| {
        changes.push(c);
        Ok::<(), ()>(())
    });
    match finished {
        Ok(()) => Ok(changes),
        Err(Halt::Snapshot(e)) => Err(e.to_string()),
        Err(Halt::Said(())) => Err("said".into()),
    }
}

fn temp_root(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("differ-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn left_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn partitioned_the_diff_says_what_the_in_memory_one_says_in_its_order() {
    let files = temp_root("files");
    let temp = temp_root("temp");
    let mut partitioned = 0;
    for seed in 1..=60u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let (old_n, new_n) = (rng.below(70), rng.below(70));
        let (old_whole, new_whole) = (seed % 5 != 0, seed % 7 != 0);
        let old = snapshot(&files, "old.snap", &mut rng, old_n, old_whole);
        let new = snapshot(&files, "new.snap", &mut rng, new_n, new_whole);
        let expected = run(&old, &new, u64::MAX, &temp).unwrap();
        for bound in [0, 1, 3, 16, old_n] {
            let got = run(&old, &new, bound, &temp).unwrap();
            assert_eq!(got, expected, "seed {seed}, bound {bound}");
            assert!(left_in(&temp).is_empty(), "seed {seed}: files left behind");
        }
        let (_, differ) = Differ::open_with(&old, 3, &temp).unwrap();
        partitioned += usize::from(differ.is_partitioned());
        assert_eq!(differ.is_partitioned(), old_n > 3);
        let (_, differ) = Differ::open_with(&old, old_n, &temp).unwrap();
        assert!(!differ.is_partitioned(), "at the bound: in memory");
    }
    assert!(partitioned > 40, "most seeds go to disk");
    std::fs::remove_dir_all(&files).unwrap();
    std::fs::remove_dir_all(&temp).unwrap();
}

#[test]
fn a_damaged_old_side_is_refused_as_in_memory_and_leaves_nothing() {
    let files = temp_root("damaged");
    let temp = temp_root("damaged-temp");
    let mut rng = Rng(7);
    let old = snapshot(&files, "old.snap", &mut rng, 50, true);
    let new = snapshot(&files, "new.snap", &mut rng, 50, true);
    let bytes = std::fs::read(&old).unwrap();
    let cut = files.join("cut.snap");
    std::fs::write(&cut, &bytes[..bytes.len() - 9]).unwrap();
    let mut flipped = bytes.clone();
    let last = flipped.len() - 20;
    flipped[last] ^= 0x55;
    let bad = files.join("bad.snap");
    std::fs::write(&bad, &flipped).unwrap();
    for damaged in [&cut, &bad] {
        let in_memory = run(damaged, &new, u64::MAX, &temp).unwrap_err();
        for bound in [0, 1, 3] {
            assert_eq!(run(damaged, &new, bound, &temp).unwrap_err(), in_memory);
            assert!(left_in(&temp).is_empty());
        }
    }
    std::fs::remove_dir_all(&files).unwrap();
    std::fs::remove_dir_all(&temp).unwrap();
}

#[test]
fn the_partitions_are_private_and_leave_nothing_on_every_way_out() {
    let files = temp_root("private");
    let temp = temp_root("private-temp");
    let mut rng = Rng(11);
    let old = snapshot(&files, "old.snap", &mut rng, 40, true);
    let (_, differ) = Differ::open_with(&old, 4, &temp).unwrap();
    assert!(differ.is_partitioned());
    // Unix: no name left while the diff runs, so a kill leaves nothing;
    // Windows: one folder of its own until the diff is dropped.
    #[cfg(unix)]
    assert_eq!(left_in(&temp), Vec::<String>::new());
    #[cfg(not(unix))]
    assert_eq!(left_in(&temp).len(), 1);
    drop(differ); // given up before the end (an error of the new side)
    assert!(left_in(&temp).is_empty());
    // Stopped by what the changes go to (a closed pipe, say).
    let (_, mut differ) = Differ::open_with(&old, 4, &temp).unwrap();
    let (_, entry) = finding(&mut rng);
    differ.compare(&entry, |_| {}).unwrap();
    let stopped = differ.finish(|_| Err("closed"));
    assert!(matches!(stopped, Err(Halt::Said("closed"))));
    assert!(left_in(&temp).is_empty());
    // Made private: the folder 0700, each file 0600 and new (a name
    // already there, a link say, is never opened).
    let folder = crate::scratch::Folder::new(&temp).unwrap();
    let file = folder.create("0").unwrap();
    assert!(folder.create("0").is_err());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(folder.path()), 0o700);
        assert_eq!(mode(&folder.path().join("0")), 0o600);
    }
    drop((file, folder));
    assert!(left_in(&temp).is_empty());
    // No room for them at all: a clear error, nothing said.
    let nowhere = temp.join("missing");
    let err = Differ::open_with(&old, 4, &nowhere).err().unwrap();
    assert!(
        err.to_string().starts_with("the diff's temporary files: "),
        "{err}"
    );
    std::fs::remove_dir_all(&files).unwrap();
    std::fs::remove_dir_all(&temp).unwrap();
}

#[test]
fn changes_put_by_kind_read_back_kind_by_kind_in_their_order() {
    let files = temp_root("kinds");
    let temp = temp_root("kinds-temp");
    let mut rng = Rng(5);
    let old = snapshot(&files, "old.snap", &mut rng, 60, true);
    let new = snapshot(&files, "new.snap", &mut rng, 60, true);
    let changes = run(&old, &new, u64::MAX, &temp).unwrap();
    let mut kept = ChangeFiles::new().unwrap();
    for change in &changes {
        kept.put(change).unwrap();
    }
    for _ in 0..2 {
        // Read again, the same (a kind asked for twice).
        let mut read = Vec::new();
        for kind in Category::ALL {
            kept.each(kind, |c| {
                read.push(c);
                Ok::<(), ()>(())
            })
            .unwrap();
        }
        let mut expected = changes.clone();
        let rank = |c: &Change| Category::ALL.iter().position(|k| k.name() == c.category);
        expected.sort_by_key(rank); // stable: each kind in its order
        assert_eq!(read, expected);
    }
    std::fs::remove_dir_all(&files).unwrap();
    std::fs::remove_dir_all(&temp).unwrap();
}
