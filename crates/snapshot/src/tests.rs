use super::*;

fn header() -> Header {
    let saved_at = "2026-11-25T10:00:00Z".parse().unwrap();
    Header::new(
        saved_at,
        "https://user:pw@findings.example.com",
        "7",
        &Default::default(),
    )
}

fn entry(n: usize) -> Entry {
    Entry {
        id: format!("id-{n}"),
        severity: Some("high".into()),
        state: Some("open".into()),
        path: Some(format!("src/file_{n}.rs")),
        ..Entry::default()
    }
}

fn written(count: usize) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), &header()).unwrap();
    for n in 0..count {
        writer.entry(&entry(n)).unwrap();
    }
    writer.finish().unwrap()
}

fn read_all(bytes: &[u8]) -> Result<(Header, Vec<Entry>), SnapshotError> {
    let mut reader = Reader::new(bytes)?;
    let mut entries = Vec::new();
    while let Some(e) = reader.next_entry()? {
        entries.push(e);
    }
    Ok((reader.header().clone(), entries))
}

#[test]
fn a_snapshot_of_exactly_the_cap_is_written_and_read_one_more_is_refused() {
    // The cap is ten million; three here. A file of exactly the cap read
    // its trailer as a finding past it and was refused.
    let mut writer = Writer::new(Vec::new(), &header()).unwrap().with_cap(3);
    for n in 0..3 {
        writer.entry(&entry(n)).unwrap();
    }
    let refused = writer.entry(&entry(3)).unwrap_err().to_string();
    assert!(refused.contains("at most 3 findings"), "{refused}");
    let full = writer.finish().unwrap();
    let read = |bytes: &[u8]| -> Result<usize, SnapshotError> {
        let mut reader = Reader::new(bytes)?.with_cap(3);
        let mut n = 0;
        while reader.next_entry()?.is_some() {
            n += 1;
        }
        Ok(n)
    };
    assert_eq!(
        read(&full).unwrap(),
        3,
        "exactly the cap opens, trailer and all"
    );
    let err = read(&written(4)).unwrap_err();
    assert!(
        matches!(&err, SnapshotError::TooLarge(why) if why == "more than 3 findings"),
        "{err}"
    );
}

#[test]
fn entries_come_back_as_written_across_blocks() {
    // Enough lines for several blocks.
    let bytes = written(20_000);
    let (header, entries) = read_all(&bytes).unwrap();
    assert_eq!(header.format, FORMAT);
    assert_eq!(header.deployment, "7");
    assert_eq!(entries.len(), 20_000);
    assert_eq!(entries[12_345], entry(12_345));
    // Compressed: far less than the text.
    assert!(bytes.len() < 20_000 * 40, "{} bytes", bytes.len());
}

#[test]
fn the_header_keeps_no_credentials_of_the_base_url() {
    let (header, _) = read_all(&written(0)).unwrap();
    assert_eq!(header.base_url, "https://***@findings.example.com");
    assert!(header.tool.starts_with("findings "));
}

#[test]
fn a_foreign_file_is_said_to_be_one() {
    for foreign in [&b""[..], b"{\"id\":1}\n", b"\x04\x22\x4d\x18 an lz4 frame"] {
        assert!(
            matches!(read_all(foreign), Err(SnapshotError::Foreign)),
            "{foreign:?}"
        );
    }
}

#[test]
fn a_file_cut_short_or_spoilt_is_damaged_never_a_panic() {
    let bytes = written(20_000);
    // Cut at every kind of place: inside the magic is foreign, else damaged.
    for cut in [9, 12, bytes.len() / 2, bytes.len() - 1] {
        let err = read_all(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(err, SnapshotError::Damaged(_)),
            "cut at {cut}: {err}"
        );
    }
    // A byte spoilt anywhere after the magic: an error, or (in a string)
    // entries that still parse; never a panic.
    for at in (8..bytes.len()).step_by(bytes.len() / 97) {
        let mut spoilt = bytes.clone();
        spoilt[at] ^= 0x5a;
        let _ = read_all(&spoilt);
    }
    // A block length that would ask for gigabytes.
    let mut huge = bytes.clone();
    huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(read_all(&huge), Err(SnapshotError::TooLarge(_))));
}

/// A finding's line past [`MAX_LINE`] is refused before it is decoded
/// (so none of its strings is held), in a block a reader otherwise takes.
#[test]
fn a_line_longer_than_a_finding_may_be_is_refused() {
    let long = format!("{{\"id\":\"{}\"}}\n", "7".repeat(MAX_LINE));
    let mut bytes = super::write::magic(1).to_vec();
    for line in [
        format!(
            "{}\n",
            serde_json::to_string(&Header {
                version: 1,
                ..header()
            })
            .unwrap()
        ),
        long,
    ] {
        let packed = lz4_flex::block::compress_prepend_size(line.as_bytes());
        bytes.extend(u32::try_from(packed.len()).unwrap().to_le_bytes());
        bytes.extend(packed);
    }
    let err = read_all(&bytes).unwrap_err();
    assert!(
        matches!(&err, SnapshotError::TooLarge(said) if said.contains("a line of")),
        "{err}"
    );
}

#[test]
fn a_newer_version_is_refused_by_name() {
    let mut bytes = written(1);
    bytes[6] = 9;
    assert!(matches!(read_all(&bytes), Err(SnapshotError::Newer(_))));
}

/// A List issues item's JSON, as a server sends it (a field the model
/// does not know included).
fn item_json(n: usize) -> String {
    format!(
        r#"{{"issue":{{"id":"f-{n}","severity":"SEVERITY_HIGH","aggregateState":"AGGREGATE_ISSUE_STATE_OPEN","filePath":"src/file_{n}.rs","remediation":{{"autofix":{{"explanation":"use a parameter {n}"}}}},"activityHistory":[{{"historyType":"HISTORY_TYPE_TRIAGE","date":"2026-11-20T10:00:00Z","actor":"ana"}}]}},"reviewCount":"2","notInTheModel":[{n}]}}"#
    )
}

fn written_items(count: usize) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), &header()).unwrap();
    for n in 0..count {
        writer.item(item_json(n).as_bytes()).unwrap();
    }
    writer.finish().unwrap()
}

#[test]
fn whole_findings_make_version_4_and_read_back_whole_and_as_entries() {
    let bytes = written_items(5_000);
    assert_eq!(&bytes[..8], b"FSNAP\x00\x04\n");
    let mut reader = Reader::new(&bytes[..]).unwrap();
    assert_eq!(reader.header().version, 4);
    let mut items = Vec::new();
    while let Some((_, item)) = reader.next_item().unwrap() {
        items.push(item);
    }
    assert_eq!(items.len(), 5_000);
    let issue = items[4_321].issue.as_ref().unwrap();
    assert_eq!(issue.id.as_deref(), Some("f-4321"));
    assert!(issue.remediation.is_some());
    // The same file as entries, for a diff.
    let (_, entries) = read_all(&bytes).unwrap();
    assert_eq!(entries.len(), 5_000);
    assert_eq!(entries[7].id, "f-7");
    assert_eq!(entries[7].severity.as_deref(), Some("high"));
    assert_eq!(entries[7].state.as_deref(), Some("open"));
    assert_eq!(entries[7].triaged_by.as_deref(), Some("ana"));
}

#[test]
fn entries_make_version_1_and_are_not_whole_findings() {
    let bytes = written(3);
    assert_eq!(&bytes[..8], b"FSNAP\x00\x01\n");
    let mut reader = Reader::new(&bytes[..]).unwrap();
    assert_eq!(reader.header().version, 1);
    assert!(matches!(
        reader.next_item(),
        Err(SnapshotError::FewFields(1))
    ));
    // One kind of line a file.
    let mut writer = Writer::new(Vec::new(), &header()).unwrap();
    writer.entry(&entry(1)).unwrap();
    assert!(writer.item(item_json(2).as_bytes()).is_err());
}

#[test]
fn a_stored_finding_is_read_back_by_its_position() {
    let dir = std::env::temp_dir().join(format!("snapshot-stored-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.fsnap");
    std::fs::write(&path, written_items(20_000)).unwrap();
    let mut reader =
        Reader::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap())).unwrap();
    let mut positions = Vec::new();
    while let Some((position, _)) = reader.next_item().unwrap() {
        positions.push(position);
    }
    let stored = Stored::open(&path).unwrap();
    // Out of the file's order, across blocks, and again.
    for n in [19_999, 0, 12_345, 7, 12_345, 19_998] {
        let item = stored.item(positions[n]).unwrap();
        assert_eq!(item.issue.unwrap().id, Some(format!("f-{n}")));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `file` (version 4) as the writer of `version` (3: deflate, 2: lz4)
/// wrote it: the same lines in the order written, the header saying it.
fn as_version(file: &[u8], version: u32) -> Vec<u8> {
    let mut input = &file[8..];
    let mut out = crate::write::magic(u16::try_from(version).unwrap()).to_vec();
    let mut first = true;
    while let Some((text, _)) = crate::read::read_block(&mut input, 4).unwrap() {
        let mut starts = crate::read::written_order(&text, 4).unwrap();
        let mut lines = Vec::new();
        for start in starts.drain(..) {
            let mut at = start;
            lines.extend_from_slice(crate::read::line_at(&text, &mut at).unwrap());
            lines.push(b'\n');
        }
        if first {
            let line = lines.iter().position(|&b| b == b'\n').unwrap();
            let header = String::from_utf8(lines[..line].to_vec()).unwrap();
            let header = header.replace("\"version\":4", &format!("\"version\":{version}"));
            lines.splice(..line, header.into_bytes());
            first = false;
        }
        let packed = if version == 3 {
            crate::write::deflated(&lines).unwrap()
        } else {
            lz4_flex::block::compress_prepend_size(&lines)
        };
        out.extend_from_slice(&u32::try_from(packed.len()).unwrap().to_le_bytes());
        out.extend_from_slice(&packed);
    }
    out
}

/// Files of versions 3 and 2 (whole findings in the order read, in
/// deflate and lz4 blocks, as written before) still read, through and by
/// position (the offline view).
#[test]
fn versions_3_and_2_still_read() {
    let dir = tempfile_dir("old-versions");
    let v4 = written_items(12_000);
    for version in [3, 2] {
        let path = dir.join(format!("v{version}.fsnap"));
        std::fs::write(&path, as_version(&v4, version)).unwrap();
        let mut reader =
            Reader::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap())).unwrap();
        assert_eq!(reader.header().version, version);
        let mut positions = Vec::new();
        while let Some((position, item)) = reader.next_item().unwrap() {
            let n = positions.len();
            assert_eq!(item.issue.unwrap().id, Some(format!("f-{n}")), "v{version}");
            positions.push(position);
        }
        assert_eq!(positions.len(), 12_000);
        let stored = Stored::open(&path).unwrap();
        for n in [11_999, 0, 6_001] {
            let item = stored.item(positions[n]).unwrap();
            assert_eq!(item.issue.unwrap().id, Some(format!("f-{n}")), "v{version}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fresh folder of this test run under the system's temporary folder.
fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("snapshot-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Findings of a few rules, each rule's text long and its own (as a
/// rule's description, references and remediation are), in no order.
fn item_of_rules(n: usize) -> String {
    let rule = (n * 7919) % 40;
    let mut text = String::new();
    for k in 0..60 {
        text.push_str(&format!(
            "rule {rule} says {} ",
            (rule * 31 + k * 17) % 1000
        ));
    }
    format!(r#"{{"issue":{{"id":"f-{n}","ruleId":"r-{rule}","message":"{text}","line":{n}}}}}"#)
}

/// Version 4 stores a block's findings rule by rule: smaller than the
/// order read, and read back in that order, by position too.
#[test]
fn version_4_stores_by_rule_and_reads_back_in_the_order_written() {
    let mut writer = Writer::new(Vec::new(), &header()).unwrap();
    for n in 0..6_000 {
        writer.item(item_of_rules(n).as_bytes()).unwrap();
    }
    let v4 = writer.finish().unwrap();
    let v3 = as_version(&v4, 3);
    assert!(
        v4.len() * 10 < v3.len() * 7,
        "v4 {} against v3 {}",
        v4.len(),
        v3.len()
    );
    let dir = tempfile_dir("by-rule");
    let path = dir.join("v4.fsnap");
    std::fs::write(&path, &v4).unwrap();
    let mut reader =
        Reader::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap())).unwrap();
    let mut positions = Vec::new();
    while let Some((position, item)) = reader.next_item().unwrap() {
        let n = i64::try_from(positions.len()).unwrap();
        assert_eq!(item.issue.unwrap().line, Some(n));
        positions.push(position);
    }
    assert_eq!(positions.len(), 6_000);
    // By position: where each line is stored, not where it was written.
    let stored = Stored::open(&path).unwrap();
    for n in [5_999, 0, 1, 2_345, 41, 2_345] {
        let item = stored.item(positions[n]).unwrap();
        assert_eq!(item.issue.unwrap().line, Some(i64::try_from(n).unwrap()));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The rule a line is stored under, however the server spaced its JSON;
/// a line without one is stored first.
#[test]
fn the_rule_of_a_line_is_read_as_spaced() {
    use crate::write::rule_id;
    assert_eq!(rule_id(br#"{"issue":{"ruleId":"r-1","x":1}}"#), b"r-1");
    assert_eq!(rule_id(br#"{"issue": {"ruleId" : "r-2"}}"#), b"r-2");
    assert_eq!(rule_id(br#"{"issue":{"id":"1"}}"#), b"");
    assert_eq!(rule_id(br#"{"ruleId":5}"#), b"");
}

/// A block whose order line does not name each line once is damaged.
#[test]
fn a_block_order_that_is_not_each_line_once_is_damaged() {
    use crate::read::written_order;
    let text = b"{\"order\":[1,0]}\nb\na\n";
    assert_eq!(written_order(text, 4).unwrap(), [18, 16]);
    for bad in [
        &b"{\"order\":[0,0]}\nb\na\n"[..],
        b"{\"order\":[0]}\nb\na\n",
        b"{\"order\":[2,0]}\nb\na\n",
        b"{\"order\":[1,0]}\nb\na",
        b"not an order\nb\na\n",
        format!("{{\"order\":[{}0]}}\n", "0,".repeat(MAX_LINE / 2)).as_bytes(),
    ] {
        let e = written_order(bad, 4).unwrap_err();
        assert!(e.to_string().starts_with("damaged snapshot"), "{e}");
    }
    // Before version 4 the lines are in the order written.
    assert_eq!(written_order(b"b\na\n", 3).unwrap(), [0, 2]);
}

/// A deflate block that unpacks to more than it says is damaged: nothing
/// past the size it gives is read out of it.
#[test]
fn a_deflate_block_bigger_than_it_says_is_damaged() {
    use std::io::Write;
    let mut header = header();
    header.version = 3;
    let mut text = serde_json::to_vec(&header).unwrap();
    text.push(b'\n');
    text.extend(std::iter::repeat_n(b' ', 900_000));
    let mut packed = (u32::try_from(text.len()).unwrap() / 2)
        .to_le_bytes()
        .to_vec();
    let mut encoder = flate2::write::DeflateEncoder::new(&mut packed, flate2::Compression::new(6));
    encoder.write_all(&text).unwrap();
    encoder.finish().unwrap();
    let mut file = crate::write::magic(3).to_vec();
    file.extend_from_slice(&u32::try_from(packed.len()).unwrap().to_le_bytes());
    file.extend_from_slice(&packed);
    let Err(e) = Reader::new(&file[..]) else {
        panic!("read a block bigger than it says");
    };
    assert!(e.to_string().contains("not the"), "{e}");
}

/// However short its lines, a block's order line stays a line a reader
/// takes: a block is written at [`crate::write::MAX_BLOCK_LINES`] lines.
#[test]
fn a_block_of_short_lines_keeps_its_order_line_within_a_line() {
    let mut writer = Writer::new(Vec::new(), &header()).unwrap();
    for _ in 0..150_000 {
        writer.item(b"{\"i\":1}").unwrap();
    }
    let file = writer.finish().unwrap();
    let mut input = &file[8..];
    let (mut blocks, mut lines) = (0, 0);
    while let Some((text, _)) = crate::read::read_block(&mut input, 4).unwrap() {
        let starts = crate::read::written_order(&text, 4).unwrap();
        assert!(starts.len() <= crate::write::MAX_BLOCK_LINES);
        blocks += 1;
        lines += starts.len();
    }
    // The header, the findings and the trailer, in three blocks.
    assert_eq!((blocks, lines), (3, 150_002));
}

/// An entry read with only the fields it needs (what `snapshot show` and
/// `diff` do) is the entry of the whole finding (every finding of the demo
/// is compared in `tests/it/cli_snapshots.rs`).
#[test]
fn an_entry_read_lightly_is_the_entry_of_the_whole_finding() {
    use findings_model::IssueItem;
    let item = item_json(7);
    let whole: IssueItem = findings_base::json::decode(item.as_bytes()).unwrap();
    let light: findings_model::listed::ListedItem =
        findings_base::json::decode(item.as_bytes()).unwrap();
    let entry = Entry::of(&IssueItem::from(light)).unwrap();
    assert_eq!(Entry::of(&whole), Some(entry.clone()));
    assert_eq!(entry.triaged_by.as_deref(), Some("ana"));
    assert_eq!(entry.path.as_deref(), Some("src/file_7.rs"));
}
