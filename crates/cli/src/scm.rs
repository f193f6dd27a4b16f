//! `findings scm list`: the SCM configs with their current values
//! (docs/src/api.md §15). `findings scm update`: a partial update of an SCM
//! config (docs/src/api.md §14), shown and confirmed before it is sent, never
//! retried, and its answer checked against what was asked.

use super::destination::OutputFile;
use super::scripting::{self, Script, ScriptArgs, Sink};
use super::write::{self, Confirmation, Go};
use super::{Failure, UsageError, offer};
use clap::{Args, Subcommand, ValueEnum, ValueHint};
use findings_client::Client;
use findings_export::{Format, Writer};
use findings_model::*;
use std::io::{Read, Write};

#[derive(Subcommand, Debug)]
pub enum ScmCommand {
    /// List the SCM configs with their current values
    List(ListArgs),
    /// Update an SCM config: only the fields given are sent
    Update(UpdateArgs),
}

#[derive(Args, Debug)]
pub struct ListArgs {
    /// Output format: table, json, ndjson, csv or markdown (default:
    /// FINDINGS_FORMAT, else table on a terminal, else ndjson)
    #[arg(long, value_name = "FORMAT",
          value_parser = offer(FORMATS.iter().map(|f| f.name())), hide_possible_values = true)]
    format: Option<String>,
    #[command(flatten)]
    pub(super) file: OutputFile,
    #[command(flatten)]
    pub(super) script: ScriptArgs,
}

/// The formats of SCM configs: every listing format but SARIF (a config is
/// no finding).
const FORMATS: [Format; 5] = [
    Format::Table,
    Format::Json,
    Format::Ndjson,
    Format::Csv,
    Format::Markdown,
];

impl ListArgs {
    /// The format asked for (checked before anything is sent).
    pub fn format(&self) -> Result<Format, UsageError> {
        scripting::format(self.format.as_deref(), &self.file, &self.script, &FORMATS)
    }
}

/// Every config of the deployment (all pages), in `format`; returns how
/// many were printed (for `--exit-code`).
pub async fn list(
    client: &Client,
    format: Format,
    args: &ListArgs,
    script: &Script,
) -> Result<usize, Failure> {
    let configs = findings_client::all_scm_configs(
        client,
        ListScmConfigsRequest::default(),
        findings_client::MAX_SCM_CONFIGS,
    )
    .await?;
    let file = &args.file;
    let width = super::listing::output_width(file);
    let mut sink = Sink::new::<ScmConfig>(file.open()?, format, width, script, file.is_terminal());
    for config in &configs {
        sink.item(config)?;
    }
    sink.settle()?;
    let matched = sink.matched();
    sink.finish()?.finish()?;
    if configs.is_empty() && format == Format::Table {
        eprintln!("findings: the deployment lists no SCM configs");
    }
    Ok(matched)
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

impl OnOff {
    fn as_bool(self) -> bool {
        self == OnOff::On
    }
}

#[derive(Args, Debug)]
pub struct UpdateArgs {
    /// Id of the SCM config
    #[arg(value_hint = ValueHint::Other)]
    config_id: String,
    /// Scan repositories automatically
    #[arg(long, value_name = "on|off")]
    auto_scan: Option<OnOff>,
    /// Reach the SCM through the network broker
    #[arg(long, value_name = "on|off")]
    network_broker: Option<OnOff>,
    /// Namespace (organization or group) of the config
    #[arg(long, value_name = "NS", value_hint = ValueHint::Other)]
    namespace: Option<String>,
    /// Subscribe to the SCM's webhooks
    #[arg(long, value_name = "on|off")]
    subscribe: Option<OnOff>,
    /// Diff-aware scans of pull requests
    #[arg(long, value_name = "on|off")]
    diff_scan: Option<OnOff>,
    /// Read a new SCM access token from standard input
    #[arg(long)]
    access_token_stdin: bool,
    /// Send without asking for confirmation
    #[arg(long, short = 'y')]
    yes: bool,
    #[command(flatten)]
    dry_run: write::DryRunArg,
    /// Output format of the updated config: table (on a terminal: every
    /// value, readable), json (indented), ndjson (one line), csv or
    /// markdown (default: FINDINGS_FORMAT, else table on a terminal, else
    /// ndjson)
    #[arg(long, value_name = "FORMAT",
          value_parser = offer(FORMATS.iter().map(|f| f.name())), hide_possible_values = true)]
    format: Option<String>,
    #[command(flatten)]
    pub(super) file: OutputFile,
}

pub struct Prepared {
    config_id: String,
    patch: ScmConfigPatch,
    /// Asked, `--yes` or `--dry-run` (a token read from stdin: the
    /// question goes to the tty).
    confirmation: Confirmation,
    format: Format,
    file: OutputFile,
}

/// Checks the flags and builds the body; reads the token. Sends nothing.
pub fn prepare(args: UpdateArgs) -> Result<Prepared, Failure> {
    let format = scripting::format(
        args.format.as_deref(),
        &args.file,
        &ScriptArgs::default(),
        &FORMATS,
    )?;
    let config_id = args.config_id.trim().to_owned();
    if config_id.is_empty() {
        return Err(Failure::Usage("CONFIG_ID must not be empty".into()));
    }
    if let Some(ns) = &args.namespace
        && ns.trim().is_empty()
    {
        return Err(Failure::Usage("--namespace must not be empty".into()));
    }
    let mut patch = ScmConfigPatch {
        auto_scan: args.auto_scan.map(OnOff::as_bool),
        use_network_broker: args.network_broker.map(OnOff::as_bool),
        namespace: args.namespace.map(|n| n.trim().to_owned()),
        subscribe: args.subscribe.map(OnOff::as_bool),
        auto_scan_settings: args.diff_scan.map(|d| AutoScanSettings {
            diff_enabled: Some(d.as_bool()),
        }),
        ..Default::default()
    };
    if args.access_token_stdin {
        let mut token = String::new();
        std::io::stdin()
            .take(64 * 1024)
            .read_to_string(&mut token)
            .map_err(|e| {
                Failure::Runtime(format!("cannot read the access token from stdin: {e}"))
            })?;
        let token = token.trim();
        if token.is_empty() {
            return Err(Failure::Usage(
                "--access-token-stdin: standard input was empty".into(),
            ));
        }
        // A secret from here on: masked in everything this process prints.
        findings_base::redact::register(token);
        patch.access_token = Some(token.to_owned());
    }
    if !patch.has_changes() {
        return Err(Failure::Usage(
            "nothing to change: give at least one of --auto-scan, --network-broker, --namespace, --subscribe, --diff-scan, --access-token-stdin".into(),
        ));
    }
    Ok(Prepared {
        config_id,
        patch,
        confirmation: Confirmation {
            yes: args.yes,
            dry_run: args.dry_run.dry_run,
            stdin_used: args.access_token_stdin,
        },
        format,
        file: args.file,
    })
}

pub async fn run(client: &Client, p: Prepared, demo: bool) -> Result<(), Failure> {
    let shown = ScmConfigPatch {
        deployment_id: Some(client.deployment().to_owned()),
        config_id: Some(p.config_id.clone()),
        ..p.patch.clone()
    };
    eprintln!(
        "PATCH /api/scm/deployments/{}/configs/{}",
        client.deployment(),
        findings_base::text::one_line(&p.config_id)
    );
    eprintln!(
        "{}",
        findings_base::json::pretty(&shown.masked_json()).unwrap_or_default()
    );
    if p.confirmation.ask("Send this update?", demo)? == Go::DryRun {
        return Ok(());
    }
    let response = client
        .update_scm_config(&p.config_id, &p.patch)
        .await
        .map_err(|e| write::failed(e, "the update"))?;
    // The config as `scm list` gives it (never the answer's wrapper).
    match &response.config {
        Some(config) => {
            let mut out = p.file.open()?;
            match p.format {
                Format::Table => write!(out, "{}", describe(config))?,
                Format::Json => findings_base::json::write_pretty(&mut out, config)?,
                format => {
                    let width = super::listing::output_width(&p.file);
                    let mut writer = Writer::new::<ScmConfig>(out, format, width);
                    writer.item(config)?;
                    out = writer.finish()?;
                }
            }
            out.finish()?;
        }
        None => eprintln!("findings: updated; the server returned no config"),
    }
    // What was asked against what came back (docs/src/api.md §14).
    let unapplied = match &response.config {
        Some(config) => update_mismatches(&p.patch, None, config),
        None => Vec::new(),
    };
    if unapplied.is_empty() {
        Ok(())
    } else {
        let said: Vec<String> = unapplied
            .iter()
            .map(|m| findings_base::text::one_line(m).into_owned())
            .collect();
        Err(Failure::Runtime(format!(
            "the server answered but did not apply the update as asked: {}",
            said.join("; ")
        )))
    }
}

/// A readable view of a config (never a token: the API returns none).
pub fn describe(c: &ScmConfig) -> String {
    use findings_base::text::one_line;
    let s = |v: &Option<String>| one_line(v.as_deref().unwrap_or("-")).into_owned();
    let b = |v: Option<bool>| match v {
        Some(true) => "on",
        Some(false) => "off",
        None => "-",
    };
    let t = |v: &Option<Timestamp>| {
        v.map_or("-".to_owned(), |t| {
            t.format("%Y-%m-%d %H:%M UTC").to_string()
        })
    };
    let mut out = String::new();
    let mut line = |k: &str, v: String| out.push_str(&format!("{k:<22}{v}\n"));
    line("id", s(&c.id));
    line(
        "type",
        c.scm_type
            .as_ref()
            .map_or("-".into(), |t| t.label().to_owned()),
    );
    line("namespace", s(&c.namespace));
    line("base URL", s(&c.base_url));
    line("source id", s(&c.source_id));
    line("SCM id", s(&c.scm_id));
    line("installed", b(c.installed).into());
    line("suspended", b(c.suspended).into());
    if let Some(e) = &c.host_a_entity_type {
        line("entity type", e.label().to_owned());
    }
    line("auto scan", b(c.auto_scan).into());
    line(
        "diff scans",
        b(c.auto_scan_settings.as_ref().and_then(|a| a.diff_enabled)).into(),
    );
    line("network broker", b(c.use_network_broker).into());
    line(
        "access token",
        if c.has_access_token == Some(true) {
            "set".into()
        } else {
            "not set".into()
        },
    );
    line("last successful sync", t(&c.last_successful_sync_at));
    if let Some(st) = &c.status {
        let health = match st.ok {
            Some(true) => "ok".to_owned(),
            Some(false) => format!("failing: {}", s(&st.error)),
            None => "-".to_owned(),
        };
        line("status", format!("{health} (checked {})", t(&st.checked)));
    }
    if let Some(app) = &c.app {
        line(
            "app",
            format!(
                "{} ({}), code access {}",
                s(&app.slug),
                s(&app.app_id),
                b(app.code_access)
            ),
        );
    }
    if let Some(scopes) = &c.token_scopes {
        let list: Vec<String> = scopes
            .entries()
            .iter()
            .map(|(name, on)| format!("[{}] {name}", if *on { "x" } else { " " }))
            .collect();
        line("token scopes", list.join("  "));
    }
    if c.subscriptions.is_empty() {
        line("subscriptions", "none".into());
    }
    for sub in &c.subscriptions {
        line(
            "subscription",
            format!("{} ({})", s(&sub.scm_url), one_line(&sub.events.join(", "))),
        );
    }
    out
}
