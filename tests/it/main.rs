//! Every integration test, in one binary: the crate and its dependencies are
//! linked once instead of once per file.

// Measuring and test code, not shipped: its casts turn a test's small
// counts and sizes into figures (issue 52 holds for the product's crates).
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
// Test harness, not shipped: the harness signals, waits on and watches its children (kill, waitpid, inotify). The product's only
// unsafe code is findings_base::sys (the architecture test keeps it so).
#![allow(unsafe_code)]

mod common;

mod architecture;
mod book;
mod cli;
mod cli_advisories;
mod cli_auth;
mod cli_ci;
mod cli_columns;
mod cli_dry_run;
mod cli_expiry;
mod cli_gate;
mod cli_gate_book;
mod cli_help;
mod cli_lists;
mod cli_names;
mod cli_offline;
mod cli_opened;
mod cli_scm;
mod cli_scripting;
mod cli_snapshots;
mod cli_summary;
mod cli_triage;
mod cli_views;
mod client_faults;
mod config;
mod contract;
mod contract_actions;
mod contract_counts;
mod contract_groups;
mod contract_issue_filters;
mod contract_reads;
mod contract_reports;
mod contract_scm;
mod contract_triage;
mod decode;
mod demo_props;
mod demo_refs;
mod demo_strict;
mod doc_examples;
mod doc_screens;
mod fail_closed;
mod faults_headless;
mod faults_tui;
mod handoff;
mod headless_actions;
mod hostile;
mod hostile_more;
mod pty;
mod published;
mod readme;
mod reference;
mod tables_fit;
mod terminal_safety;
mod tui_actions;
mod tui_command_line;
mod tui_counts;
mod tui_export_columns;
mod tui_filter_values;
mod tui_flows;
mod tui_groups;
mod tui_keys;
mod tui_load_all;
mod tui_loaded_whole;
mod tui_offline;
mod tui_open_age;
mod tui_props;
mod tui_questions;
mod tui_since;
mod tui_snapshots;
mod tui_triage;
mod tui_triage_bound;
mod tui_triage_history;
mod tui_views;
mod tutorial;
