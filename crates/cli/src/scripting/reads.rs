//! Which of an item's fields a `--jq` expression can read, so that only
//! those are decoded: `[.id, .severity] | @csv` needs two fields of a
//! finding's fifty. The answer is `None` ("all of it") whenever the
//! expression could see the item as a whole: `.` given out or kept
//! (`select(...)` alone, `.a = 1`), a field named at run time (`.[$k]`,
//! `.[]`, `..`), a function given the item (`keys`, `tojson`, a `def`),
//! the item bound to a variable. Only what is certain is narrowed: a wrong
//! "only these" would print a wrong result, a wrong "all" costs time.

use jaq_core::load::lex::StrPart;
use jaq_core::load::parse::{BinaryOp, Term};
use jaq_core::path::{Part, Path};
use std::collections::BTreeSet;

/// The item's top-level fields `term` reads, when that is all it reads.
pub(super) fn fields_read(term: &Term<&str>) -> Option<BTreeSet<String>> {
    let mut reads = Reads::default();
    let passes = reads.term(term, true);
    (!reads.whole && !passes).then_some(reads.fields)
}

/// Builtins that never look at their input (with no arguments).
const INPUT_FREE: [&str; 7] = ["empty", "true", "false", "null", "now", "nan", "infinite"];

#[derive(Default)]
struct Reads {
    fields: BTreeSet<String>,
    /// The expression may read the item beyond `fields`.
    whole: bool,
}

impl Reads {
    /// Walks `term` run on the item (`on_item`) or on other values; returns
    /// whether it may give out its input unchanged (`.`, `select`).
    fn term(&mut self, term: &Term<&str>, on_item: bool) -> bool {
        match term {
            Term::Id => true,
            Term::Recurse => self.uses_whole(on_item),
            Term::Num(_) | Term::Break(_) | Term::Var(_) => false,
            Term::Str(format, parts) => {
                for part in parts {
                    if let StrPart::Term(t) = part {
                        self.consumed(t, on_item);
                    }
                }
                // `@csv` alone formats its input.
                format.is_some() && parts.is_empty() && self.uses_whole(on_item)
            }
            Term::Arr(inner) => {
                if let Some(t) = inner {
                    self.consumed(t, on_item);
                }
                false
            }
            Term::Obj(entries) => {
                for (key, value) in entries {
                    match (key, value) {
                        (key, None) => match literal(key) {
                            Some(name) if on_item => drop(self.fields.insert(name)),
                            Some(_) => {}
                            None if matches!(key, Term::Var(_)) => {}
                            None => self.consumed(key, on_item),
                        },
                        (key, Some(value)) => {
                            self.consumed(key, on_item);
                            self.consumed(value, on_item);
                        }
                    }
                }
                false
            }
            Term::Neg(t) => {
                self.consumed(t, on_item);
                false
            }
            Term::BinOp(l, op, r) => self.binary(l, op, r, on_item),
            Term::Label(_, t) => self.term(t, on_item),
            Term::TryCatch(t, catch) => {
                let passes = self.term(t, on_item);
                if let Some(c) = catch {
                    // The error may hold the item: its handler is on the item.
                    let handler = self.term(c, on_item);
                    return passes || handler;
                }
                passes
            }
            Term::IfThenElse(branches, otherwise) => {
                let mut passes = otherwise.is_none();
                for (cond, then) in branches {
                    self.consumed(cond, on_item);
                    passes |= self.term(then, on_item);
                }
                if let Some(t) = otherwise {
                    passes |= self.term(t, on_item);
                }
                passes
            }
            Term::Call(name, args) => self.call(name, args, on_item),
            Term::Path(head, path) => self.path(head, path, on_item),
            // A definition or a fold: what it does with its input is not
            // followed here.
            Term::Def(..) | Term::Fold(..) => self.uses_whole(on_item),
        }
    }

    /// `term`'s results are used (not given out as they are): a result
    /// that may be the item reads it whole.
    fn consumed(&mut self, term: &Term<&str>, on_item: bool) {
        if self.term(term, on_item) {
            self.uses_whole(on_item);
        }
    }

    /// The input is read in full: when it is the item, that is all of it.
    fn uses_whole(&mut self, on_item: bool) -> bool {
        if on_item {
            self.whole = true;
        }
        false
    }

    fn binary(
        &mut self,
        l: &Term<&str>,
        op: &BinaryOp<&str>,
        r: &Term<&str>,
        on_item: bool,
    ) -> bool {
        match op {
            // `l | r`: r runs on l's results, which may be the item.
            BinaryOp::Pipe(None) => {
                let l_passes = self.term(l, on_item);
                self.term(r, on_item && l_passes) && on_item && l_passes
            }
            // `l as $x | r`: r runs on the input; $x may be the item.
            BinaryOp::Pipe(Some(_)) => {
                self.consumed(l, on_item);
                self.term(r, on_item)
            }
            BinaryOp::Comma | BinaryOp::Alt => {
                let a = self.term(l, on_item);
                let b = self.term(r, on_item);
                a || b
            }
            BinaryOp::Or | BinaryOp::And | BinaryOp::Math(_) | BinaryOp::Cmp(_) => {
                self.consumed(l, on_item);
                self.consumed(r, on_item);
                false
            }
            // An assignment gives out the whole input, changed.
            BinaryOp::Assign | BinaryOp::Update | BinaryOp::UpdateMath(_) | BinaryOp::UpdateAlt => {
                self.consumed(l, on_item);
                self.consumed(r, on_item);
                self.uses_whole(on_item)
            }
        }
    }

    fn call(&mut self, name: &str, args: &[Term<&str>], on_item: bool) -> bool {
        match (name, args) {
            // `select(f)`: f on the input, which it gives out.
            ("select", [f]) => {
                self.consumed(f, on_item);
                true
            }
            (name, []) if INPUT_FREE.contains(&name) => false,
            // Any other function may read all of its input.
            (_, args) => {
                for a in args {
                    self.term(a, on_item);
                }
                self.uses_whole(on_item)
            }
        }
    }

    /// `head` then a path: `.a.b[0]` reads the field `a` of what `head`
    /// gives; a part's index is run on the input too (`.a[.i]`).
    fn path(&mut self, head: &Term<&str>, path: &Path<Term<&str>>, on_item: bool) -> bool {
        let head_passes = self.term(head, on_item);
        let Path(parts) = path;
        for (part, _) in parts {
            match part {
                Part::Index(i) => self.consumed(i, on_item),
                Part::Range(from, to) => {
                    for t in [from, to].into_iter().flatten() {
                        self.consumed(t, on_item);
                    }
                }
            }
        }
        if head_passes && on_item {
            match parts.first() {
                Some((Part::Index(key), _)) => match literal(key) {
                    Some(name) => drop(self.fields.insert(name)),
                    None => self.whole = true,
                },
                Some((Part::Range(..), _)) => self.whole = true,
                None => return true,
            }
        }
        false
    }
}

/// A string literal's text (`"a"`, the `a` of `.a`).
fn literal(term: &Term<&str>) -> Option<String> {
    let Term::Str(None, parts) = term else {
        return None;
    };
    let mut text = String::new();
    for part in parts {
        match part {
            StrPart::Str(s) => text.push_str(s),
            StrPart::Char(c) => text.push(*c),
            StrPart::Term(_) => return None,
        }
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(code: &str) -> Option<Vec<String>> {
        let term = jaq_core::load::parse(code, |p| p.term()).expect(code);
        fields_read(&term).map(|f| f.into_iter().collect())
    }

    #[test]
    fn only_the_fields_named_are_read_when_nothing_else_can_be() {
        let some = |names: &[&str]| Some(names.iter().map(|s| (*s).to_owned()).collect());
        assert_eq!(read(".id"), some(&["id"]));
        assert_eq!(read("[.id, .severity] | @csv"), some(&["id", "severity"]));
        assert_eq!(
            read("select(.severity == \"high\") | .id"),
            some(&["id", "severity"])
        );
        assert_eq!(
            read("{id, s: .severity, t: .a.b[0]}"),
            some(&["a", "id", "severity"])
        );
        assert_eq!(read("\"\\(.id)\\t\\(.rule)\""), some(&["id", "rule"]));
        assert_eq!(read(".\"a b\" // .c"), some(&["a b", "c"]));
        assert_eq!(read("if .x then .y else .z end"), some(&["x", "y", "z"]));
        assert_eq!(read(".tags | length"), some(&["tags"]));
        assert_eq!(read(".id as $i | .rule | tostring"), some(&["id", "rule"]));
        assert_eq!(read("[.a[.i]]"), some(&["a", "i"]));
        assert_eq!(read("now | floor"), some(&[]));
    }

    #[test]
    fn the_whole_item_when_it_could_be_seen() {
        for code in [
            ".",
            "select(.a)",
            "select(.a), .b",
            "keys",
            "tojson",
            "..",
            ".[]",
            ".[\"a\", \"b\"] | .",
            ".[$__loc__.file]",
            "to_entries",
            ".a = 1",
            "del(.a)",
            "def f: .x; f",
            ". as $it | [$it]",
            "[.]",
            "{a: .}",
            "@json",
            "length",
            "if .a then .b end",
            "reduce .x[] as $v (0; . + $v)",
            "try error(.) catch .",
            ". == {}",
            ".a, .",
        ] {
            assert_eq!(read(code), None, "{code}");
        }
    }
}
