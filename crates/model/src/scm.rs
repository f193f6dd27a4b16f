//! SCM configs: the list (docs/src/api.md §15), the PATCH body (partial,
//! docs/src/api.md §14) and the config.

use super::enums::*;
use super::wire::{self, Timestamp};
use crate::wire_enum;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

wire_enum! {
    /// The sort of List SCM configs (`ScmService_ListScmConfig`, query
    /// `sortBy`).
    ScmConfigSortBy {
        Name = "SCM_CONFIG_SORT_BY_NAME" => "name",
        Id = "SCM_CONFIG_SORT_BY_ID" => "id",
        LastSuccessfulSyncAt = "SCM_CONFIG_SORT_BY_LAST_SUCCESSFUL_SYNC_AT" => "last-sync",
    }
}

/// List SCM configs: a GET whose parameters travel in the query string
/// (`limit` is typed string there; it is written as its decimal text).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListScmConfigsRequest {
    pub limit: Option<i64>,
    pub cursor: Option<String>,
    pub sort_direction: Option<SortDirection>,
    pub sort_by: Option<ScmConfigSortBy>,
}

impl ListScmConfigsRequest {
    /// The query parameters, by their published names; absent ones are
    /// left out (an empty cursor too: it asks for the first page).
    pub fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(limit) = self.limit {
            pairs.push(("limit", limit.to_string()));
        }
        if let Some(cursor) = self.cursor.as_deref().filter(|c| !c.is_empty()) {
            pairs.push(("cursor", cursor.to_owned()));
        }
        if let Some(d) = &self.sort_direction {
            pairs.push(("sortDirection", d.as_wire().to_owned()));
        }
        if let Some(s) = &self.sort_by {
            pairs.push(("sortBy", s.as_wire().to_owned()));
        }
        pairs
    }
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListScmConfigsResponse {
    #[serde(
        deserialize_with = "wire::page_items",
        skip_serializing_if = "wire::is_empty"
    )]
    pub configs: Vec<ScmConfig>,
    pub cursor: Option<String>,
}

/// The PATCH body. Only fields the user changed are `Some` (docs/src/api.md §14),
/// and a changed boolean is always written, `false` included: `Some(false)`
/// is `"autoScan": false` on the wire, never left out (docs/src/api.md §14).
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
        findings_base::json::to_value(&shown).unwrap_or(serde_json::Value::Null)
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

/// A field of a config that a PATCH sets and the config shows back
/// (`subscribe` is request-only and `accessToken` is never shown, so
/// neither is one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScmField {
    Namespace,
    AutoScan,
    UseNetworkBroker,
    DiffEnabled,
}

/// A field's value, absent read as the protobuf default (docs/src/api.md §5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScmValue {
    Text(String),
    Switch(bool),
}

impl std::fmt::Display for ScmValue {
    /// `on`/`off`, or the text quoted with control characters escaped
    /// (what a server sent is shown safely).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScmValue::Switch(true) => f.write_str("on"),
            ScmValue::Switch(false) => f.write_str("off"),
            ScmValue::Text(s) => write!(f, "{s:?}"),
        }
    }
}

impl ScmField {
    pub const ALL: [ScmField; 4] = [
        ScmField::Namespace,
        ScmField::AutoScan,
        ScmField::UseNetworkBroker,
        ScmField::DiffEnabled,
    ];

    /// The wire name (of the body and of the config).
    pub fn name(self) -> &'static str {
        match self {
            ScmField::Namespace => "namespace",
            ScmField::AutoScan => "autoScan",
            ScmField::UseNetworkBroker => "useNetworkBroker",
            ScmField::DiffEnabled => "diffEnabled",
        }
    }

    /// The value a config holds.
    pub fn of_config(self, c: &ScmConfig) -> ScmValue {
        let on = |v: Option<bool>| ScmValue::Switch(v.unwrap_or(false));
        match self {
            ScmField::Namespace => ScmValue::Text(c.namespace.clone().unwrap_or_default()),
            ScmField::AutoScan => on(c.auto_scan),
            ScmField::UseNetworkBroker => on(c.use_network_broker),
            ScmField::DiffEnabled => on(c.auto_scan_settings.as_ref().and_then(|s| s.diff_enabled)),
        }
    }

    /// The value a patch asks for, `None` when it leaves the field alone.
    pub fn of_patch(self, p: &ScmConfigPatch) -> Option<ScmValue> {
        match self {
            ScmField::Namespace => p.namespace.clone().map(ScmValue::Text),
            ScmField::AutoScan => p.auto_scan.map(ScmValue::Switch),
            ScmField::UseNetworkBroker => p.use_network_broker.map(ScmValue::Switch),
            ScmField::DiffEnabled => p
                .auto_scan_settings
                .as_ref()
                .and_then(|s| s.diff_enabled)
                .map(ScmValue::Switch),
        }
    }
}

/// What a PATCH's answer shows was not done as asked (docs/src/api.md §14): each
/// field the patch set that the returned config does not hold ("autoScan is
/// still on after the update"), a new access token the config does not
/// report, and, when the config before is known, each field the patch left
/// alone that changed anyway. Empty when the update did what it said.
pub fn update_mismatches(
    patch: &ScmConfigPatch,
    before: Option<&ScmConfig>,
    after: &ScmConfig,
) -> Vec<String> {
    let mut out = Vec::new();
    for field in ScmField::ALL {
        let now = field.of_config(after);
        let was = before.map(|b| field.of_config(b));
        match field.of_patch(patch) {
            Some(asked) if asked != now => {
                let still = if was.as_ref().is_none_or(|w| *w == now) {
                    "still "
                } else {
                    ""
                };
                out.push(format!(
                    "{} is {still}{now} after the update ({asked} was asked)",
                    field.name()
                ));
            }
            None => {
                if let Some(was) = was.filter(|w| *w != now) {
                    out.push(format!(
                        "{} changed from {was} to {now} though the update did not ask for it",
                        field.name()
                    ));
                }
            }
            Some(_) => {}
        }
    }
    if patch.access_token.is_some() && after.has_access_token != Some(true) {
        out.push("hasAccessToken is still off after a new access token was sent".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(auto_scan: bool, namespace: &str) -> ScmConfig {
        ScmConfig {
            namespace: Some(namespace.into()),
            auto_scan: Some(auto_scan),
            has_access_token: Some(true),
            ..Default::default()
        }
    }

    #[test]
    fn a_false_is_written_not_left_out() {
        let patch = ScmConfigPatch {
            auto_scan: Some(false),
            auto_scan_settings: Some(AutoScanSettings {
                diff_enabled: Some(false),
            }),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_value(&patch).unwrap(),
            serde_json::json!({"autoScan": false, "autoScanSettings": {"diffEnabled": false}})
        );
    }

    #[test]
    fn a_field_not_applied_is_named_plainly() {
        let patch = ScmConfigPatch {
            auto_scan: Some(false),
            ..Default::default()
        };
        let before = config(true, "acme");
        assert_eq!(
            update_mismatches(&patch, Some(&before), &before),
            ["autoScan is still on after the update (off was asked)"]
        );
        // Absent in the answer reads as false (protobuf JSON): applied.
        let after = ScmConfig {
            auto_scan: None,
            ..before.clone()
        };
        assert!(update_mismatches(&patch, Some(&before), &after).is_empty());
    }

    #[test]
    fn a_field_changed_without_being_asked_is_named() {
        let patch = ScmConfigPatch {
            namespace: Some("acme-new".into()),
            ..Default::default()
        };
        let before = config(true, "acme");
        let after = config(false, "acme-new");
        assert_eq!(
            update_mismatches(&patch, Some(&before), &after),
            ["autoScan changed from on to off though the update did not ask for it"]
        );
        // Without the config before, only what was asked is checked.
        assert!(update_mismatches(&patch, None, &after).is_empty());
        let token = ScmConfigPatch {
            access_token: Some("t".into()),
            ..Default::default()
        };
        let without = ScmConfig {
            has_access_token: None,
            ..after
        };
        assert_eq!(
            update_mismatches(&token, None, &without),
            ["hasAccessToken is still off after a new access token was sent"]
        );
    }

    #[test]
    fn query_pairs_use_the_published_names() {
        let req = ListScmConfigsRequest {
            limit: Some(2),
            cursor: Some(String::new()),
            sort_direction: Some(SortDirection::Desc),
            sort_by: Some(ScmConfigSortBy::LastSuccessfulSyncAt),
        };
        assert_eq!(
            req.query_pairs(),
            [
                ("limit", "2".to_owned()),
                ("sortDirection", "SORT_DIRECTION_DESC".to_owned()),
                (
                    "sortBy",
                    "SCM_CONFIG_SORT_BY_LAST_SUCCESSFUL_SYNC_AT".to_owned()
                ),
            ]
        );
    }
}
