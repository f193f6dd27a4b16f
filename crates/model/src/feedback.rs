//! AI verdict feedback (`AutotriageFeedbackService_PostAutotriageFeedback`):
//! a person agrees or disagrees with a finding's autotriage verdict, with a
//! note. The feedback then shows on the finding (`autotriage.feedback`).

use super::issue::AutotriageFeedback;
use crate::wire_enum;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

wire_enum! {
    /// `protos.ai.v1.AutotriageFeedback.rating`.
    Rating {
        Good = "RATING_GOOD" => "agree",
        Bad = "RATING_BAD" => "disagree",
    }
}

impl AutotriageFeedback {
    /// The rating, typed (an unknown value kept as `Other`).
    pub fn rating(&self) -> Option<Rating> {
        self.rating.as_deref().map(Rating::from_wire)
    }

    /// Feedback on autotriage `autotriage_id`; an empty note is not sent.
    pub fn new(autotriage_id: &str, rating: Rating, note: Option<String>) -> Self {
        AutotriageFeedback {
            autotriage_id: Some(autotriage_id.to_owned()),
            rating: Some(rating.as_wire().to_owned()),
            note: note.filter(|n| !n.is_empty()),
        }
    }
}

/// `protos.ai.v1.PostAutotriageFeedbackRequest`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PostAutotriageFeedbackRequest {
    pub deployment_id: Option<String>,
    pub feedback: Option<AutotriageFeedback>,
}

/// `protos.ai.v1.PostAutotriageFeedbackResponse`: the feedback as stored.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PostAutotriageFeedbackResponse {
    pub new_feedback: Option<AutotriageFeedback>,
}
