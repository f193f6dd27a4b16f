//! Update SCM config: the PATCH body (partial, docs/api.md §14) and the config.

use super::enums::*;
use super::wire::{self, Timestamp};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The PATCH body. Only fields the user changed are `Some` (docs/api.md §14).
/// `access_token` is a secret: `Debug` masks it; serialise only to send.
#[skip_serializing_none]
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ScmConfigPatch {
    pub deployment_id: Option<String>,
    pub config_id: Option<String>,
    pub access_token: Option<String>,
    pub auto_scan: Option<bool>,
    pub use_network_broker: Option<bool>,
    pub namespace: Option<String>,
    pub subscribe: Option<bool>,
    pub auto_scan_settings: Option<AutoScanSettings>,
}

impl ScmConfigPatch {
    /// The body as JSON with the access token replaced by `***`, for review
    /// screens and confirmations.
    pub fn masked_json(&self) -> serde_json::Value {
        let mut shown = self.clone();
        if shown.access_token.is_some() {
            shown.access_token = Some("***".into());
        }
        serde_json::to_value(&shown).unwrap_or(serde_json::Value::Null)
    }

    /// Whether the patch changes anything besides the ids.
    pub fn has_changes(&self) -> bool {
        self.access_token.is_some()
            || self.auto_scan.is_some()
            || self.use_network_broker.is_some()
            || self.namespace.is_some()
            || self.subscribe.is_some()
            || self.auto_scan_settings.is_some()
    }
}

impl std::fmt::Debug for ScmConfigPatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScmConfigPatch")
            .field("deployment_id", &self.deployment_id)
            .field("config_id", &self.config_id)
            .field("access_token", &self.access_token.as_ref().map(|_| "***"))
            .field("auto_scan", &self.auto_scan)
            .field("use_network_broker", &self.use_network_broker)
            .field("namespace", &self.namespace)
            .field("subscribe", &self.subscribe)
            .field("auto_scan_settings", &self.auto_scan_settings)
            .finish()
    }
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AutoScanSettings {
    pub diff_enabled: Option<bool>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ScmConfigResponse {
    pub config: Option<ScmConfig>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ScmConfig {
    pub id: Option<String>,
    #[serde(rename = "type")]
    pub scm_type: Option<ScmType>,
    pub namespace: Option<String>,
    pub source_id: Option<String>,
    pub base_url: Option<String>,
    pub app: Option<ScmApp>,
    pub status: Option<ScmStatus>,
    pub installed: Option<bool>,
    pub suspended: Option<bool>,
    pub host_a_entity_type: Option<HostAEntityType>,
    pub auto_scan: Option<bool>,
    pub use_network_broker: Option<bool>,
    pub token_scopes: Option<TokenScopes>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub subscriptions: Vec<Subscription>,
    #[serde(with = "wire::timestamp")]
    pub last_successful_sync_at: Option<Timestamp>,
    pub auto_scan_settings: Option<AutoScanSettings>,
    pub has_access_token: Option<bool>,
    pub scm_id: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ScmApp {
    pub id: Option<String>,
    pub slug: Option<String>,
    pub app_id: Option<String>,
    pub scm_type: Option<ScmType>,
    pub base_url: Option<String>,
    pub request_id: Option<String>,
    pub scm_name: Option<String>,
    pub code_access: Option<bool>,
    pub tenant_id: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ScmStatus {
    #[serde(with = "wire::timestamp")]
    pub checked: Option<Timestamp>,
    pub ok: Option<bool>,
    pub error: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TokenScopes {
    pub read_metadata: Option<bool>,
    pub read_pull_request: Option<bool>,
    pub write_pull_request_comment: Option<bool>,
    pub read_contents: Option<bool>,
    pub read_members: Option<bool>,
    pub manage_webhooks: Option<bool>,
    pub write_contents: Option<bool>,
    pub write_pull_request: Option<bool>,
}

impl TokenScopes {
    /// Every scope with its wire name and whether it is granted.
    pub fn entries(&self) -> [(&'static str, bool); 8] {
        let on = |v: Option<bool>| v.unwrap_or(false);
        [
            ("readMetadata", on(self.read_metadata)),
            ("readPullRequest", on(self.read_pull_request)),
            (
                "writePullRequestComment",
                on(self.write_pull_request_comment),
            ),
            ("readContents", on(self.read_contents)),
            ("readMembers", on(self.read_members)),
            ("manageWebhooks", on(self.manage_webhooks)),
            ("writeContents", on(self.write_contents)),
            ("writePullRequest", on(self.write_pull_request)),
        ]
    }
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Subscription {
    pub scm_url: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub events: Vec<String>,
}
