//! Column widths of the TUI's lists, from their content and the width
//! there is: each column wants its widest cell (of the rows on screen) or
//! header; every shown column first gets its `min`, then what is left is
//! shared by weight among the columns that want more, so a short column
//! (a state) is whole before a long one (a path) takes the rest. When even
//! the minimums do not fit, columns are left out in their `drop` order.

use ratatui::layout::Constraint;
use unicode_width::UnicodeWidthStr;

pub use findings_base::text::Cut;

/// One column of a list.
#[derive(Debug, Clone, Copy)]
pub struct Col {
    pub header: &'static str,
    /// The header when the column is narrower than `header`.
    pub short: &'static str,
    /// The narrowest it is shown at (less when its content is narrower).
    pub min: u16,
    /// The order a narrow list leaves columns out in: 1 first; 0 never.
    pub drop: u8,
    /// Its share of the width left once every column has its `min`.
    pub weight: u16,
    /// Takes what is left when every column has all it wants.
    pub grow: bool,
    pub cut: Cut,
}

impl Col {
    pub const fn new(header: &'static str, min: u16) -> Col {
        Col {
            header,
            short: header,
            min,
            drop: 0,
            weight: 1,
            grow: false,
            cut: Cut::Right,
        }
    }
    pub const fn short(self, short: &'static str) -> Col {
        Col { short, ..self }
    }
    pub const fn drop(self, order: u8) -> Col {
        Col {
            drop: order,
            ..self
        }
    }
    pub const fn weight(self, weight: u16) -> Col {
        Col { weight, ..self }
    }
    pub const fn grow(self) -> Col {
        Col { grow: true, ..self }
    }
    pub const fn cut(self, cut: Cut) -> Col {
        Col { cut, ..self }
    }

    /// The header as shown at `width`.
    pub fn title(&self, width: u16) -> String {
        let h = if self.header.width() <= width as usize {
            self.header
        } else {
            self.short
        };
        cut(h, width, Cut::Right)
    }
}

/// Columns between two columns.
pub const GAP: u16 = 1;

/// The titles and widths of the columns `widths` keeps (as [`layout`]
/// gives them): a table's header and its constraints.
pub fn header(cols: &[Col], widths: &[Option<u16>]) -> (Vec<String>, Vec<Constraint>) {
    cols.iter()
        .zip(widths)
        .filter_map(|(col, w)| w.map(|w| (col.title(w), Constraint::Length(w))))
        .unzip()
}

/// The width of each column (`None`: left out) for `rows` of cells (one
/// string per column) in `width` terminal columns.
pub fn layout(cols: &[Col], rows: &[Vec<String>], width: u16) -> Vec<Option<u16>> {
    let content: Vec<usize> = (0..cols.len())
        .map(|k| {
            rows.iter()
                .filter_map(|r| r.get(k))
                .map(|s| s.width())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let clamp = crate::layout::cells;
    // A column wants room for its header too.
    let mut wants: Vec<u16> = cols
        .iter()
        .zip(&content)
        .map(|(c, &n)| clamp(n.max(c.header.width())))
        .collect();
    let widths = allocate(cols, &wants, width);
    // Given less than its header but more than its cells, a column shows
    // its short header: the columns between go to others.
    let mut again = false;
    for (k, c) in cols.iter().enumerate() {
        let fallback = clamp(content[k].max(c.short.width()));
        if widths[k].is_some_and(|w| w < wants[k] && w > fallback) {
            wants[k] = fallback;
            again = true;
        }
    }
    if again {
        allocate(cols, &wants, width)
    } else {
        widths
    }
}

/// [`layout`] for known wants. A time column ([`Cut::Date`]) short of its
/// want shows the date alone: the columns it would not use go to others.
pub fn allocate(cols: &[Col], wants: &[u16], width: u16) -> Vec<Option<u16>> {
    let widths = share(cols, wants, width);
    let short_times: Vec<usize> = (0..cols.len())
        .filter(|&k| cols[k].cut == Cut::Date)
        .filter(|&k| widths[k].is_some_and(|w| w > cols[k].min && w < wants[k]))
        .collect();
    if short_times.is_empty() {
        return widths;
    }
    let mut wants = wants.to_vec();
    for k in short_times {
        wants[k] = cols[k].min;
    }
    share(cols, &wants, width)
}

fn share(cols: &[Col], wants: &[u16], width: u16) -> Vec<Option<u16>> {
    let want = |k: usize| wants.get(k).copied().unwrap_or(0);
    let min = |k: usize| cols[k].min.min(want(k)) as usize;
    let mut shown: Vec<bool> = vec![true; cols.len()];
    let width = width as usize;
    let gaps =
        |shown: &[bool]| GAP as usize * shown.iter().filter(|s| **s).count().saturating_sub(1);
    loop {
        let need: usize = (0..cols.len())
            .filter(|&k| shown[k])
            .map(min)
            .sum::<usize>()
            + gaps(&shown);
        if need <= width {
            break;
        }
        let next = (0..cols.len())
            .filter(|&k| shown[k] && cols[k].drop > 0)
            .min_by_key(|&k| cols[k].drop);
        match next {
            Some(k) => shown[k] = false,
            None => break,
        }
    }
    let mut widths: Vec<usize> = (0..cols.len())
        .map(|k| if shown[k] { min(k) } else { 0 })
        .collect();
    let used = widths.iter().sum::<usize>() + gaps(&shown);
    let mut spare = width.saturating_sub(used);
    // Shared by weight among the columns that want more, until none does.
    while spare > 0 {
        let needy: Vec<usize> = (0..cols.len())
            .filter(|&k| shown[k] && widths[k] < want(k) as usize)
            .collect();
        if needy.is_empty() {
            break;
        }
        let total: usize = needy.iter().map(|&k| cols[k].weight.max(1) as usize).sum();
        let mut given = 0;
        for &k in &needy {
            let share = spare * cols[k].weight.max(1) as usize / total;
            let add = share.min(want(k) as usize - widths[k]);
            widths[k] += add;
            given += add;
        }
        if given == 0 {
            // Less than a column each: one at a time, heaviest first.
            let mut order = needy.clone();
            order.sort_by_key(|&k| std::cmp::Reverse(cols[k].weight));
            for k in order.into_iter().take(spare) {
                widths[k] += 1;
                given += 1;
            }
        }
        spare -= given;
    }
    // Room to spare: to the columns that grow.
    let growing: Vec<usize> = (0..cols.len())
        .filter(|&k| shown[k] && cols[k].grow)
        .collect();
    if spare > 0 && !growing.is_empty() {
        let each = spare / growing.len();
        for (n, &k) in growing.iter().enumerate() {
            widths[k] += each + usize::from(n < spare % growing.len());
        }
    }
    (0..cols.len())
        .map(|k| shown[k].then(|| crate::layout::cells(widths[k])))
        .collect()
}

/// `text` cut to `width` columns as `how` says ([`findings_base::text::cut`]).
pub fn cut(text: &str, width: u16, how: Cut) -> String {
    findings_base::text::cut(text, width as usize, how)
}

/// Checks that a headless table leaves its columns out in the order this
/// list does: each pair names a column here and the table's column.
#[cfg(test)]
pub(crate) fn assert_same_drop_order(
    cols: &[Col],
    table: &[findings_export::Column],
    pairs: &[(&str, &str)],
) {
    // Never left out (0) sorts last.
    let rank = |drop: u8| if drop == 0 { u8::MAX } else { drop };
    let mut here: Vec<(u8, &str)> = Vec::new();
    let mut there: Vec<(u8, &str)> = Vec::new();
    for &(header, name) in pairs {
        let col = cols.iter().find(|c| c.header == header).expect(header);
        let column = table.iter().find(|c| c.name == name).expect(name);
        here.push((rank(col.drop), name));
        there.push((rank(column.drop), name));
    }
    here.sort_unstable();
    there.sort_unstable();
    let order = |v: &[(u8, &str)]| -> Vec<(bool, String)> {
        v.iter()
            .map(|(r, n)| (*r == u8::MAX, n.to_string()))
            .collect()
    };
    assert_eq!(
        order(&here),
        order(&there),
        "the TUI's order, then the table's"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(rows: &[&[&str]]) -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| r.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn every_column_is_whole_when_there_is_room_and_growers_take_the_rest() {
        let cols = [Col::new("A", 3), Col::new("B", 3).grow(), Col::new("C", 3)];
        let rows = cells(&[&["alpha", "b", "provisionally ignored"]]);
        let w = layout(&cols, &rows, 40);
        assert_eq!(w, vec![Some(5), Some(1 + (40 - 5 - 1 - 21 - 2)), Some(21)]);
    }

    #[test]
    fn a_short_column_is_whole_before_a_long_one_takes_the_rest() {
        // 29 columns: mins 6 + 6 and a gap, 16 to share.
        let cols = [Col::new("STATE", 6), Col::new("PATH", 6)];
        let w = allocate(&cols, &[12, 80], 29);
        assert_eq!(w, vec![Some(12), Some(16)]);
        // Weights: the heavier column gets its share first.
        let cols = [Col::new("RULE", 4).weight(3), Col::new("PATH", 4)];
        let w = allocate(&cols, &[100, 100], 4 + 4 + 1 + 8);
        assert_eq!(w, vec![Some(10), Some(6)]);
    }

    #[test]
    fn columns_are_left_out_in_drop_order_when_the_minimums_do_not_fit() {
        let cols = [
            Col::new("SEV", 8),
            Col::new("PATH", 12).drop(1),
            Col::new("STATE", 9).drop(2),
            Col::new("RULE", 12),
        ];
        let wants = [8, 40, 21, 30];
        let w = allocate(&cols, &wants, 8 + 12 + 9 + 12 + 3);
        assert!(w.iter().all(Option::is_some));
        let w = allocate(&cols, &wants, 8 + 9 + 12 + 2);
        assert_eq!(w, vec![Some(8), None, Some(9), Some(12)]);
        let w = allocate(&cols, &wants, 25);
        assert_eq!(w, vec![Some(8), None, None, Some(16)]);
        // Narrower than what is never left out: no panic, no width over.
        let w = allocate(&cols, &wants, 5);
        assert_eq!(w[0], Some(8));
        assert_eq!(allocate(&[], &[], 10), Vec::<Option<u16>>::new());
    }

    #[test]
    fn a_column_given_less_than_its_header_takes_no_more_than_its_short_header() {
        let cols = [
            Col::new("NETWORK BROKER", 4).short("BROKER"),
            Col::new("STATUS", 4).grow(),
        ];
        let rows = cells(&[&["off", "error: token expired"]]);
        // Shared, 20 columns would give the broker 9 or 10: short of its
        // header, it is "BROKER" wide and the status has the rest.
        assert_eq!(layout(&cols, &rows, 20), vec![Some(6), Some(13)]);
        assert_eq!(layout(&cols, &rows, 35), vec![Some(14), Some(20)]);
    }

    #[test]
    fn a_time_column_is_whole_or_a_date() {
        let cols = [
            Col::new("RULE", 5).grow(),
            Col::new("SINCE", 10).cut(Cut::Date),
        ];
        // Shared, the time would have 14 of its 16: a date, and the four
        // columns go to the rule.
        assert_eq!(allocate(&cols, &[40, 16], 24), vec![Some(13), Some(10)]);
        assert_eq!(allocate(&cols, &[40, 16], 30), vec![Some(13), Some(16)]);
        assert_eq!(allocate(&cols, &[10, 16], 30), vec![Some(13), Some(16)]);
    }

    #[test]
    fn the_width_is_never_exceeded_when_the_minimums_fit() {
        let cols = [
            Col::new("A", 3).weight(2),
            Col::new("B", 5).drop(1),
            Col::new("C", 2).grow(),
        ];
        for width in 0..60u16 {
            for wants in [[1, 1, 1], [9, 30, 4], [40, 2, 70]] {
                let w = allocate(&cols, &wants, width);
                let shown: Vec<u16> = w.iter().flatten().copied().collect();
                let total = shown.iter().sum::<u16>()
                    + GAP * crate::layout::cells(shown.len()).saturating_sub(1);
                let mins = 3.min(wants[0]) + 2.min(wants[2]) + GAP;
                if width >= mins {
                    assert!(total <= width, "{width} {wants:?} {w:?}");
                }
            }
        }
    }

    #[test]
    fn cells_are_cut_on_the_side_that_matters() {
        assert_eq!(cut("acme/payments-api", 14, Cut::Left), "…/payments-api");
        assert_eq!(cut("src/app/main.rs:12", 11, Cut::Left), "…main.rs:12");
        assert_eq!(cut("provisionally ignored", 10, Cut::Right), "provision…");
        assert_eq!(cut("2026-10-31 23:55", 12, Cut::Date), "2026-10-31");
        assert_eq!(cut("2026-10-31 23:55", 16, Cut::Date), "2026-10-31 23:55");
        assert_eq!(cut("用户输入", 5, Cut::Right), "用户…");
        assert_eq!(cut("whatever", 0, Cut::Right), "");
        assert_eq!(cut("whatever", 0, Cut::Left), "");
        let header = Col::new("RELEVANT SINCE", 10).short("SINCE");
        assert_eq!(header.title(16), "RELEVANT SINCE");
        assert_eq!(header.title(10), "SINCE");
    }
}
