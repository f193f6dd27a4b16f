//! Deployment discovery (`DeploymentService_GetDeploymentByToken`, GET
//! `/api/agent/deployment`): the deployment the API token belongs to.
//!
//! Published with snake_case field names (`display_name`, ...), unlike the
//! other operations; the lowerCamelCase spelling a protobuf-JSON server
//! may write instead is accepted too. `id` is int64: a number or a string.

use super::wire;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GetDeploymentByTokenResponse {
    pub deployment: Option<Deployment>,
}

/// `protos.common.v1.DeploymentV1`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Deployment {
    #[serde(with = "wire::int64_number")]
    pub id: Option<i64>,
    pub name: Option<String>,
    #[serde(alias = "displayName")]
    pub display_name: Option<String>,
    pub slug: Option<String>,
    #[serde(alias = "sourceType")]
    pub source_type: Option<String>,
    #[serde(alias = "hasAutofix")]
    pub has_autofix: Option<bool>,
    #[serde(alias = "hasDeepAnalysis")]
    pub has_deep_analysis: Option<bool>,
    #[serde(alias = "hasTriageViaComment")]
    pub has_triage_via_comment: Option<bool>,
    #[serde(alias = "hasDependencyQuery")]
    pub has_dependency_query: Option<bool>,
    #[serde(alias = "defaultUserRole")]
    pub default_user_role: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub features: Vec<DeploymentFeature>,
    #[serde(alias = "organizationId", with = "wire::int64_number")]
    pub organization_id: Option<i64>,
    #[serde(alias = "scmName")]
    pub scm_name: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeploymentFeature {
    pub name: Option<String>,
    #[serde(alias = "expiresAt")]
    pub expires_at: Option<String>,
}

impl Deployment {
    /// The name people know it by: the display name, else the name, else
    /// the slug (`None` when the answer has none).
    pub fn shown_name(&self) -> Option<&str> {
        [&self.display_name, &self.name, &self.slug]
            .into_iter()
            .filter_map(|v| v.as_deref())
            .map(str::trim)
            .find(|s| !s.is_empty())
    }

    /// The id the other operations take as `{deploymentId}`: positive
    /// (protobuf's 0 is "not set").
    pub fn path_id(&self) -> Option<i64> {
        self.id.filter(|id| *id > 0)
    }
}

/// A deployment as people are shown it, its name and its id each once:
/// "Acme Corp (demo) · 1234" (a name may hold parentheses of its own), or
/// "deployment 1234" without a name. The name comes from a server: the
/// caller makes it safe to show first.
pub fn shown_deployment(name: Option<&str>, id: &str) -> String {
    match name {
        Some(name) => format!("{name} · {id}"),
        None => format!("deployment {id}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_published_shape_with_the_id_as_number_or_string() {
        for id in ["1234", "\"1234\""] {
            let body = format!(
                r#"{{"deployment":{{"id":{id},"name":"acme","display_name":"Acme Corp","slug":"acme","organization_id":"77","features":[{{"name":"autofix"}}]}}}}"#
            );
            let r: GetDeploymentByTokenResponse = serde_json::from_str(&body).unwrap();
            let d = r.deployment.unwrap();
            assert_eq!(d.path_id(), Some(1234));
            assert_eq!(d.organization_id, Some(77));
            assert_eq!(d.shown_name(), Some("Acme Corp"));
            assert_eq!(d.features.len(), 1);
        }
        // lowerCamelCase, as protobuf JSON writes by default, reads the same.
        let d: Deployment =
            serde_json::from_str(r#"{"id":5,"displayName":" ","name":"n"}"#).unwrap();
        assert_eq!(d.shown_name(), Some("n"));
        let zero: Deployment = serde_json::from_str(r#"{"id":0}"#).unwrap();
        assert_eq!(zero.path_id(), None);
    }
}
