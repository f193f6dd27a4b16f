//! The HTTP client of the platform's API: requests, cursor pagination,
//! retries of reads, and errors that say what happened. Over the model.

pub mod by_id;
pub mod client;
pub mod cursor_guard;
pub mod decoded;
pub mod error;
pub mod opened;
pub mod paginate;
pub mod peek;
pub mod retry;
pub mod transport;

pub use by_id::{issues_by_id, items_by_id};
pub use client::{Client, ClientConfig, install_crypto_provider};
pub use cursor_guard::{CursorGuard, DEFAULT_MAX_PAGES};
pub use decoded::FromAnswer;
pub use error::{ApiError, ConnectFailure, ConnectKind, ServerMessage, WriteOutcome};
pub use findings_base::token::Token;
pub use opened::{TallyReportRequest, advisory_labels, opened_in_period};
pub use paginate::{
    Follow, ListedReportRequest, ListedRequest, MAX_SCM_CONFIGS, Page, PagedRequest, PagesAs,
    SarifReportRequest, SarifRequest, all_scm_configs, collect_issues, issue_counts_listed, pages,
    pages_following, pages_up_to,
};
pub use retry::RetryPolicy;
