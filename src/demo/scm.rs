//! SCM config PATCH semantics of the demo (docs/api.md §14): a partial update;
//! absent fields are left as they are.

use crate::api::model::*;
use chrono::{DateTime, Utc};

pub fn apply_patch(config: &mut ScmConfig, patch: &ScmConfigPatch, now: DateTime<Utc>) {
    if let Some(v) = patch.auto_scan {
        config.auto_scan = Some(v);
    }
    if let Some(v) = patch.use_network_broker {
        config.use_network_broker = Some(v);
    }
    if let Some(ns) = &patch.namespace {
        config.namespace = Some(ns.clone());
    }
    if let Some(diff) = patch
        .auto_scan_settings
        .as_ref()
        .and_then(|s| s.diff_enabled)
    {
        config
            .auto_scan_settings
            .get_or_insert_with(AutoScanSettings::default)
            .diff_enabled = Some(diff);
    }
    if let Some(subscribe) = patch.subscribe {
        if subscribe {
            if config.subscriptions.is_empty() {
                let base = config.base_url.clone().unwrap_or_default();
                let ns = config.namespace.clone().unwrap_or_default();
                config.subscriptions.push(Subscription {
                    scm_url: Some(format!("{base}/{ns}")),
                    events: vec!["push".into(), "pull_request".into()],
                });
            }
        } else {
            config.subscriptions.clear();
        }
    }
    if patch.access_token.is_some() {
        // The token itself is never stored or returned; only that one exists.
        config.has_access_token = Some(true);
        config.status = Some(ScmStatus {
            checked: Some(now),
            ok: Some(true),
            error: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_fields_are_left_unchanged() {
        let mut c = ScmConfig {
            auto_scan: Some(true),
            namespace: Some("acme".into()),
            use_network_broker: Some(false),
            ..ScmConfig::default()
        };
        let patch = ScmConfigPatch {
            use_network_broker: Some(true),
            auto_scan_settings: Some(AutoScanSettings {
                diff_enabled: Some(true),
            }),
            ..ScmConfigPatch::default()
        };
        apply_patch(&mut c, &patch, Utc::now());
        assert_eq!(c.auto_scan, Some(true));
        assert_eq!(c.namespace.as_deref(), Some("acme"));
        assert_eq!(c.use_network_broker, Some(true));
        assert_eq!(
            c.auto_scan_settings.and_then(|s| s.diff_enabled),
            Some(true)
        );
    }

    #[test]
    fn a_new_token_is_never_stored() {
        let mut c = ScmConfig::default();
        let patch = ScmConfigPatch {
            access_token: Some("scm-secret".into()),
            ..Default::default()
        };
        apply_patch(&mut c, &patch, Utc::now());
        assert_eq!(c.has_access_token, Some(true));
        assert!(!serde_json::to_string(&c).unwrap().contains("scm-secret"));
    }
}
