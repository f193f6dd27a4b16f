//! Walking a fixed set of values with one key: sort fields, the Report's
//! selectors, sort directions.

use findings_model::SortDirection;

/// The value after `current` in `all`, wrapping around (the first when
/// `current` is none or not in `all`).
pub fn next<T: Clone + PartialEq>(all: &[T], current: Option<&T>) -> Option<T> {
    let next = current
        .and_then(|c| all.iter().position(|v| v == c))
        .map_or(0, |i| (i + 1) % all.len());
    all.get(next).cloned()
}

/// `None`, then each value of `all`, then `None` again.
pub fn next_or_none<T: Clone + PartialEq>(all: &[T], current: Option<&T>) -> Option<T> {
    match current.and_then(|c| all.iter().position(|v| v == c)) {
        None if current.is_none() => all.first().cloned(),
        None => None,
        Some(i) => all.get(i + 1).cloned(),
    }
}

/// The value before `current` in `all`, wrapping around (the last when
/// `current` is none or not in `all`).
pub fn prev<T: Clone + PartialEq>(all: &[T], current: Option<&T>) -> Option<T> {
    let len = all.len();
    let prev = current
        .and_then(|c| all.iter().position(|v| v == c))
        .map_or(len.checked_sub(1)?, |i| (i + len - 1) % len);
    all.get(prev).cloned()
}

/// [`next_or_none`] backwards: `None`, then each value of `all` from the
/// last, then `None` again.
pub fn prev_or_none<T: Clone + PartialEq>(all: &[T], current: Option<&T>) -> Option<T> {
    match current.and_then(|c| all.iter().position(|v| v == c)) {
        None if current.is_none() => all.last().cloned(),
        None => None,
        Some(i) => i.checked_sub(1).and_then(|i| all.get(i)).cloned(),
    }
}

/// The other direction (descending is the servers' default).
pub fn flip(direction: &Option<SortDirection>) -> SortDirection {
    match direction {
        Some(SortDirection::Asc) => SortDirection::Desc,
        _ => SortDirection::Asc,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_wraps_and_starts_from_the_first() {
        assert_eq!(next(&[1, 2, 3], Some(&3)), Some(1));
        assert_eq!(next(&[1, 2, 3], Some(&1)), Some(2));
        assert_eq!(next(&[1, 2, 3], None), Some(1));
        assert_eq!(next_or_none(&[1, 2], None), Some(1));
        assert_eq!(next_or_none(&[1, 2], Some(&2)), None);
        assert_eq!(prev(&[1, 2, 3], Some(&1)), Some(3));
        assert_eq!(prev(&[1, 2, 3], Some(&3)), Some(2));
        assert_eq!(prev(&[1, 2, 3], None), Some(3));
        assert_eq!(prev::<i32>(&[], None), None);
        assert_eq!(prev_or_none(&[1, 2], None), Some(2));
        assert_eq!(prev_or_none(&[1, 2], Some(&2)), Some(1));
        assert_eq!(prev_or_none(&[1, 2], Some(&1)), None);
        assert_eq!(flip(&None), SortDirection::Asc);
        assert_eq!(flip(&Some(SortDirection::Asc)), SortDirection::Desc);
    }
}
