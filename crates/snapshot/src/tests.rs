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
        bytes.extend((packed.len() as u32).to_le_bytes());
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
fn whole_findings_make_version_3_and_read_back_whole_and_as_entries() {
    let bytes = written_items(5_000);
    assert_eq!(&bytes[..8], b"FSNAP\x00\x03\n");
    let mut reader = Reader::new(&bytes[..]).unwrap();
    assert_eq!(reader.header().version, 3);
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

/// A version 2 file (whole findings in lz4 blocks, as written before)
/// still reads; version 3's deflate blocks are a fraction of it.
#[test]
fn a_version_2_file_still_reads_and_version_3_is_smaller() {
    // Version 2 as its writer wrote it: the same blocks in lz4, the header
    // saying 2.
    let v3 = written_items(2_000);
    let mut input = &v3[8..];
    let mut v2 = crate::write::magic(2).to_vec();
    let mut first = true;
    while let Some((mut text, _)) = crate::read::read_block(&mut input, 3).unwrap() {
        if first {
            let line = text.iter().position(|&b| b == b'\n').unwrap();
            let header = String::from_utf8(text[..line].to_vec()).unwrap();
            let header = header.replace("\"version\":3", "\"version\":2");
            text.splice(..line, header.into_bytes());
            first = false;
        }
        let packed = lz4_flex::block::compress_prepend_size(&text);
        v2.extend_from_slice(&(packed.len() as u32).to_le_bytes());
        v2.extend_from_slice(&packed);
    }
    let mut reader = Reader::new(&v2[..]).unwrap();
    assert_eq!(reader.header().version, 2);
    let mut n = 0;
    while let Some((_, item)) = reader.next_item().unwrap() {
        assert_eq!(item.issue.unwrap().id, Some(format!("f-{n}")));
        n += 1;
    }
    assert_eq!(n, 2_000);
    assert!(
        v3.len() * 10 < v2.len() * 6,
        "v3 {} against v2 {}",
        v3.len(),
        v2.len()
    );
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
    let mut packed = (text.len() as u32 / 2).to_le_bytes().to_vec();
    let mut encoder = flate2::write::DeflateEncoder::new(&mut packed, flate2::Compression::new(6));
    encoder.write_all(&text).unwrap();
    encoder.finish().unwrap();
    let mut file = crate::write::magic(3).to_vec();
    file.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    file.extend_from_slice(&packed);
    let Err(e) = Reader::new(&file[..]) else {
        panic!("read a block bigger than it says");
    };
    assert!(e.to_string().contains("not the"), "{e}");
}
