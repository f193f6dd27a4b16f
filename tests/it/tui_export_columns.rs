//! The TUI's export (`e`) in the columns of the export catalog: by
//! default the finding's id and the columns the list shows, in its order;
//! an edited list (names and presets) written as typed; an unknown name
//! said in the prompt; the prompt drawn whole on small terminals.

use crate::common::Harness;
use crossterm::event::KeyCode;
use findings_tui::app::Overlay;
use findings_tui::widgets::findings_table::{DateColumn, export_columns};

fn columns_typed(h: &Harness) -> String {
    let Some(Overlay::Export(prompt)) = &h.app.overlay else {
        panic!("the export prompt is open");
    };
    prompt.columns.value().to_owned()
}

/// Replaces the line the prompt edits with `text`.
fn retype(h: &mut Harness, text: &str) {
    h.ctrl('u');
    h.keys(text);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_export_writes_the_lists_columns_unless_told_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::new(300, 120, 35).await;
    h.start().await;
    // The Issues list: its columns, after the id, in its order.
    let list = export_columns(DateColumn::RelevantSince, true);
    assert_eq!(
        list,
        [
            "severity",
            "state",
            "age",
            "rule",
            "repository",
            "location",
            "relevant_since"
        ]
    );
    let screen = h.screen();
    let header = screen
        .lines()
        .find(|l| l.contains("SEVERITY"))
        .expect("the list's header");
    let at = |title: &str| {
        header
            .find(title)
            .unwrap_or_else(|| panic!("{title}: {header}"))
    };
    let shown = [
        "SEVERITY",
        "STATE",
        "AGE",
        "RULE",
        "REPOSITORY",
        "PATH:LINE",
        "SINCE",
    ];
    assert!(shown.windows(2).all(|w| at(w[0]) < at(w[1])), "{header}");
    h.key(KeyCode::Char('e'));
    let expected = format!("id,{}", list.join(","));
    assert_eq!(columns_typed(&h), expected);
    let path = dir.path().join("shown.csv");
    retype(&mut h, path.to_str().unwrap());
    h.key(KeyCode::Enter);
    h.settle().await;
    let csv = std::fs::read_to_string(&path).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(expected.as_str()));
    assert_eq!(lines.count(), h.app.issues().list.len());

    // Changed: a preset and a name, the columns line reached with ↓.
    h.key(KeyCode::Char('e'));
    let path = dir.path().join("leadership.csv");
    retype(&mut h, path.to_str().unwrap());
    h.key(KeyCode::Down);
    retype(&mut h, "leadership, url");
    h.key(KeyCode::Enter);
    h.settle().await;
    let csv = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        csv.lines().next(),
        Some(
            "id,severity,state,rule,repository,first_detected,age,days_over_target,ticket,owner_team,url"
        )
    );

    // The next export of this pane offers the columns last written.
    h.key(KeyCode::Char('e'));
    assert_eq!(columns_typed(&h), "leadership, url");
    h.key(KeyCode::Esc);

    // An unknown name: said, nothing written, the prompt still open.
    h.key(KeyCode::Char('e'));
    let path = dir.path().join("typo.csv");
    retype(&mut h, path.to_str().unwrap());
    h.key(KeyCode::Down);
    retype(&mut h, "id,sevrity");
    h.key(KeyCode::Enter);
    h.settle().await;
    let Some(Overlay::Export(prompt)) = &h.app.overlay else {
        panic!("the prompt stays open");
    };
    let error = prompt.error.clone().unwrap();
    assert!(error.contains("did you mean severity?"), "{error}");
    assert!(h.screen().contains("did you mean severity?"));
    assert!(!path.exists());
    h.key(KeyCode::Esc);

    // The Report pane: its list's columns (the creation date).
    h.key(KeyCode::Char('1'));
    h.settle().await;
    h.key(KeyCode::Char('e'));
    assert_eq!(
        columns_typed(&h),
        "id,severity,state,rule,repository,location,created"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_export_prompt_is_drawn_whole_on_small_terminals() {
    for (w, height) in [(60, 20), (80, 24), (100, 30)] {
        let mut h = Harness::new(100, w, height).await;
        h.start().await;
        h.key(KeyCode::Char('e'));
        h.key(KeyCode::Down);
        h.keys(",all");
        let screen = h.screen();
        let lines: Vec<&str> = screen.lines().collect();
        assert_eq!(lines.len(), usize::from(height), "{screen}");
        for line in &lines {
            assert!(
                line.chars().count() <= usize::from(w),
                "{w}x{height}: {line}"
            );
        }
        for part in [
            "shown findings",
            "Format",
            "File",
            "Columns",
            "never overwritten",
            "Esc cancel",
        ] {
            assert!(screen.contains(part), "{w}x{height}: {part}\n{screen}");
        }
        // The prompt's box is closed on both sides of each of its lines.
        let rows: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.contains("│Columns"))
            .collect();
        assert_eq!(rows.len(), 1, "{screen}");
        let after = rows[0].split("│Columns").nth(1).unwrap();
        assert!(after.contains('│'), "{w}x{height}: {screen}");
    }
}
