//! The deployments and projects the token can see
//! (`DeploymentsService_ListDeployments`, `ProjectsService_ListProjects`).

use super::enums::ScmType;
use super::wire;
use crate::wire_enum;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// `protos.deployment.v2.ListDeploymentsResponse`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListDeploymentsResponse {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub deployments: Vec<DeploymentV2>,
}

/// `protos.deployment.v2.Deployment`: its id and human-readable name.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DeploymentV2 {
    #[serde(with = "wire::int64_number")]
    pub id: Option<i64>,
    pub name: Option<String>,
}

wire_enum! {
    ProjectStatus {
        Unspecified = "PROJECT_STATUS_UNSPECIFIED" => "unspecified",
        Setup = "PROJECT_STATUS_SETUP" => "set up",
        NotSetup = "PROJECT_STATUS_NOT_SETUP" => "not set up",
        Archived = "PROJECT_STATUS_ARCHIVED" => "archived",
    }
}

/// `protos.projects.v2.ListProjectsRequest`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListProjectsRequest {
    #[serde(with = "wire::int64_number")]
    pub page_size: Option<i64>,
    pub page_token: Option<String>,
    pub filter: Option<ProjectsFilter>,
}

/// `protos.projects.v2.ProjectsFilter`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProjectsFilter {
    pub assigned_to_teams: Option<bool>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub names: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub statuses: Vec<ProjectStatus>,
}

/// `protos.projects.v2.ListProjectsResponse`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListProjectsResponse {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub projects: Vec<Project>,
    pub page_token: Option<String>,
}

/// `protos.projects.v2.Project`: `id` and `latestScanId` are numbers, the
/// branch ids strings, as published.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Project {
    #[serde(with = "wire::int64_number")]
    pub id: Option<i64>,
    pub name: Option<String>,
    #[serde(with = "wire::timestamp")]
    pub create_time: Option<wire::Timestamp>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub tags: Vec<String>,
    #[serde(with = "wire::int64_number")]
    pub latest_scan_id: Option<i64>,
    pub url: Option<String>,
    pub primary_branch_id: Option<String>,
    pub default_branch_id: Option<String>,
    pub scm_type: Option<ScmType>,
}
