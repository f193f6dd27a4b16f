//! The SCM config pane (being built).

use crate::api::ApiError;
use crate::tui::app::Outbox;
use crate::tui::keymap::{Action, Context};
use crate::tui::worker::{ApiResponse, RequestId};
use crossterm::event::KeyEvent;

#[derive(Debug, Default)]
pub struct ScmPane {
    pub read_only: bool,
    pub config_id: String,
}

impl ScmPane {
    pub fn new(read_only: bool) -> Self {
        ScmPane {
            read_only,
            ..Default::default()
        }
    }

    pub fn contexts(&self) -> Vec<Context> {
        vec![Context::Scm]
    }

    pub fn text_input_active(&self) -> bool {
        false
    }

    pub fn is_loading(&self) -> bool {
        false
    }

    pub fn on_action(&mut self, _action: Action, _outbox: &mut Outbox) {}

    pub fn on_text_key(&mut self, _key: KeyEvent, _outbox: &mut Outbox) {}

    pub fn on_reply(
        &mut self,
        _id: RequestId,
        result: Result<ApiResponse, ApiError>,
        _outbox: &mut Outbox,
    ) -> Option<Result<ApiResponse, ApiError>> {
        Some(result)
    }

    pub fn set_config_id(&mut self, id: &str) {
        self.config_id = id.to_owned();
    }
}
