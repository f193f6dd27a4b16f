//! The one popup every yes/no question is drawn in: what is at stake, then
//! what `y` and what `n`/`Esc` do, each on its own line; after a key that
//! is not an answer, "y or n" stands out. It fits in 60×20: the items give
//! way (the last line says how many more) before the answers do.

use super::common::{safe, wrap};
use crate::layout;
use crate::message::{Asker, Question};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// Draws `question` over `body`; `nagged`: a key that was not an answer
/// was pressed.
pub fn draw(f: &mut Frame, body: Rect, question: &Question, nagged: bool, theme: &Theme) {
    let width = body.width.saturating_sub(4).clamp(20, 76).min(body.width);
    let inner = width.saturating_sub(2) as usize;
    let answers = answer_lines(question, nagged, inner, theme);
    // Room for what is at stake: the body less the borders, the answers
    // and the blank line before them.
    let room = (body.height as usize).saturating_sub(2 + answers.len() + 1);
    let mut lines = stake_lines(question, inner, room);
    lines.push(Line::default());
    lines.extend(answers);
    let height = layout::cells(lines.len())
        .saturating_add(2)
        .min(body.height);
    let popup = layout::centered(body, width, height);
    f.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(
            format!(" {} ", safe(&question.title)),
            theme.error(),
        ))
        .title_bottom(super::common::fit_hint(" y yes · n/Esc no ", inner));
    f.render_widget(Paragraph::new(lines).block(block), popup);
}

/// The lines that say what each answer does (always drawn whole).
fn answer_lines<'a>(
    question: &Question,
    nagged: bool,
    inner: usize,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    for (keys, does) in [("y", &question.yes), ("n/Esc", &question.no)] {
        let indent = keys.len() + 2;
        for (k, part) in wrap(does, inner.saturating_sub(indent))
            .into_iter()
            .enumerate()
        {
            let lead = if k == 0 {
                Span::styled(format!("{keys}  "), theme.key())
            } else {
                Span::raw(" ".repeat(indent))
            };
            lines.push(Line::from(vec![lead, Span::raw(part)]));
        }
    }
    if question.asker == Asker::Quit {
        lines.push(Line::from(Span::styled(
            "Ctrl-C again quits at once.",
            theme.dim(),
        )));
    }
    lines.push(if nagged {
        Line::from(Span::styled(
            "y or n: other keys do nothing here",
            theme.error(),
        ))
    } else {
        Line::from(Span::styled("other keys do nothing here", theme.dim()))
    });
    lines
}

/// What is at stake, in at most `room` lines: the text, then the items
/// bulleted; what does not fit is counted in the last line.
fn stake_lines<'a>(question: &Question, inner: usize, room: usize) -> Vec<Line<'a>> {
    let mut all: Vec<String> = wrap(&question.said, inner);
    let mut starts = Vec::new();
    for item in &question.items {
        starts.push(all.len());
        for (k, part) in wrap(item, inner.saturating_sub(4)).into_iter().enumerate() {
            all.push(format!("{}{part}", if k == 0 { "  • " } else { "    " }));
        }
    }
    if all.len() > room {
        // Whole items only, and a line that says what is left out.
        let keep = room.saturating_sub(1);
        let ends: Vec<usize> = starts.iter().skip(1).copied().chain([all.len()]).collect();
        let shown = ends.iter().filter(|&&end| end <= keep).count();
        let cut = match shown {
            0 => starts.first().copied().unwrap_or(keep).min(keep),
            n => ends[n - 1],
        };
        all.truncate(cut);
        let more = question.items.len() - shown;
        all.push(if more > 0 {
            format!("  … and {more} more")
        } else {
            "…".to_owned()
        });
    }
    all.into_iter().map(Line::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn drawn(question: &Question, width: u16, height: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal
            .draw(|f| draw(f, f.area(), question, true, &Theme::no_color()))
            .unwrap();
        let buf = terminal.backend().buffer();
        (0..height)
            .map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
            .collect()
    }

    #[test]
    fn a_long_question_keeps_its_answers_in_60x20() {
        let question = Question {
            title: "Quit with unsent work?".into(),
            said: "Quitting now loses:".into(),
            items: (1..=30)
                .map(|k| format!("an unsent SCM draft of config {k}"))
                .collect(),
            yes: "quit anyway".into(),
            no: "stay: nothing is dropped".into(),
            asker: Asker::Quit,
        };
        // The body of a 60×20 terminal: the header and status line less.
        let screen = drawn(&question, 60, 18);
        for said in [
            "Quit with unsent work?",
            "config 1\n",
            "… and ",
            "y  quit anyway",
            "n/Esc  stay: nothing is dropped",
            "y or n",
        ] {
            assert!(screen.contains(said.trim_end()), "{said:?} in\n{screen}");
        }
        let shown = screen.matches("an unsent SCM draft").count();
        assert!(
            screen.contains(&format!("… and {} more", 30 - shown)),
            "{screen}"
        );
    }
}
