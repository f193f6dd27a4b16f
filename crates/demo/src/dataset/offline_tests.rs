//! The offline data set's limits: catalog entries, repositories, ids.

use super::*;

struct NoStore;
impl StoredFindings for NoStore {
    fn item(&self, _: usize) -> Option<IssueItem> {
        None
    }
    fn unavailable(&self) -> Option<String> {
        None
    }
}

fn item(id: usize, repo: &str, path: &str) -> IssueItem {
    IssueItem {
        issue: Some(Issue {
            id: Some(format!("f{id}")),
            rule_id: Some("sql".into()),
            repository: Some(findings_model::Repository {
                name: Some(repo.into()),
                ..Default::default()
            }),
            file_path: Some(path.into()),
            severity: Some(Severity::Other("SEVERITY_NEW_KIND".into())),
            ..Default::default()
        }),
        ..Default::default()
    }
}

#[test]
fn a_rule_with_more_than_256_files_takes_more_entries_with_its_facts() {
    let mut b = OfflineBuilder::new();
    for n in 0..600 {
        b.add(&item(n, "acme/api", &format!("src/f{n}.py")))
            .unwrap();
    }
    // The same file again takes the same entry and slot.
    b.add(&item(600, "acme/api", "src/f7.py")).unwrap();
    let ds = b
        .finish(chrono::Utc::now(), "1", Box::new(NoStore))
        .unwrap();
    assert_eq!(ds.catalog.code_rules.len(), 3);
    assert!(ds.catalog.code_rules.iter().all(|r| r.rule_id == "sql"));
    for (n, row) in ds.rows.iter().enumerate() {
        let want = format!("src/f{}.py", if n == 600 { 7 } else { n });
        assert_eq!(ds.file_path(row), want);
    }
    assert_eq!(ds.index_of("f599"), Some(599));
    assert_eq!(ds.index_of("nope"), None);
    // A severity the engine does not know is filtered as info.
    assert_eq!(Severity::ALL[ds.rows[0].severity as usize], Severity::Info);
}

#[test]
fn more_repositories_than_the_rows_hold_is_refused_by_name() {
    let mut b = OfflineBuilder::new();
    for n in 0..256 {
        b.add(&item(n, &format!("acme/r{n}"), "a.py")).unwrap();
    }
    let e = b.add(&item(256, "acme/one-too-many", "a.py")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the offline view holds at most 256 repositories; this snapshot has more"
    );
}

/// A file of one finding many times would hold a row each: the
/// second is refused, by id.
#[test]
fn a_finding_twice_is_refused_not_held_twice() {
    let mut b = OfflineBuilder::new();
    b.add(&item(1, "acme/api", "a.py")).unwrap();
    b.add(&item(2, "acme/api", "a.py")).unwrap();
    let e = b.add(&item(1, "acme/api", "a.py")).unwrap_err();
    assert_eq!(e.to_string(), "finding f1 is in it more than once");
    assert_eq!(b.rows.len(), 2);
    // A numeric id (held as a number) is refused once all are read.
    let mut b = OfflineBuilder::new();
    for id in ["7", "8", "7"] {
        let mut twice = item(0, "acme/api", "a.py");
        twice.issue.as_mut().unwrap().id = Some(id.into());
        b.add(&twice).unwrap();
    }
    let e = b
        .finish(chrono::Utc::now(), "1", Box::new(NoStore))
        .err()
        .unwrap();
    assert_eq!(e.to_string(), "finding 7 is in it more than once");
    assert_eq!(
        OfflineBuilder::new()
            .finish(chrono::Utc::now(), "1", Box::new(NoStore))
            .map(|ds| ds.index_of("7"))
            .unwrap(),
        None
    );
}
