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
    assert!(matches!(read_all(&huge), Err(SnapshotError::Damaged(_))));
}

#[test]
fn a_newer_version_is_refused_by_name() {
    let mut bytes = written(1);
    bytes[7] = 9;
    assert!(matches!(read_all(&bytes), Err(SnapshotError::Newer(_))));
}
