//! Comparing result lists, and the report of the first divergence.
//!
//! Results compare exactly, except the message of an exception whose text a
//! third-party library builds (commons-lang3 `Validate`, netty, the JDK):
//! those may change between library versions, so only the class is compared.
//! A run-dependent op's recording ([`Outcome::AnyOf`]) is matched by any of
//! its results.

use std::fmt::{self, Write};

use serde_json::Value;

use crate::case::{parse_hex, Case};
use crate::outcome::Outcome;

/// Exceptions whose messages Minecraft's own code does not build.
pub const THIRD_PARTY: [&str; 4] = [
    // commons-lang3 Validate (storage and index range checks).
    "IllegalArgumentException",
    // netty's buffer bounds checks on short input.
    "IndexOutOfBoundsException",
    // the JDK's array bounds checks.
    "ArrayIndexOutOfBoundsException",
    // the JDK's `new long[n]` of a negative long count (before 1.21.5).
    "NegativeArraySizeException",
];

/// Whether `actual` counts as the same result as `expected`: for a
/// run-dependent `expected`, the same as one of its results; a run-dependent
/// `actual` (one recording held against another) only when each of its
/// results is.
pub fn matches(expected: &Outcome, actual: &Outcome) -> bool {
    actual
        .alternatives()
        .iter()
        .all(|a| expected.alternatives().iter().any(|e| matches_one(e, a)))
}

/// How many of `results` are run-dependent ops ([`Outcome::AnyOf`]): reports
/// count them apart from the ops that agreed with a fact.
pub fn run_dependent_ops(results: &[Outcome]) -> usize {
    results.iter().filter(|r| r.is_run_dependent()).count()
}

/// "N run-dependent op(s)", as reports say it.
pub fn run_dependent_count(n: usize) -> String {
    format!("{n} run-dependent op{}", if n == 1 { "" } else { "s" })
}

fn matches_one(expected: &Outcome, actual: &Outcome) -> bool {
    match (expected, actual) {
        (Outcome::Throws { class: a, .. }, Outcome::Throws { class: b, .. })
            if THIRD_PARTY.contains(&a.as_str()) =>
        {
            a == b
        }
        _ => expected == actual,
    }
}

/// The first op whose results differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// The op's index.
    pub op: usize,
    /// The op's short text.
    pub op_text: String,
    /// What the recording says.
    pub expected: Outcome,
    /// What the executor gave; `None` when it gave fewer results.
    pub actual: Option<Outcome>,
    /// Ops after this one, which are not compared.
    pub not_compared: usize,
}

/// How a case's results compare, by the adapter rule: ops in order. An
/// `unsupported` op that changes no state is skipped and comparison goes
/// on; one that changes state ends what can be compared. The first compared
/// op that differs fails the case; a case none of whose ops could be
/// compared is unsupported (counted apart, neither passed nor failed).
#[derive(Clone, Debug, PartialEq)]
pub enum Comparison {
    /// Every compared op matched (and at least one was compared, unless the
    /// case has no ops).
    Same,
    /// The first differing op.
    Differs(Divergence),
    /// Nothing could be compared: the first unsupported op, before which
    /// every op was skipped.
    Unsupported {
        /// The op's index.
        op: usize,
        /// The op's short text.
        op_text: String,
        /// Why, as the side that could not run it said.
        reason: String,
    },
}

/// How much of a case a comparison reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Ops whose results were compared.
    pub compared: usize,
    /// Unsupported ops that change no state, skipped.
    pub skipped: usize,
    /// The unsupported state change that ended the comparison, if one did:
    /// its index and why.
    pub ended: Option<(usize, String)>,
}

/// Compares by the adapter rule (see [`Comparison`]); either side may hold
/// `unsupported`.
pub fn compare(case: &Case, expected: &[Outcome], actual: &[Outcome]) -> Comparison {
    measure(case, expected, actual).0
}

/// [`compare`], with how many ops were compared and skipped.
pub fn measure(case: &Case, expected: &[Outcome], actual: &[Outcome]) -> (Comparison, Counts) {
    let mut counts = Counts::default();
    let mut first_unsupported = None;
    for i in 0..case.ops.len() {
        let unsupported = [expected.get(i), actual.get(i)]
            .into_iter()
            .find_map(|o| match o {
                Some(Outcome::Unsupported(why)) => Some(why.clone()),
                _ => None,
            });
        if let Some(reason) = unsupported {
            first_unsupported.get_or_insert((i, reason.clone()));
            if case.ops.changes_state(i) {
                counts.ended = Some((i, reason));
                break;
            }
            counts.skipped += 1;
            continue;
        }
        counts.compared += 1;
        if let Some(d) = divergence_at(case, expected, actual, i) {
            return (Comparison::Differs(d), counts);
        }
    }
    match first_unsupported {
        Some((op, reason)) if counts.compared == 0 => (
            Comparison::Unsupported {
                op,
                op_text: case.ops.text(op),
                reason,
            },
            counts,
        ),
        _ => (Comparison::Same, counts),
    }
}

fn divergence_at(
    case: &Case,
    expected: &[Outcome],
    actual: &[Outcome],
    i: usize,
) -> Option<Divergence> {
    let e = expected.get(i)?;
    let a = actual.get(i);
    if a.is_some_and(|a| matches(e, a)) {
        return None;
    }
    Some(Divergence {
        op: i,
        op_text: case.ops.text(i),
        expected: e.clone(),
        actual: a.cloned(),
        not_compared: case.ops.len() - i - 1,
    })
}

/// The first op whose results differ, if any. Results after it depend on
/// the state the diverging op left, so they are not compared.
pub fn first_divergence(
    case: &Case,
    expected: &[Outcome],
    actual: &[Outcome],
) -> Option<Divergence> {
    (0..case.ops.len()).find_map(|i| divergence_at(case, expected, actual, i))
}

impl Divergence {
    /// The report: case, op, both results and a bounded diff (see
    /// [`bounded_diff`]). `expected_from` and `actual_from` name the two
    /// sides (`recorded`, `paletted (Rust)`).
    pub fn report(&self, case: &Case, expected_from: &str, actual_from: &str) -> String {
        self.report_with(case, expected_from, actual_from, false)
    }

    /// [`report`](Self::report); with `full`, the whole diff.
    pub fn report_with(
        &self,
        case: &Case,
        expected_from: &str,
        actual_from: &str,
        full: bool,
    ) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "case {}: op {} of {} diverges: {}",
            case.label(),
            self.op,
            case.ops.len(),
            self.op_text
        );
        let width = expected_from.len().max(actual_from.len());
        let _ = writeln!(s, "  {expected_from:<width$}  {}", one_line(&self.expected));
        match &self.actual {
            Some(a) => {
                let _ = writeln!(s, "  {actual_from:<width$}  {}", one_line(a));
                if let Some(note) = third_party_note(&self.expected, a) {
                    let _ = writeln!(s, "  ({note})");
                }
                let kind = case.ops.kind(self.op);
                let _ = write!(s, "{}", bounded_diff(kind, &self.expected, a, full));
            }
            None => {
                let _ = writeln!(s, "  {actual_from:<width$}  (no result)");
            }
        }
        if self.not_compared > 0 {
            let _ = writeln!(s, "{} later ops not compared", self.not_compared);
        }
        s
    }
}

fn third_party_note(expected: &Outcome, actual: &Outcome) -> Option<&'static str> {
    match (expected, actual) {
        (Outcome::Throws { class, .. }, Outcome::Throws { .. })
            if THIRD_PARTY.contains(&class.as_str()) =>
        {
            Some("the message is a third-party library's; only the class is compared")
        }
        _ => None,
    }
}

/// A result on one line, long ones cut.
/// A result on one line, cut after 160 characters (with the full length
/// said), as divergence reports and `rig repro` show results.
pub fn one_line(o: &Outcome) -> String {
    const MAX: usize = 160;
    let s = o.to_string();
    if s.chars().count() > MAX {
        format!(
            "{}… ({} chars)",
            s.chars().take(MAX).collect::<String>(),
            s.len()
        )
    } else {
        s
    }
}

/// A result as lines to diff: byte strings (the `write` op's hex) as hex
/// lines of 16 bytes, lists one entry a line, a packed container field by
/// field, everything else one line.
pub fn render(op_kind: &str, o: &Outcome) -> Vec<String> {
    match o {
        Outcome::Ok(Value::String(hex)) if op_kind == "write" => match parse_hex(hex) {
            Ok(bytes) => hex_lines(&bytes),
            Err(_) => vec![format!("ok {}", Value::String(hex.clone()))],
        },
        Outcome::Ok(Value::Array(items)) => {
            let mut lines = vec![format!("ok: list of {}", items.len())];
            lines.extend(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| format!("  [{i}] {v}")),
            );
            lines
        }
        Outcome::Ok(Value::Object(fields)) => {
            let mut lines = vec!["ok:".to_string()];
            for (k, v) in fields {
                match v {
                    Value::Array(items) => {
                        lines.push(format!("  {k}: list of {}", items.len()));
                        lines.extend(
                            items
                                .iter()
                                .enumerate()
                                .map(|(i, v)| format!("    [{i}] {v}")),
                        );
                    }
                    v => lines.push(format!("  {k}: {v}")),
                }
            }
            lines
        }
        Outcome::Ok(v) => vec![format!("ok {v}")],
        Outcome::Error(e) => vec![format!("error {e}")],
        Outcome::Throws { class, message } => {
            vec![format!(
                "throws {class}: {}",
                message.as_deref().unwrap_or("null")
            )]
        }
        Outcome::Unsupported(why) => vec![format!("unsupported: {why}")],
        Outcome::AnyOf(v) => {
            let mut lines = vec![format!("any of {} (run-dependent):", v.len())];
            for o in v {
                lines.extend(render(op_kind, o).into_iter().map(|l| format!("  | {l}")));
            }
            lines
        }
    }
}

/// Bytes as lines of 16, each with its offset, so one changed byte changes
/// one line.
pub fn hex_lines(bytes: &[u8]) -> Vec<String> {
    let mut lines = vec![format!("ok: {} bytes", bytes.len())];
    for (n, chunk) in bytes.chunks(16).enumerate() {
        let mut line = format!("  {:06x} ", n * 16);
        for b in chunk {
            let _ = write!(line, " {b:02x}");
        }
        lines.push(line);
    }
    lines
}

/// Lines whose `Debug` is the lines themselves, for pretty_assertions.
struct Lines(Vec<String>);

impl fmt::Debug for Lines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join("\n"))
    }
}

/// Unchanged lines kept around each change.
const CONTEXT: usize = 3;

/// The diff of two results (pretty_assertions, `<` recorded, `>` actual),
/// without colour, and with long runs of equal lines folded.
pub fn diff(op_kind: &str, expected: &Outcome, actual: &Outcome) -> String {
    let left = Lines(render(op_kind, expected));
    let right = Lines(render(op_kind, actual));
    let full = strip_ansi(&format!(
        "{}",
        pretty_assertions::Comparison::new(&left, &right)
    ));
    let lines: Vec<&str> = full.lines().collect();
    let changed: Vec<bool> = lines
        .iter()
        .map(|l| l.starts_with('<') || l.starts_with('>'))
        .collect();
    let near = |i: usize| {
        let lo = i.saturating_sub(CONTEXT);
        let hi = (i + CONTEXT + 1).min(lines.len());
        changed[lo..hi].iter().any(|&c| c)
    };
    let mut out = String::from("diff (< recorded, > actual):\n");
    let mut folded: Vec<&str> = Vec::new();
    let flush = |out: &mut String, folded: &mut Vec<&str>| {
        match folded.len() {
            0 => {}
            1 => {
                let _ = writeln!(out, "{}", folded[0]);
            }
            n => {
                let _ = writeln!(out, "  ... {n} equal lines");
            }
        }
        folded.clear();
    };
    // The first line is pretty_assertions' own header, replaced above.
    for (i, line) in lines.iter().enumerate().skip(1) {
        if near(i) {
            flush(&mut out, &mut folded);
            let _ = writeln!(out, "{line}");
        } else {
            folded.push(line);
        }
    }
    flush(&mut out, &mut folded);
    out
}

/// Lines of a diff shown without `full`.
const DIFF_LINES: usize = 30;
/// Differing items listed without `full`, for each list.
const ITEMS: usize = 8;
/// Rendered lines (both results) past which a diff is not worth making
/// without `full`: the first differing items are listed instead.
const DIFFED: usize = 400;

/// The diff of two results, bounded as a failure report should be: for each
/// list that differs (a palette, `get_all`, counts, longs, a packed field,
/// `write`'s bytes) both lengths, how many positions differ and the first;
/// then the line diff ([`diff`]) cut after a few lines, or for long results
/// the first differing items. `full` shows the whole diff.
pub fn bounded_diff(op_kind: &str, expected: &Outcome, actual: &Outcome, full: bool) -> String {
    let lists = lists(op_kind, expected, actual);
    let mut out = String::new();
    for l in &lists {
        let _ = writeln!(out, "{}", l.summary());
    }
    let lines = rendered_len(op_kind, expected) + rendered_len(op_kind, actual);
    if full || lines <= DIFFED {
        let d = diff(op_kind, expected, actual);
        let n = d.lines().count();
        if full || n <= DIFF_LINES + 1 {
            out.push_str(&d);
        } else {
            for line in d.lines().take(DIFF_LINES) {
                let _ = writeln!(out, "{line}");
            }
            let _ = writeln!(
                out,
                "  ... {} more diff lines (--full shows all)",
                n - DIFF_LINES
            );
        }
        return out;
    }
    let _ = writeln!(
        out,
        "first differing items (< recorded, > actual; --full shows the whole diff):"
    );
    for l in &lists {
        let field = l.field.map(|f| format!("{f} ")).unwrap_or_default();
        for &i in &l.first {
            let _ = writeln!(out, "<   {field}[{i}] {}", l.expected.show(i));
            let _ = writeln!(out, ">   {field}[{i}] {}", l.actual.show(i));
        }
        if l.differ > l.first.len() {
            let _ = writeln!(
                out,
                "  ... {} more differing {field}items",
                l.differ - l.first.len()
            );
        }
    }
    if lists.is_empty() {
        let _ = writeln!(out, "  (results of {lines} lines; --full shows the diff)");
    }
    out
}

/// How many lines [`render`] gives for `o`, without rendering it (a
/// storage's `values` may hold 2^26 of them).
fn rendered_len(op_kind: &str, o: &Outcome) -> usize {
    match o {
        Outcome::Ok(Value::String(hex)) if op_kind == "write" => 1 + hex.len().div_ceil(32),
        Outcome::Ok(Value::Array(items)) => 1 + items.len(),
        Outcome::Ok(Value::Object(fields)) => {
            1 + fields
                .values()
                .map(|v| match v {
                    Value::Array(items) => 1 + items.len(),
                    _ => 1,
                })
                .sum::<usize>()
        }
        Outcome::AnyOf(v) => 1 + v.iter().map(|o| rendered_len(op_kind, o)).sum::<usize>(),
        _ => 1,
    }
}

/// A list's items, as a result holds them.
enum Items<'a> {
    Values(&'a [Value]),
    Bytes(Vec<u8>),
}

impl Items<'_> {
    fn len(&self) -> usize {
        match self {
            Items::Values(v) => v.len(),
            Items::Bytes(b) => b.len(),
        }
    }

    fn same(&self, other: &Items<'_>, i: usize) -> bool {
        match (self, other) {
            (Items::Values(a), Items::Values(b)) => a.get(i) == b.get(i),
            (Items::Bytes(a), Items::Bytes(b)) => a.get(i) == b.get(i),
            _ => false,
        }
    }

    /// Item `i`, or "(none)" past the end.
    fn show(&self, i: usize) -> String {
        match self {
            Items::Values(v) => v.get(i).map(Value::to_string),
            Items::Bytes(b) => b.get(i).map(|b| format!("{b:02x}")),
        }
        .unwrap_or_else(|| "(none)".to_string())
    }
}

/// One list inside two results, item by item.
struct List<'a> {
    /// The field of a packed container, or `None` for the result itself.
    field: Option<&'static str>,
    expected: Items<'a>,
    actual: Items<'a>,
    /// How many positions differ (or are on one side only).
    differ: usize,
    /// The first of them, up to [`ITEMS`].
    first: Vec<usize>,
}

impl<'a> List<'a> {
    fn new(field: Option<&'static str>, expected: Items<'a>, actual: Items<'a>) -> List<'a> {
        let mut differ = 0;
        let mut first = Vec::new();
        for i in 0..expected.len().max(actual.len()) {
            if !expected.same(&actual, i) {
                differ += 1;
                if first.len() < ITEMS {
                    first.push(i);
                }
            }
        }
        List {
            field,
            expected,
            actual,
            differ,
            first,
        }
    }

    fn summary(&self) -> String {
        let (what, unit) = match self.expected {
            Items::Bytes(_) => ("bytes", "byte"),
            Items::Values(_) => ("list", "item"),
        };
        let what = self.field.unwrap_or(what);
        let k = self.differ;
        let first = self
            .first
            .first()
            .map(|i| format!(", the first at [{i}]"))
            .unwrap_or_default();
        format!(
            "{what}: {} {unit}s recorded, {} actual; {k} position{} differ{}{first}",
            self.expected.len(),
            self.actual.len(),
            if k == 1 { "" } else { "s" },
            if k == 1 { "s" } else { "" },
        )
    }
}

/// The lists two plain results hold, where they differ: both a list, both
/// `write`'s bytes, or a packed container's list fields.
fn lists<'a>(op_kind: &str, expected: &'a Outcome, actual: &'a Outcome) -> Vec<List<'a>> {
    let (Outcome::Ok(e), Outcome::Ok(a)) = (expected, actual) else {
        return Vec::new();
    };
    let list = match (e, a) {
        (Value::String(e), Value::String(a)) if op_kind == "write" => {
            match (parse_hex(e), parse_hex(a)) {
                (Ok(e), Ok(a)) => Some(List::new(None, Items::Bytes(e), Items::Bytes(a))),
                _ => None,
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            Some(List::new(None, Items::Values(e), Items::Values(a)))
        }
        (Value::Object(e), Value::Object(a)) => {
            let fields = ["palette", "data"].into_iter().filter_map(|f| {
                let get = |o: &'a serde_json::Map<String, Value>| match o.get(f) {
                    Some(Value::Array(v)) => Some(Items::Values(v)),
                    Some(Value::Null) | None => Some(Items::Values(&[])),
                    Some(_) => None,
                };
                Some(List::new(Some(f), get(e)?, get(a)?))
            });
            return fields.filter(|l| l.differ > 0).collect();
        }
        _ => None,
    };
    list.into_iter().filter(|l| l.differ > 0).collect()
}

/// Removes ANSI colour sequences (pretty_assertions always colours).
fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Case;
    use std::path::Path;

    fn case() -> Case {
        Case::parse(
            r#"{"name":"t","subject":{"kind":"container","strategy":"biomes","registry":4,"initial":0},"ops":[{"op":"bits"},{"op":"write"},{"op":"bits"},{"op":"bits"}]}"#,
            Path::new("t.json"),
        )
        .unwrap()
    }

    #[test]
    fn third_party_messages_compare_by_class() {
        let a = Outcome::throws("IllegalArgumentException", "The value 5 is not in ...");
        let b = Outcome::throws("IllegalArgumentException", "other text");
        assert!(matches(&a, &b));
        let c = Outcome::throws("IllegalStateException", "x");
        let d = Outcome::throws("IllegalStateException", "y");
        assert!(!matches(&c, &d));
    }

    #[test]
    fn one_changed_byte_is_one_line_and_later_ops_are_not_compared() {
        let bytes: Vec<u8> = (0..64).collect();
        let mut changed = bytes.clone();
        changed[37] = 0xff;
        let hex = |b: &[u8]| Outcome::Ok(Value::String(crate::case::to_hex(b)));
        let ok = |n: i64| Outcome::Ok(n.into());
        let expected = [ok(0), hex(&bytes), ok(0), ok(0)];
        let actual = [ok(0), hex(&changed), ok(1), ok(1)];
        let d = first_divergence(&case(), &expected, &actual).unwrap();
        assert_eq!((d.op, d.not_compared), (1, 2));
        let report = d.report(&case(), "recorded", "paletted");
        let minus: Vec<&str> = report.lines().filter(|l| l.starts_with('<')).collect();
        let plus: Vec<&str> = report.lines().filter(|l| l.starts_with('>')).collect();
        assert_eq!(minus.len(), 1, "{report}");
        assert_eq!(plus.len(), 1, "{report}");
        assert!(plus[0].contains("ff"), "{report}");
        assert!(report.contains("2 later ops not compared"), "{report}");
        assert!(!report.contains('\u{1b}'));
    }

    #[test]
    fn the_first_difference_or_unsupported_op_decides() {
        let ok = |n: i64| Outcome::Ok(n.into());
        let no = || Outcome::Unsupported("no bits".into());
        let r = [ok(0), ok(1), ok(2), ok(3)];
        assert_eq!(compare(&case(), &r, &r), Comparison::Same);
        // A difference before the unsupported op fails the case.
        let a = [ok(0), ok(9), no(), no()];
        assert!(matches!(compare(&case(), &r, &a), Comparison::Differs(d) if d.op == 1));
        // An unsupported op that changes no state is skipped: later ops
        // still compare, and a difference there fails the case.
        let a = [ok(0), no(), ok(7), ok(7)];
        let (c, counts) = measure(&case(), &r, &a);
        assert!(
            matches!(c, Comparison::Differs(ref d) if d.op == 2),
            "{c:?}"
        );
        assert_eq!((counts.compared, counts.skipped), (2, 1));
        let a = [ok(0), no(), ok(2), ok(3)];
        let (c, counts) = measure(&case(), &r, &a);
        assert_eq!(c, Comparison::Same);
        assert_eq!(
            (counts.compared, counts.skipped, counts.ended),
            (3, 1, None)
        );
        // Nothing compared at all: unsupported, at the first unsupported op.
        match compare(&case(), &r, &[no(), no(), no(), no()]) {
            Comparison::Unsupported { op, reason, .. } => {
                assert_eq!((op, reason.as_str()), (0, "no bits"))
            }
            other => panic!("{other:?}"),
        }
        // Fewer results than ops is a difference at the first missing one.
        assert!(
            matches!(compare(&case(), &r, &r[..2]), Comparison::Differs(d) if d.op == 2 && d.actual.is_none())
        );
    }

    #[test]
    fn a_run_dependent_recording_accepts_any_of_its_results() {
        let ok = |n: i64| Outcome::Ok(n.into());
        let either = Outcome::seen([ok(1), ok(2)]);
        assert!(matches(&either, &ok(1)) && matches(&either, &ok(2)));
        assert!(!matches(&either, &ok(3)));
        // A recording that is run-dependent where another holds a fact is not the same.
        assert!(!matches(&ok(1), &either));
        assert!(matches(&Outcome::seen([ok(2), ok(1), ok(3)]), &either));
        let r = [ok(0), either.clone(), ok(2), ok(3)];
        assert_eq!(run_dependent_ops(&r), 1);
        assert_eq!(
            compare(&case(), &r, &[ok(0), ok(2), ok(2), ok(3)]),
            Comparison::Same
        );
        let d = first_divergence(&case(), &r, &[ok(0), ok(7), ok(2), ok(3)]).unwrap();
        assert_eq!(d.op, 1);
        assert!(d
            .report(&case(), "recorded", "rust")
            .contains("any of 2 (run-dependent)"));
    }

    #[test]
    fn an_unsupported_state_change_ends_the_comparison() {
        let case = Case::parse(
            r#"{"name":"t","subject":{"kind":"container","strategy":"biomes","registry":4,"initial":0},"ops":[{"op":"bits"},{"op":"set","x":0,"y":0,"z":0,"value":1},{"op":"bits"}]}"#,
            Path::new("t.json"),
        )
        .unwrap();
        let ok = |n: i64| Outcome::Ok(n.into());
        let no = || Outcome::Unsupported("no set".into());
        let r = [ok(0), ok(0), ok(1)];
        // The op after the unsupported set is not compared, even if it differs.
        let (c, counts) = measure(&case, &r, &[ok(0), no(), ok(9)]);
        assert_eq!(c, Comparison::Same);
        assert_eq!((counts.compared, counts.skipped), (1, 0));
        assert_eq!(counts.ended, Some((1, "no set".to_string())));
        // With nothing compared before it, the case is unsupported.
        let (c, counts) = measure(&case, &[no(), no(), ok(1)], &r);
        assert_eq!((counts.compared, counts.skipped), (0, 1));
        assert!(matches!(c, Comparison::Unsupported { op: 0, .. }), "{c:?}");
        let (c, _) = measure(&case, &[ok(0), no(), no()], &[no(), no(), no()]);
        assert!(matches!(c, Comparison::Unsupported { op: 0, .. }), "{c:?}");
    }

    #[test]
    fn a_long_list_that_differs_is_reported_in_a_few_lines() {
        // A 656-entry palette where the recording lists a global palette's
        // 35,723 ids: once 36,389 lines.
        let case = Case::parse(
            r#"{"name":"t","subject":{"kind":"container","strategy":"block_states","registry":35723,"initial":0},"ops":[{"op":"palette"}]}"#,
            Path::new("t.json"),
        )
        .unwrap();
        let expected = Outcome::Ok((0..35723).collect::<Vec<u32>>().into());
        let actual = Outcome::Ok((0..656).map(|i| i * 7).collect::<Vec<u32>>().into());
        let d = first_divergence(&case, &[expected], &[actual]).unwrap();
        let report = d.report(&case, "recorded", "adapter");
        assert!(report.lines().count() <= 30, "{report}");
        assert!(
            report.contains(
                "list: 35723 items recorded, 656 actual; 35722 positions differ, the first at [1]"
            ),
            "{report}"
        );
        assert!(report.contains("<   [1] 1\n>   [1] 7\n"), "{report}");
        // --full: everything.
        let full = d.report_with(&case, "recorded", "adapter", true);
        assert!(full.lines().count() > 35723, "{}", full.lines().count());
        // A short list differing everywhere: its diff, cut.
        let e = Outcome::Ok((0..100).collect::<Vec<u32>>().into());
        let a = Outcome::Ok((1000..1100).collect::<Vec<u32>>().into());
        let cut = bounded_diff("palette", &e, &a, false);
        assert!(cut.lines().count() <= 33, "{cut}");
        assert!(cut.contains("--full shows all"), "{cut}");
        assert!(
            cut.contains("100 positions differ, the first at [0]"),
            "{cut}"
        );
        // Bytes and packed fields say where they differ.
        let hex = |b: &[u8]| Outcome::Ok(Value::String(crate::case::to_hex(b)));
        let bytes = bounded_diff("write", &hex(&[1, 2, 3]), &hex(&[1, 9]), false);
        assert!(
            bytes.starts_with(
                "bytes: 3 bytes recorded, 2 actual; 2 positions differ, the first at [1]\n"
            ),
            "{bytes}"
        );
        let packed =
            |p: &[u32]| Outcome::Ok(serde_json::json!({"palette": p, "data": null, "bits": 0}));
        let fields = bounded_diff("pack", &packed(&[5]), &packed(&[6]), false);
        assert!(
            fields.starts_with(
                "palette: 1 items recorded, 1 actual; 1 position differs, the first at [0]\n"
            ),
            "{fields}"
        );
    }

    #[test]
    fn equal_lists_have_no_divergence() {
        let ok = |n: i64| Outcome::Ok(n.into());
        let r = [ok(0), ok(1), ok(2), ok(3)];
        assert_eq!(first_divergence(&case(), &r, &r), None);
    }
}
