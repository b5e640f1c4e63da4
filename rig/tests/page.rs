//! `rig conformance --html`: the page a headless Chromium renders holds the grid the rig
//! computed (its JSON), cell for cell, each failing cell linking to a drill-down on the page,
//! and nothing loaded from outside. On a small report (three cases, two implementations), so
//! it is quick. Without a browser it is skipped, saying so, unless
//! PALETTED_BROWSER_REQUIRED=1 (CI), where it fails.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const RIG: &str = env!("CARGO_BIN_EXE_rig");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The browser: $PALETTED_BROWSER, else the first of Debian's and others' names on the PATH.
fn browser() -> Option<PathBuf> {
    if let Some(b) = std::env::var_os("PALETTED_BROWSER") {
        return Some(PathBuf::from(b));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .find(|p| p.is_file())
}

/// A scratch store of recorded cases, under cargo's temp folder for tests.
fn store(cases: &[&str]) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("rig-page-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("cases/ops")).unwrap();
    std::fs::create_dir_all(dir.join("snapshots")).unwrap();
    std::fs::copy(
        repo().join("cases/trusted-sources.toml"),
        dir.join("cases/trusted-sources.toml"),
    )
    .unwrap();
    for name in cases {
        let file = repo().join("cases/golden").join(format!("{name}.json"));
        let out = Command::new(RIG)
            .args(["import", file.to_str().unwrap()])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    dir
}

/// The text of an element's content, tags taken out.
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.trim().to_string()
}

/// An attribute's value in a start tag.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    tag[at..].split('"').next()
}

/// The grid as the page holds it: behaviour id -> implementation -> (cell text, link).
type Cells = BTreeMap<String, BTreeMap<String, (String, Option<String>)>>;

fn grid_cells(dom: &str) -> Cells {
    let start = dom
        .find("<table id=\"grid\">")
        .expect("no grid table in the page");
    let table = &dom[start..start + dom[start..].find("</table>").unwrap()];
    let mut cells = Cells::new();
    for row in table.split("<tr").skip(1) {
        let tag = &row[..row.find('>').unwrap()];
        let Some(id) = attr(tag, "data-behaviour") else {
            continue; // the header
        };
        let entry = cells.entry(id.to_string()).or_default();
        for td in row.split("<td").skip(1) {
            let tag = &td[..td.find('>').unwrap()];
            let body = &td[td.find('>').unwrap() + 1..td.find("</td>").unwrap()];
            let link = body
                .find("<a ")
                .and_then(|a| attr(&body[a..], "href"))
                .map(String::from);
            entry.insert(
                attr(tag, "data-impl").unwrap().to_string(),
                (text(body), link),
            );
        }
    }
    cells
}

#[test]
fn the_page_in_a_headless_browser_holds_the_computed_grid() {
    let Some(browser) = browser() else {
        assert!(
            std::env::var("PALETTED_BROWSER_REQUIRED").as_deref() != Ok("1"),
            "PALETTED_BROWSER_REQUIRED=1 and no chromium on the PATH (nor $PALETTED_BROWSER)"
        );
        eprintln!("skipped: no chromium on the PATH (nor $PALETTED_BROWSER); CI sets PALETTED_BROWSER_REQUIRED=1");
        return;
    };
    let dir = store(&[
        "flat/bottom-section",
        "ladder/biomes-r1",
        "unpack/biomes-p9-badindex",
    ]);
    let toy = format!(
        "bad=python3 {} bad-write {RIG}",
        repo().join("rig/tests/adapters/toy.py").display()
    );
    let out = Command::new(RIG)
        .args(["conformance", "--executor"])
        .arg(format!("paletted={RIG} adapter paletted"))
        .args(["--executor", &toy])
        .args([
            "--executor",
            &toy.replace("bad=", "decline=")
                .replace("bad-write", "decline-palette"),
        ])
        .args(["--out", "c.md", "--html", "page.html", "--json", "c.json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let page = std::fs::read_to_string(dir.join("page.html")).unwrap();
    // --check compares the page too (all but its command line).
    let check = |dir: &Path| {
        Command::new(RIG)
            .args(["conformance", "--executor"])
            .arg(format!("paletted={RIG} adapter paletted"))
            .args(["--executor", &toy])
            .args([
                "--executor",
                &toy.replace("bad=", "decline=")
                    .replace("bad-write", "decline-palette"),
            ])
            .args(["--out", "c.md", "--html", "page.html", "--check"])
            .current_dir(dir)
            .output()
            .unwrap()
    };
    assert!(check(&dir).status.success());
    std::fs::write(dir.join("page.html"), page.replacen("✓", "✗ 1", 1)).unwrap();
    let stale = check(&dir);
    assert_eq!(stale.status.code(), Some(1), "{stale:?}");
    assert!(
        String::from_utf8_lossy(&stale.stderr).contains("page.html is stale"),
        "{stale:?}"
    );
    std::fs::write(dir.join("page.html"), &page).unwrap();
    for external in ["src=", "href=\"http", "url(", "@import"] {
        assert!(!page.contains(external), "the page loads {external}...");
    }
    let profile = dir.join("browser-profile");
    let dumped = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!(
            "file://{}",
            dir.join("page.html").canonicalize().unwrap().display()
        ))
        .output()
        .unwrap();
    assert!(
        dumped.status.success(),
        "{}: {}",
        browser.display(),
        String::from_utf8_lossy(&dumped.stderr)
    );
    let dom = String::from_utf8(dumped.stdout).unwrap();
    let cells = grid_cells(&dom);

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("c.json")).unwrap()).unwrap();
    let mut computed = BTreeMap::new();
    for row in json["behaviours"].as_array().unwrap() {
        let marks: BTreeMap<String, String> = row["cells"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v["mark"].as_str().unwrap().to_string()))
            .collect();
        computed.insert(row["id"].as_str().unwrap().to_string(), marks);
    }
    let read_back: BTreeMap<String, BTreeMap<String, String>> = cells
        .iter()
        .map(|(id, row)| {
            (
                id.clone(),
                row.iter()
                    .map(|(k, (t, _))| (k.clone(), t.clone()))
                    .collect(),
            )
        })
        .collect();
    assert_eq!(read_back, computed);
    // Both kinds of cell are there: paletted passes everything, the bad writes fail `write`.
    assert_eq!(computed["write"]["paletted"], "✓");
    assert!(computed["write"]["bad"].starts_with("✗ "), "{computed:?}");
    // An adapter declining every `palette` measures no palette order.
    assert_eq!(computed["resize-order"]["decline"], "—", "{computed:?}");
    // Each failing cell links to its drill-down, which lists a replay command.
    for (id, row) in &cells {
        for (implementation, (mark, link)) in row {
            if !mark.starts_with('✗') {
                assert!(link.is_none(), "{id} {implementation}");
                continue;
            }
            let link = link.as_ref().expect("a failing cell without a link");
            let target = link.strip_prefix('#').unwrap();
            let at = dom
                .find(&format!("<details id=\"{target}\""))
                .unwrap_or_else(|| panic!("{link}: no drill-down on the page"));
            let end = at + dom[at..].find("</details>").unwrap();
            assert!(
                dom[at..end].contains("rig repro "),
                "{link}: no replay command"
            );
        }
    }
}
