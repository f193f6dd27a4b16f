//! The known name closest to one that matches nothing
//! (`payments-api` → `acme/payments-api`), and the known names a word
//! being typed could become.

/// The known name `word` most likely meant ([`nearest`]'s first).
pub fn closest<'a>(known: &'a [String], word: &str) -> Option<&'a str> {
    nearest(known, word, 1).into_iter().next()
}

/// The known names `word` most likely meant, at most `n`, likeliest first:
/// those that contain it (or that it contains), the nearest in length
/// first; then those fewest edits away, when that is at most a third of
/// the word. Case is ignored; none when nothing is near.
pub fn nearest<'a>(known: &'a [String], word: &str, n: usize) -> Vec<&'a str> {
    let word = word.trim().to_lowercase();
    if word.is_empty() {
        return Vec::new();
    }
    let mut containing: Vec<&String> = known
        .iter()
        .filter(|k| {
            let k = k.to_lowercase();
            k.contains(&word) || (k.len() >= 3 && word.contains(&k))
        })
        .collect();
    containing.sort_by_key(|k| k.len().abs_diff(word.len()));
    let limit = (word.chars().count() / 3).max(1);
    let mut near: Vec<(usize, &String)> = known
        .iter()
        .map(|k| (edits(&k.to_lowercase(), &word), k))
        .filter(|(d, k)| *d <= limit && !containing.contains(k))
        .collect();
    near.sort_by_key(|(d, _)| *d);
    let mut out: Vec<&str> = Vec::new();
    for k in containing
        .into_iter()
        .chain(near.into_iter().map(|(_, k)| k))
    {
        if out.len() == n {
            break;
        }
        if !out.contains(&k.as_str()) {
            out.push(k);
        }
    }
    out
}

/// "did you mean X?" (or "X or Y?", "X, Y or Z?"): the known names
/// `word` most likely meant, at most 3; `None` when nothing is near.
pub fn did_you_mean<S: AsRef<str>>(known: &[S], word: &str) -> Option<String> {
    let known: Vec<String> = known.iter().map(|k| k.as_ref().to_owned()).collect();
    let near = nearest(&known, word, 3);
    let (last, rest) = near.split_last()?;
    Some(if rest.is_empty() {
        format!("did you mean {last}?")
    } else {
        format!("did you mean {} or {last}?", rest.join(", "))
    })
}

/// The known names `partial` could become: those starting with it, then
/// those containing it (case ignored), each once.
pub fn matching(known: &[String], partial: &str) -> Vec<String> {
    let p = partial.to_lowercase();
    let starts = known.iter().filter(|k| k.to_lowercase().starts_with(&p));
    let inside = known
        .iter()
        .filter(|k| !k.to_lowercase().starts_with(&p) && k.to_lowercase().contains(&p));
    starts.chain(inside).cloned().collect()
}

/// Edits between two names, by characters: insertions, deletions,
/// substitutions and swaps of two neighbours (`mian` is one from `main`),
/// each one (optimal string alignment).
pub(super) fn edits(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Rows i-2, i-1 and i of the table.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (last[j - 1] + cost).min(last[j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut last, row);
    }
    last[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Vec<String> {
        [
            "acme/payments-api",
            "acme/web-storefront",
            "acme/payments-worker",
            "main",
        ]
        .map(String::from)
        .to_vec()
    }

    #[test]
    fn did_you_mean_names_the_near_ones_or_nothing() {
        let k = ["severities", "states", "repositoryNames", "ruleIds"];
        assert_eq!(
            did_you_mean(&k, "severites").as_deref(),
            Some("did you mean severities?")
        );
        assert_eq!(
            did_you_mean(&k, "STATES").as_deref(),
            Some("did you mean states?")
        );
        assert_eq!(
            did_you_mean(&["sort", "save", "since"], "s").as_deref(),
            Some("did you mean sort, save or since?")
        );
        assert_eq!(did_you_mean(&k, "zzzzzz"), None);
    }

    #[test]
    fn the_closest_name_contains_the_word_or_is_a_few_edits_away() {
        let k = known();
        assert_eq!(closest(&k, "payments-api"), Some("acme/payments-api"));
        assert_eq!(closest(&k, "PAYMENTS-API"), Some("acme/payments-api"));
        assert_eq!(closest(&k, "storefront"), Some("acme/web-storefront"));
        // A typo: two edits in a long name.
        assert_eq!(
            closest(&k, "acme/web-storfrnt"),
            Some("acme/web-storefront")
        );
        assert_eq!(closest(&k, "maim"), Some("main"));
        // Nothing near: no suggestion rather than a wild guess.
        assert_eq!(closest(&k, "billing"), None);
        assert_eq!(closest(&k, ""), None);
    }

    #[test]
    fn the_nearest_names_come_likeliest_first_and_once() {
        let k = known();
        assert_eq!(
            nearest(&k, "payments", 3),
            vec!["acme/payments-api", "acme/payments-worker"]
        );
        assert_eq!(nearest(&k, "payments", 1), vec!["acme/payments-api"]);
        // Containing first, then a few edits away.
        let k = ["main", "mainline", "maim"].map(String::from).to_vec();
        assert_eq!(nearest(&k, "main", 3), vec!["main", "mainline", "maim"]);
        let twice = ["a/x", "a/x"].map(String::from).to_vec();
        assert_eq!(nearest(&twice, "x", 3), vec!["a/x"]);
        assert!(nearest(&k, "billing", 3).is_empty());
    }

    #[test]
    fn matching_names_start_with_the_word_first() {
        let k = known();
        assert_eq!(
            matching(&k, "acme/pay"),
            vec!["acme/payments-api", "acme/payments-worker"]
        );
        assert_eq!(matching(&k, "store"), vec!["acme/web-storefront"]);
        assert_eq!(matching(&k, "").len(), 4);
        assert!(matching(&k, "zzz").is_empty());
    }

    #[test]
    fn edits_count_insertions_deletions_and_substitutions() {
        assert_eq!(edits("kitten", "sitting"), 3);
        assert_eq!(edits("", "abc"), 3);
        assert_eq!(edits("same", "same"), 0);
        assert_eq!(edits("mian", "main"), 1, "a swap is one edit");
        assert_eq!(edits("abc", ""), 3);
    }
}
