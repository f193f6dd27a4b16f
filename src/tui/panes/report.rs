//! The Report pane (being built).

use crate::api::ApiError;
use crate::tui::app::Outbox;
use crate::tui::keymap::{Action, Context};
use crate::tui::worker::{ApiResponse, RequestId};
use crossterm::event::KeyEvent;
use ratatui::layout::Rect;

#[derive(Debug, Default)]
pub struct ReportPane {}

impl ReportPane {
    pub fn contexts(&self) -> Vec<Context> {
        vec![Context::Report, Context::List]
    }

    pub fn text_input_active(&self) -> bool {
        false
    }

    pub fn is_loading(&self) -> bool {
        false
    }

    pub fn activate(&mut self, _outbox: &mut Outbox) {}

    pub fn after_update(&mut self, _height: usize, _outbox: &mut Outbox) {}

    pub fn on_reply(
        &mut self,
        _id: RequestId,
        result: Result<ApiResponse, ApiError>,
        _outbox: &mut Outbox,
    ) -> Option<Result<ApiResponse, ApiError>> {
        Some(result)
    }

    pub fn on_action(&mut self, _action: Action, _height: usize, _outbox: &mut Outbox) {}

    pub fn on_text_key(&mut self, _key: KeyEvent, _outbox: &mut Outbox) {}

    pub fn click(&mut self, _body: Rect, _x: u16, _y: u16) {}

    pub fn set_sort(&mut self, _args: &[&str], _outbox: &mut Outbox) -> Result<(), String> {
        Err("sorting here is not available yet".into())
    }
}
