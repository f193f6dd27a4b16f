//! How many open findings are past their open-age target, by severity:
//! what the worker answers for the Report's open-age view
//! (`runtime::over_target`). The counting is the model's
//! ([`OverTargetCounts::add`]), which `report --kind summary` shares.

pub use findings_model::OverTargetCounts;
