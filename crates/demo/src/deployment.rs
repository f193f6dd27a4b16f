//! The demo deployment as `DeploymentService_GetDeploymentByToken` answers
//! it: only published fields (`protos.common.v1.DeploymentV1`).

use findings_model::{Deployment, GetDeploymentByTokenResponse};

/// The deployment's name and display name in the demo.
pub const DEMO_NAME: &str = "acme";
pub const DEMO_DISPLAY_NAME: &str = "Acme Corp (demo)";

/// The deployment the demo's token belongs to (`id` is the deployment id
/// the other paths take).
pub fn of_token(deployment_id: &str) -> GetDeploymentByTokenResponse {
    GetDeploymentByTokenResponse {
        deployment: Some(Deployment {
            id: deployment_id.parse().ok(),
            name: Some(DEMO_NAME.into()),
            display_name: Some(DEMO_DISPLAY_NAME.into()),
            slug: Some(DEMO_NAME.into()),
            has_autofix: Some(true),
            has_deep_analysis: Some(true),
            has_triage_via_comment: Some(false),
            has_dependency_query: Some(true),
            organization_id: Some(77),
            ..Default::default()
        }),
    }
}
