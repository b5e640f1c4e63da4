//! The behaviour grid of `rig conformance`: a row per behaviour ([`super::behaviour`]), a
//! column per implementation, and its views: the Markdown table, the failing cells' case
//! lists (the grid's links land there), the JSON, and the static HTML page.

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::behaviour::Behaviour;

/// An implementation: its name in the grid, and the adapter command that replays a case.
pub struct Column {
    pub name: String,
    pub command: String,
}

/// One implementation on one behaviour.
#[derive(Default, Clone)]
pub struct Cell {
    /// Cases with an op of this behaviour compared.
    pub measured: usize,
    /// Failing cases (the behaviour is the first differing op's, or the case did not run),
    /// smallest first: (name, ops).
    pub failed: Vec<(String, usize)>,
}

impl Cell {
    /// What the grid shows: ✓, ✗ and the failing count, or — when nothing was measured.
    pub fn mark(&self) -> String {
        if self.measured == 0 {
            "—".into()
        } else if self.failed.is_empty() {
            "✓".into()
        } else {
            format!("✗ {}", self.failed.len())
        }
    }
}

/// The grid.
pub struct Grid {
    pub rows: Vec<Behaviour>,
    pub columns: Vec<Column>,
    /// `cells[row][column]`.
    pub cells: Vec<Vec<Cell>>,
}

/// One line saying how cases get their behaviours, for every view.
pub const ASSIGNED: &str = "Behaviours are assigned mechanically, op by op, from the coverage items each op reaches (`rig coverage`: resizes, palette transitions, wire inputs, error kinds), its kind, and what shaped the state it observes (the read or unpack before it, the resizes since); a case passes a behaviour when its compared ops of that behaviour match, and fails the behaviours of its first differing op.";

/// The legend of the cells.
pub const LEGEND: &str = "✓: every measured case passes; ✗ N: N cases fail (the link goes to the smallest and its replay command); —: not measured (no op of it compared).";

/// Failing cases listed per cell at most (the count says how many there are).
const LISTED: usize = 20;

/// The anchor of a cell's failures.
pub fn anchor(column: &str, behaviour: &Behaviour) -> String {
    let safe: String = column
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("{safe}--{}", behaviour.id)
}

/// The command replaying `case` through `command`'s adapter.
fn replay(case: &str, command: &str) -> String {
    format!("rig repro {case} --executor '{command}'")
}

impl Grid {
    /// The Markdown table; a failing cell links to `details` (a file name, or empty for this
    /// page) at the cell's anchor.
    pub fn markdown(&self, details: &str) -> String {
        let mut s = String::from("| behaviour |");
        for c in &self.columns {
            let _ = write!(s, " {} |", c.name);
        }
        s.push_str("\n| --- |");
        for _ in &self.columns {
            s.push_str(" --- |");
        }
        s.push('\n');
        for (row, cells) in self.rows.iter().zip(&self.cells) {
            let _ = write!(s, "| {} |", row.name);
            for (col, cell) in self.columns.iter().zip(cells) {
                if cell.failed.is_empty() {
                    let _ = write!(s, " {} |", cell.mark());
                } else {
                    let _ = write!(
                        s,
                        " [{}]({details}#{}) |",
                        cell.mark(),
                        anchor(&col.name, row)
                    );
                }
            }
            s.push('\n');
        }
        s
    }

    /// Each failing cell: its smallest case, the replay command, the other failing cases.
    pub fn failures_markdown(&self) -> String {
        let mut s = String::new();
        for (c, col) in self.columns.iter().enumerate() {
            let failing: Vec<(&Behaviour, &Cell)> = self
                .rows
                .iter()
                .zip(&self.cells)
                .map(|(r, cells)| (r, &cells[c]))
                .filter(|(_, cell)| !cell.failed.is_empty())
                .collect();
            if failing.is_empty() {
                continue;
            }
            let _ = writeln!(s, "\n### {}: failing behaviours\n", col.name);
            for (row, cell) in failing {
                let (smallest, ops) = &cell.failed[0];
                let _ = writeln!(
                    s,
                    "<a id=\"{}\"></a>\n**{}: {}** — {} of {} measured cases fail. Smallest: `{smallest}` ({ops} ops), replayed by `{}`.",
                    anchor(&col.name, row),
                    col.name,
                    row.name,
                    cell.failed.len(),
                    cell.measured,
                    replay(smallest, &col.command)
                );
                if cell.failed.len() > 1 {
                    let rest: Vec<String> = cell.failed[1..]
                        .iter()
                        .take(LISTED)
                        .map(|(n, _)| format!("`{n}`"))
                        .collect();
                    let more = cell.failed.len() - 1 - rest.len();
                    let _ = write!(s, "Also: {}", rest.join(", "));
                    if more > 0 {
                        let _ = write!(s, " and {more} more");
                    }
                    s.push_str(".\n");
                }
                s.push('\n');
            }
        }
        s
    }

    /// The grid as JSON: per behaviour, per implementation, the counts, the mark and the
    /// smallest failing case.
    pub fn to_json(&self) -> Value {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .zip(&self.cells)
            .map(|(row, cells)| {
                let cells: serde_json::Map<String, Value> = self
                    .columns
                    .iter()
                    .zip(cells)
                    .map(|(col, cell)| {
                        (
                            col.name.clone(),
                            json!({
                                "mark": cell.mark(),
                                "measured": cell.measured,
                                "failed": cell.failed.len(),
                                "smallest": cell.failed.first().map(|(n, _)| n),
                            }),
                        )
                    })
                    .collect();
                json!({"id": row.id, "name": row.name, "cells": cells})
            })
            .collect();
        Value::Array(rows)
    }
}

/// Text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Markdown's inline code and bold, as HTML (the page's prose comes from the Markdown).
fn inline(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in esc(s).split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// What the page holds besides the grid.
pub struct Page<'a> {
    pub intro: &'a str,
    /// The command line that made the report.
    pub command: &'a str,
    pub date: Option<&'a str>,
    pub rule: &'a str,
    /// The summary table: its header, then a row per implementation.
    pub summary: &'a [Vec<String>],
}

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:78em;padding:0 1em;color:#1a1a1a}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .55em;text-align:left}
#grid td{text-align:center;white-space:nowrap}#grid tbody th{font-weight:normal}#grid thead th{position:sticky;top:0;background:#f4f4f4}
td.pass{background:#e3f4e1}td.fail{background:#fbe1de}td.none{color:#999}
td.fail a{color:#8a1c10;font-weight:600;text-decoration:none}pre,code{font:12px ui-monospace,monospace}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;white-space:pre-wrap}details{margin:.2em 0}
details>summary{cursor:pointer}details.fail>summary{color:#8a1c10}li code{word-break:break-all}";

impl Grid {
    /// The static page: the grid, the summary, and a drill-down per implementation and
    /// behaviour with the failing cases and their replay commands. Nothing external.
    pub fn html(&self, page: &Page) -> String {
        let mut s = String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>paletted: conformance</title>\n<style>\n");
        s.push_str(STYLE);
        s.push_str("\n</style>\n</head>\n<body>\n<h1>Conformance</h1>\n");
        let _ = writeln!(s, "<p>{}</p>", inline(page.intro));
        let _ = writeln!(s, "<pre id=\"command\">{}</pre>", esc(page.command));
        if let Some(d) = page.date {
            let _ = writeln!(s, "<p>Date: {}.</p>", esc(d));
        }
        let _ = writeln!(
            s,
            "<h2>Behaviours</h2>\n<p>{}</p>\n<p>{}</p>",
            inline(ASSIGNED),
            inline(LEGEND)
        );
        s.push_str("<table id=\"grid\">\n<thead><tr><th>behaviour</th>");
        for c in &self.columns {
            let _ = write!(s, "<th>{}</th>", esc(&c.name));
        }
        s.push_str("</tr></thead>\n<tbody>\n");
        for (row, cells) in self.rows.iter().zip(&self.cells) {
            let _ = write!(
                s,
                "<tr data-behaviour=\"{}\"><th>{}</th>",
                esc(&row.id),
                inline(&row.name)
            );
            for (col, cell) in self.columns.iter().zip(cells) {
                let class = if cell.measured == 0 {
                    "none"
                } else if cell.failed.is_empty() {
                    "pass"
                } else {
                    "fail"
                };
                let title = format!(
                    "{}: {} measured, {} failing",
                    col.name,
                    cell.measured,
                    cell.failed.len()
                );
                let mark = if cell.failed.is_empty() {
                    cell.mark()
                } else {
                    format!(
                        "<a href=\"#{}\">{}</a>",
                        esc(&anchor(&col.name, row)),
                        cell.mark()
                    )
                };
                let _ = write!(
                    s,
                    "<td data-impl=\"{}\" class=\"{class}\" title=\"{}\">{mark}</td>",
                    esc(&col.name),
                    esc(&title)
                );
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody>\n</table>\n");
        let _ = writeln!(
            s,
            "<h2>Implementations</h2>\n<p>{}</p>\n<table id=\"summary\">",
            inline(page.rule)
        );
        for (i, r) in page.summary.iter().enumerate() {
            let tag = if i == 0 { "th" } else { "td" };
            s.push_str("<tr>");
            for c in r {
                let _ = write!(s, "<{tag}>{}</{tag}>", esc(c));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table>\n<h2>By implementation and behaviour</h2>\n");
        for (c, col) in self.columns.iter().enumerate() {
            let _ = writeln!(
                s,
                "<section id=\"impl-{}\">\n<h3>{}</h3>\n<p>Replay a case: <code>{}</code></p>",
                esc(&anchor(&col.name, &super::behaviour::runs()).replace("--runs", "")),
                esc(&col.name),
                esc(&replay("CASE", &col.command))
            );
            for (row, cells) in self.rows.iter().zip(&self.cells) {
                let cell = &cells[c];
                if cell.measured == 0 {
                    continue;
                }
                let failing = !cell.failed.is_empty();
                let _ = write!(
                    s,
                    "<details id=\"{}\" class=\"{}\"><summary>{}: {} ({} of {} measured cases fail)</summary>",
                    esc(&anchor(&col.name, row)),
                    if failing { "fail" } else { "pass" },
                    inline(&row.name),
                    cell.mark(),
                    cell.failed.len(),
                    cell.measured
                );
                if failing {
                    s.push_str("<ul>");
                    for (name, ops) in cell.failed.iter().take(LISTED * 2) {
                        let _ = write!(
                            s,
                            "<li><code>{}</code> ({ops} ops): <code>{}</code></li>",
                            esc(name),
                            esc(&replay(name, &col.command))
                        );
                    }
                    if cell.failed.len() > LISTED * 2 {
                        let _ = write!(s, "<li>and {} more</li>", cell.failed.len() - LISTED * 2);
                    }
                    s.push_str("</ul>");
                }
                s.push_str("</details>\n");
            }
            s.push_str("</section>\n");
        }
        // A link to a closed drill-down opens it.
        s.push_str("<script>function openTarget(){var e=document.getElementById(decodeURIComponent(location.hash.slice(1)));if(e&&e.tagName==='DETAILS')e.open=true}addEventListener('hashchange',openTarget);openTarget()</script>\n</body>\n</html>\n");
        s
    }
}
