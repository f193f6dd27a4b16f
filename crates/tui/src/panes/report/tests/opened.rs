//! "This period" in the Report pane (issue 49, point 4): with a period,
//! the findings opened in it are counted (one request in the Dashboard
//! slot, with the period's filters), the counts' charts show the rules
//! opened beside the backlog at the end, each titled with its basis, and
//! the rules view lists them most opened first with the still open and
//! the backlog beside; for all time, nothing is counted and the titles
//! say all time. A supply-chain rule is named by its advisory and
//! package (point 3), asked of one of its findings where no page told.

use super::super::dashboard::Block;
use super::super::*;
use super::{loaded, screen};
use crate::message::{DashboardAnswer, DashboardReport};
use crate::pane::testing::Drive;

fn opened_asked(outbox: &Outbox) -> Vec<(RequestId, ReportFilters)> {
    outbox
        .requests()
        .into_iter()
        .filter_map(|(id, r)| match r {
            ApiRequest::Opened(f) => Some((id, f.clone())),
            _ => None,
        })
        .collect()
}

fn dashboard_asked(outbox: &Outbox, report: DashboardReport) -> Option<RequestId> {
    outbox
        .requests()
        .into_iter()
        .filter_map(|(id, r)| match r {
            ApiRequest::Dashboard(of, _) if *of == report => Some(id),
            _ => None,
        })
        .next_back()
}

/// What was opened: `ssc-1` (Log4Shell) 5 opened, 1 still open;
/// `a.b.use-of-md5` 3 opened, 3 still open; in two repositories.
fn opened_answer() -> OpenedInPeriod {
    let finding = |rule: &str, repo: &str| -> TallyIssue {
        let sca = if rule.starts_with("ssc-") {
            r#","scaAttributes":{"vulnDatabaseIdentifier":"CVE-2021-44228","foundDependency":{"package":"org.apache.logging.log4j:log4j-core"}}"#
        } else {
            ""
        };
        findings_base::json::decode(
            format!(r#"{{"ruleId":"{rule}","repository":{{"name":"{repo}"}}{sca}}}"#).as_bytes(),
        )
        .unwrap()
    };
    let mut opened = Tally::default();
    let mut still = Tally::default();
    let mut labels = RuleLabels::default();
    for (rule, repo, n, open) in [
        ("ssc-1", "acme/a", 5, 1),
        ("a.b.use-of-md5", "acme/b", 3, 3),
    ] {
        for i in 0..n {
            let f = finding(rule, repo);
            opened.add(&f);
            if i < open {
                still.add(&f);
            }
            labels.note_tallied(&f);
        }
    }
    opened.total = Some(8);
    still.total = Some(4);
    OpenedInPeriod {
        period: None,
        opened,
        still_open: still,
        labels,
    }
}

fn backlog_by_rule() -> DashboardAnswer {
    let open = [("ssc-1", 7), ("a.b.use-of-md5", 40), ("x.y.other", 50)]
        .into_iter()
        .map(|(k, n)| (k.to_owned(), Count(Some(n))))
        .collect();
    DashboardAnswer::BacklogByRule(BacklogByRuleReport {
        buckets: vec![RuleBucket {
            time_period: None,
            open,
        }],
    })
}

#[test]
fn with_a_period_the_rules_opened_in_it_stand_beside_the_backlog_at_its_end() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    // All time: nothing opened is asked for, the chart says all time.
    assert!(opened_asked(&outbox).is_empty());
    let id = dashboard_asked(&outbox, DashboardReport::BacklogByRule).unwrap();
    pane.reply(
        id,
        Ok(ApiResponse::Dashboard(backlog_by_rule())),
        &mut outbox,
    );
    let shown = screen(200, 40, pane.clone());
    assert!(
        shown.contains("Top rules · all 97 open (all time)"),
        "{shown}"
    );

    // 7 days: the period's findings opened are asked for, in the
    // Dashboard slot, bounded by the period (no bucket).
    pane.act(Action::CyclePeriod, 20, &mut outbox);
    let asked = opened_asked(&outbox);
    assert_eq!(asked.len(), 1, "{asked:?}");
    let (id, filters) = &asked[0];
    assert_eq!(Slot::of(outbox.slot_of(*id)), Slot::Dashboard);
    let period = filters.time_period.clone().unwrap();
    assert_eq!(period.since, pane.since);
    assert_eq!(period.until, pane.until);
    assert_eq!(
        period.until.unwrap() - period.since.unwrap(),
        chrono::Duration::days(7)
    );
    assert_eq!(filters.time_bucket_size, None);
    pane.reply(
        *id,
        Ok(ApiResponse::Opened(Box::new(opened_answer()))),
        &mut outbox,
    );
    let id = dashboard_asked(&outbox, DashboardReport::BacklogByRule).unwrap();
    pane.reply(
        id,
        Ok(ApiResponse::Dashboard(backlog_by_rule())),
        &mut outbox,
    );
    let end = pane.end_day(false);
    let shown = screen(200, 40, pane.clone());
    for title in [
        "Top rules · opened 7d (4 of 8 open)".to_owned(),
        format!("Top rules · open at {end}: 97"),
    ] {
        assert!(shown.contains(&title), "{title} in\n{shown}");
    }
    // The supply-chain rule as its findings name it, in both charts.
    assert!(shown.matches("CVE-2021-44228 org.").count() >= 2, "{shown}");

    // The rules view: most opened first, with the still open and the
    // backlog at the end beside, under a line naming them with dates.
    pane.dashboard.choose(Block::Rules);
    let shown = screen(120, 40, pane.clone());
    assert!(
        shown.contains("opened in last 7 days: 8, still open 4 · open at"),
        "{shown}"
    );
    assert!(shown.contains("opened  still at end  rule"), "{shown}");
    let rows: Vec<&str> = shown
        .lines()
        .filter(|l| l.contains("CVE-2021-44228") || l.contains("use-of-md5") || l.contains("other"))
        .filter(|l| !l.contains("Top rules"))
        .collect();
    assert!(
        rows[0]
            .contains("     5      1      7  CVE-2021-44228 org.apache.logging.log4j:log4j-core"),
        "{rows:#?}"
    );
    assert!(
        rows[1].contains("     3      3     40  use-of-md5"),
        "{rows:#?}"
    );
    assert!(rows[2].contains("     0      0     50  other"), "{rows:#?}");
}

#[test]
fn a_supply_chain_rule_no_page_named_is_asked_of_one_of_its_findings() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.act(Action::NextReportView, 20, &mut outbox);
    let id = dashboard_asked(&outbox, DashboardReport::BacklogByRule).unwrap();
    pane.reply(
        id,
        Ok(ApiResponse::Dashboard(backlog_by_rule())),
        &mut outbox,
    );
    // The filter values say `ssc-1` is an advisory's (and name it by the
    // advisory alone).
    let values: IssueFiltersResponse = findings_base::json::decode(
        br#"{"rules":[{"id":"ssc-1","name":"Log4j2 JNDI lookups allow remote code execution","scaCve":"CVE-2021-44228"},
                      {"id":"a.b.use-of-md5","name":"Weak hash"}]}"#,
    )
    .unwrap();
    let id = outbox
        .requests()
        .into_iter()
        .find_map(|(id, r)| matches!(r, ApiRequest::IssueFilters(_)).then_some(id))
        .unwrap();
    pane.reply(id, Ok(ApiResponse::IssueFilters(values)), &mut outbox);
    assert_eq!(pane.rule_shown("ssc-1"), "CVE-2021-44228");
    let labels: Vec<(RequestId, Vec<String>)> = outbox
        .requests()
        .into_iter()
        .filter_map(|(id, r)| match r {
            ApiRequest::RuleLabels(ids) => Some((id, ids.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(labels.len(), 1, "once");
    assert_eq!(labels[0].1, ["ssc-1"]);
    pane.reply(
        labels[0].0,
        Ok(ApiResponse::RuleLabels(vec![(
            "ssc-1".into(),
            "CVE-2021-44228 org.apache.logging.log4j:log4j-core".into(),
        )])),
        &mut outbox,
    );
    assert_eq!(
        pane.rule_shown("ssc-1"),
        "CVE-2021-44228 org.apache.logging.log4j:log4j-core"
    );
    assert_eq!(pane.rule_shown("a.b.use-of-md5"), "Weak hash");
    pane.dashboard.choose(Block::Rules);
    let shown = screen(100, 40, pane.clone());
    assert!(
        shown.contains("CVE-2021-44228 org.apache.logging.log4j:log4j-core"),
        "{shown}"
    );
    assert!(!shown.contains("ssc-1"), "{shown}");
}
