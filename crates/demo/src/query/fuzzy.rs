//! The fuzzy file path search of List issues' `filePaths`: "analyzed text
//! search (splits on / . _ - etc. and supports typo tolerance)".
//!
//! A path and a query are split into words (runs of letters and digits,
//! lower-case). A path matches when every word of the query matches one of
//! its words, exactly or within the typo tolerance of the query word: no
//! edit up to 2 characters, one up to 5, two beyond (a search engine's
//! usual "AUTO" fuzziness); an edit is an insertion, deletion, substitution
//! or swap of neighbours.

/// The words of a path or a query.
fn words(s: &str) -> Vec<Vec<char>> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().chars().collect())
        .collect()
}

/// How many edits a query word of `len` characters tolerates.
fn tolerance(len: usize) -> usize {
    match len {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    }
}

/// The edit distance of `a` and `b` (insert, delete, substitute, swap two
/// neighbours), or `max + 1` when it is larger than `max`.
fn distance(a: &[char], b: &[char], max: usize) -> usize {
    if a.len().abs_diff(b.len()) > max {
        return max + 1;
    }
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for (j, cell) in d.iter_mut().take(width).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        d[i * width] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = v;
        }
    }
    d[a.len() * width + b.len()].min(max + 1)
}

/// A query compiled once for many paths.
pub struct PathQuery {
    words: Vec<Vec<char>>,
}

impl PathQuery {
    /// `None` for a query without words (it does not filter).
    pub fn new(query: &str) -> Option<PathQuery> {
        let words = words(query);
        (!words.is_empty()).then_some(PathQuery { words })
    }

    pub fn matches(&self, path: &str) -> bool {
        let path = words(path);
        self.words.iter().all(|q| {
            let max = tolerance(q.len());
            path.iter().any(|p| distance(q, p, max) <= max)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(query: &str, path: &str) -> bool {
        PathQuery::new(query).is_some_and(|q| q.matches(path))
    }

    #[test]
    fn words_split_on_separators_and_ignore_case() {
        assert!(m("payments", "src/Payments/api.py"));
        assert!(m("api py", "src/payments/api.py"));
        assert!(m("config_payments", "config/payments.py"));
        assert!(m("src/api", "src/payments/api.py"));
        assert!(
            !m("paym", "src/payments/api.py"),
            "a word, not a part of one"
        );
        assert!(!m("payments ledger", "src/payments/api.py"), "every word");
    }

    #[test]
    fn typos_are_tolerated_by_word_length() {
        assert!(m("paymnets", "src/payments/api.py"), "a swap");
        assert!(m("paymens", "src/payments/api.py"), "a deletion");
        assert!(m("sesion", "web/session.ts"), "one edit in 6 letters");
        assert!(m("sssion", "web/session.ts"), "two edits in 6 letters");
        assert!(!m("ssson", "web/session.ts"), "but one in 5");
        assert!(m("kt", "a/b.kt"));
        assert!(!m("ks", "a/b.kt"), "no edit in two letters");
        assert!(m("jav", "a/b.java"), "one edit in 3 letters");
        assert!(m("jaaa", "a/b.java"));
        assert!(!m("jxxa", "a/b.java"));
        assert!(!m("xyzxyz", "src/payments/api.py"));
    }

    #[test]
    fn a_query_without_words_is_none() {
        assert!(PathQuery::new(" /.-_ ").is_none());
        assert!(PathQuery::new("").is_none());
    }
}
