//! `findings` with stdout piped: a summary instead of the TUI.

use super::output::terminal_width;
use super::report::totals_line;
use crate::Failure;
use findings_client::Client;
use findings_export::{Format, Writer};
use findings_model::*;

/// `findings` with no subcommand, until the TUI lands: the report totals and
/// the most severe open findings.
pub async fn overview(client: &Client) -> Result<(), Failure> {
    let report = client
        .report_findings(&ReportRequest {
            limit: Some(15),
            ..Default::default()
        })
        .await?;
    println!(
        "Deployment {} at {}",
        client.deployment(),
        client.base_url()
    );
    println!("Open findings: {}\n", totals_line(&report.totals()));
    let mut writer =
        Writer::new::<Issue>(std::io::stdout().lock(), Format::Table, terminal_width());
    for issue in &report.findings {
        writer.item(issue)?;
    }
    drop(writer.finish()?);
    println!("\nMore: findings issues --help, findings report --help, findings search --help");
    Ok(())
}
