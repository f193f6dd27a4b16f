//! What keeps a `--jq` expression from using up its thread's stack: jq's
//! standard library with `fromjson` and `tojson` bounded ([`MAX_DEPTH`]),
//! the expression's definitions made to check the stack left ([`guard`]),
//! and the checks themselves.

use jaq_core::load::parse::{BinaryOp, Def, Pattern, Term};
use jaq_core::path::{Part, Path};
use jaq_core::{Bind, Error, Exn, Native, data::JustLut};
use jaq_json::Val;
use std::cell::Cell;

pub(super) type Data = JustLut<Val>;

/// The deepest nesting of a value parsed from text: an item, or a string
/// given to `fromjson` (jq 1.7 refuses past 10,000 as well).
pub(super) const MAX_DEPTH: usize = 10_000;
/// The stack of the thread that runs the expression: reserved, touched
/// only as deep as the expression goes.
pub(super) const STACK: usize = 256 * 1024 * 1024;
/// What is kept free below the deepest call a definition may make, of a
/// stack of `stack` bytes: for what runs between two checks (a value
/// written or dropped whole, jaq's own filters). 64 MB of [`STACK`].
const fn spare(stack: usize) -> usize {
    stack / 4
}
/// The name the expression's definitions are wrapped in (see [`guard`]).
const DEEP: &str = "__findings_deep";

/// A definition of jq's own, beside the expression's (of a shorter life).
pub(super) fn shorter<'s>(def: Def<&'static str>) -> Def<&'s str> {
    def
}

/// jq's standard library (what is replaced is among the functions).
pub(super) fn std_defs() -> impl Iterator<Item = Def<&'static str>> {
    jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs())
        // Replaced by jq's own wording (`formats`).
        .filter(|def| !super::formats::REPLACED.contains(&def.name))
}

pub(super) fn std_funs() -> impl Iterator<Item = jaq_core::native::Fun<Data>> {
    let run_deep: jaq_core::RunPtr<Data> = |mut cv| {
        if stack_low() {
            return too_deep();
        }
        let (f, fc) = cv.0.pop_fun();
        Box::new(Guarded::new(f.run((fc, cv.1))))
    };
    let paths_deep: jaq_core::PathsPtr<Data> = |mut cv| {
        if stack_low() {
            return too_deep();
        }
        let (f, fc) = cv.0.pop_fun();
        Box::new(Guarded::new(f.paths((fc, cv.1))))
    };
    let update_deep: jaq_core::UpdatePtr<Data> = |mut cv, update| {
        if stack_low() {
            return too_deep();
        }
        let (f, fc) = cv.0.pop_fun();
        Box::new(Guarded::new(f.update((fc, cv.1), update)))
    };
    let deep = Native::<Data>::new(run_deep)
        .with_paths(paths_deep)
        .with_update(update_deep);
    let fromjson: jaq_core::RunPtr<Data> = |cv| {
        let text = match &cv.1 {
            Val::TStr(text) | Val::BStr(text) => text,
            other => return fail(format!("cannot parse {other} as JSON")),
        };
        if nesting_past(text, MAX_DEPTH) {
            return fail(format!(
                "fromjson: a value nested deeper than {MAX_DEPTH} levels is not parsed"
            ));
        }
        let values: Vec<_> = jaq_json::read::parse_many(text)
            .map(|v| v.map_err(|e| Exn::from(Error::str(format!("cannot parse as JSON: {e}")))))
            .collect();
        Box::new(values.into_iter())
    };
    // Writes what it is given recursively: refused past MAX_DEPTH (a value
    // built deep by the expression itself, `reduce ... ([.])`).
    let tojson: jaq_core::RunPtr<Data> = |cv| {
        if value_past(&cv.1, MAX_DEPTH) {
            return fail(format!(
                "tojson: a value nested deeper than {MAX_DEPTH} levels is not written"
            ));
        }
        let mut json = Vec::new();
        match jaq_json::write::write(&mut json, &Default::default(), 0, &cv.1) {
            Ok(()) => jaq_core::box_iter::box_once(Ok(Val::utf8_str(json))),
            Err(e) => fail(e.to_string()),
        }
    };
    // `env` without the secrets ([`super::env`]).
    let env: jaq_core::RunPtr<Data> = |_| jaq_core::box_iter::box_once(Ok(super::env::visible()));
    jaq_core::funs()
        .chain(jaq_std::funs().filter(|(name, _, _)| *name != "env"))
        .chain(jaq_json::funs().filter(|(name, _, _)| !matches!(*name, "fromjson" | "tojson")))
        .chain([
            (
                "tojson",
                jaq_core::native::v(0),
                Native::<Data>::new(tojson),
            ),
            (
                "fromjson",
                jaq_core::native::v(0),
                Native::<Data>::new(fromjson),
            ),
            (DEEP, [Bind::Fun(())].into(), deep),
            ("env", jaq_core::native::v(0), Native::<Data>::new(env)),
        ])
        .chain(super::formats::funs())
}

fn fail<'a, T: 'a>(message: String) -> jaq_core::box_iter::BoxIter<'a, Result<T, Exn<'a, Val>>> {
    jaq_core::box_iter::box_once(Err(Exn::from(Error::str(message))))
}

fn too_deep<'a, T: 'a>() -> jaq_core::box_iter::BoxIter<'a, Result<T, Exn<'a, Val>>> {
    fail("recursion too deep: the expression's stack is used up".into())
}

/// Results of a definition's body, the stack checked before each.
struct Guarded<I> {
    inner: I,
    ended: bool,
}

impl<I> Guarded<I> {
    fn new(inner: I) -> Self {
        Guarded {
            inner,
            ended: false,
        }
    }
}

impl<'a, T, I: Iterator<Item = Result<T, Exn<'a, Val>>>> Iterator for Guarded<I> {
    type Item = Result<T, Exn<'a, Val>>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.ended {
            return None;
        }
        if stack_low() {
            // One error, then the end (a `try` around it goes on after).
            self.ended = true;
            return Some(Err(Exn::from(Error::str(
                "recursion too deep: the expression's stack is used up",
            ))));
        }
        self.inner.next()
    }
}

thread_local! {
    /// Where this thread's stack started and how deep a definition may
    /// take it, on the expression's thread (0 elsewhere: no check).
    static STACK_TOP: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

/// Notes where this thread's stack starts: called first on the
/// expression's thread, whose stack is `stack` bytes ([`STACK`]).
pub(super) fn mark_stack_top(stack: usize) {
    let top = 0u8;
    let usable = stack - spare(stack);
    STACK_TOP.with(|t| t.set((std::ptr::addr_of!(top) as usize, usable)));
}

/// Whether the expression's thread has used its stack but the spare.
fn stack_low() -> bool {
    let here = 0u8;
    let here = std::ptr::addr_of!(here) as usize;
    let (top, usable) = STACK_TOP.with(Cell::get);
    // The stack grows down on every platform this builds for.
    top != 0 && top.saturating_sub(here) > usable
}

/// Whether JSON `text` nests arrays and objects deeper than `max` (a scan
/// that allocates nothing, before a parser that recurses).
pub(super) fn nesting_past(text: &[u8], max: usize) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &b in text {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Whether `value` nests arrays and objects deeper than `max` (a walk
/// with a stack of its own: it never recurses).
pub(super) fn value_past(value: &Val, max: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        match value {
            Val::Arr(items) if depth < max => stack.extend(items.iter().map(|v| (v, depth + 1))),
            Val::Obj(map) if depth < max => {
                stack.extend(
                    map.iter()
                        .flat_map(|(k, v)| [(k, depth + 1), (v, depth + 1)]),
                );
            }
            Val::Arr(_) | Val::Obj(_) => return true,
            _ => {}
        }
    }
    false
}

/// Every definition of `term` made to check the stack on each call and
/// each result: `def f: BODY;` becomes `def f: __findings_deep(BODY);`.
/// jaq's own definitions are left as they are (their loops are tail calls).
pub(super) fn guard(term: &mut Term<&str>) {
    match term {
        Term::Id | Term::Recurse | Term::Num(_) | Term::Var(_) | Term::Break(_) => {}
        Term::Str(_, parts) => {
            for part in parts {
                if let jaq_core::load::lex::StrPart::Term(t) = part {
                    guard(t);
                }
            }
        }
        Term::Arr(t) => {
            if let Some(t) = t {
                guard(t);
            }
        }
        Term::Obj(entries) => {
            for (k, v) in entries {
                guard(k);
                if let Some(v) = v {
                    guard(v);
                }
            }
        }
        Term::Neg(t) | Term::Label(_, t) => guard(t),
        Term::BinOp(l, op, r) => {
            if let BinaryOp::Pipe(Some(p)) = op {
                guard_pattern(p);
            }
            guard(l);
            guard(r);
        }
        Term::Fold(_, xs, p, args) => {
            guard(xs);
            guard_pattern(p);
            args.iter_mut().for_each(guard);
        }
        Term::TryCatch(t, c) => {
            guard(t);
            if let Some(c) = c {
                guard(c);
            }
        }
        Term::IfThenElse(branches, otherwise) => {
            for (cond, then) in branches {
                guard(cond);
                guard(then);
            }
            if let Some(t) = otherwise {
                guard(t);
            }
        }
        Term::Def(defs, rest) => {
            for def in defs {
                guard(&mut def.body);
                let body = std::mem::take(&mut def.body);
                def.body = Term::Call(DEEP, vec![body]);
            }
            guard(rest);
        }
        Term::Call(_, args) => args.iter_mut().for_each(guard),
        Term::Path(t, Path(parts)) => {
            guard(t);
            for (part, _) in parts {
                match part {
                    Part::Index(i) => guard(i),
                    Part::Range(from, to) => {
                        from.iter_mut().chain(to.iter_mut()).for_each(guard);
                    }
                }
            }
        }
    }
}

fn guard_pattern(pattern: &mut Pattern<&str>) {
    match pattern {
        Pattern::Var(_) => {}
        Pattern::Arr(ps) => ps.iter_mut().for_each(guard_pattern),
        Pattern::Obj(entries) => {
            for (k, p) in entries {
                guard(k);
                guard_pattern(p);
            }
        }
    }
}
