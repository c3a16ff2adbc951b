//! The source tree's shape: no import circle anywhere in `src/` — a module never depends,
//! through any chain of `use`s and `crate::` paths, on itself. A circle means two modules
//! can only be understood (and changed) together; the placement contract, the algorithms,
//! the list of algorithms and the builder are layered so that adding an algorithm touches
//! no module below it.
#![allow(clippy::unwrap_used)] // A test that cannot go on fails loudly, where it stopped.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Every `.rs` file under `dir`, with its module path (`engine::sim`, `ui`, `crate`).
fn modules(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            modules(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut name = rel.to_string_lossy().replace('/', "::");
            if let Some(parent) = name.strip_suffix("::mod") {
                name = parent.to_owned();
            }
            if name == "lib" || name == "main" {
                name = "crate".to_owned();
            }
            out.insert(name, fs::read_to_string(&path).unwrap());
        }
    }
}

/// The code without comments and without its test modules (tests may reach anywhere).
fn code(text: &str) -> String {
    let text: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("#[cfg(test)]\nmod ") {
        out.push_str(&rest[..at]);
        // Skip the module: from its opening brace to the matching closing one.
        let body = &rest[at..];
        let Some(open) = body.find('{') else { break };
        let mut depth = 0;
        let mut end = body.len();
        for (i, c) in body[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &body[end..];
    }
    out.push_str(rest);
    out
}

/// The modules `name`'s code refers to: `crate::a::b` and `super::x` paths (also inside
/// `use` groups), each resolved to the longest module prefix.
fn dependencies(name: &str, text: &str, all: &BTreeMap<String, String>) -> BTreeSet<String> {
    let parent = name.rsplit_once("::").map_or("", |p| p.0);
    let mut deps = BTreeSet::new();
    let text = code(text);
    let mut resolve = |path: &str| {
        let parts: Vec<&str> = path.split("::").collect();
        for k in (1..=parts.len()).rev() {
            let candidate = parts[..k].join("::");
            if all.contains_key(&candidate) {
                if candidate != name {
                    deps.insert(candidate);
                }
                return;
            }
        }
    };
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
    for (prefix, base) in [
        ("crate::", String::new()),
        ("super::", format!("{parent}::")),
    ] {
        for (at, _) in text.match_indices(prefix) {
            if text[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &text[at + prefix.len()..];
            let path: String = rest.chars().take_while(|&c| word(c)).collect();
            let path = path.trim_end_matches(':');
            // `super::{a, b}` names the group's items, not the parent itself.
            if !path.is_empty() {
                let full = format!("{base}{path}");
                resolve(full.trim_start_matches("::"));
            }
            // `use crate::engine::{a, b::C}`: each item of the group.
            if let Some(group) = rest[path.len()..].strip_prefix("::{") {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for item in group.split(',') {
                    let item: String = item.trim().chars().take_while(|&c| word(c)).collect();
                    resolve(&format!("{base}{path}::{item}"));
                }
            }
        }
    }
    // `use child::…` and `pub use child::…` (a re-export): paths from a child module of
    // `name`, which a child importing from `name` would close into a circle.
    for line in text.lines() {
        let line = line.trim_start();
        let line = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .find_map(|p| line.strip_prefix(p))
            .unwrap_or(line);
        let Some(path) = line.strip_prefix("use ") else {
            continue;
        };
        let first: String = path.chars().take_while(|&c| word(c)).collect();
        let first = first.split("::").next().unwrap_or("");
        let child = match name {
            "crate" => first.to_owned(),
            _ => format!("{name}::{first}"),
        };
        if all.contains_key(&child) {
            deps.insert(child);
        }
    }
    deps
}

/// Every module of `src/` with the modules it imports.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    import_graph_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// Every module of the crate whose source is `root` with the modules it imports.
fn import_graph_of(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut all = BTreeMap::new();
    modules(root, root, &mut all);
    all.iter()
        .map(|(name, text)| (name.clone(), dependencies(name, text, &all)))
        .collect()
}

/// The layers of `src/`, bottom up: a module imports only from its own layer or lower ones.
/// The first prefix that matches a module's path gives its layer.
const LAYERS: &[&[&str]] = &[
    // Pure helpers.
    &[
        "text",
        "engine::order",
        "engine::pace",
        "engine::crc",
        "engine::hash",
        "engine::ring",
        "engine::keys",
        "engine::stats",
        "math",
        "problem",
    ],
    // What a placement promises, and the machinery the algorithms share.
    &[
        "engine::contract",
        "engine::slots",
        "engine::tokens",
        "engine::crush",
        "engine::book",
        "engine::scorers",
    ],
    // What the registry says about an algorithm.
    &["engine::spec"],
    // The algorithms, one file each (siblings may share code).
    &["engine::algorithms::"],
    // The registry.
    &["engine::algorithms"],
    // Scenarios, changes, the builder and the stepped simulation.
    &["engine::", "engine"],
    // Page logic without a page: words, facts, links, files, charts.
    &[
        "notice",
        "facts",
        "readout",
        "words",
        "i18n",
        "shortcuts",
        "file",
        "chart",
    ],
    // The page's state.
    &["state"],
    // The tours' scripts, the drawing of a state, the page's links, its host messages and
    // its own view state (the screen).
    &["tour", "render", "link", "host", "screen"],
    // A system's config read into a scenario: below the command line and the Python
    // binding, which both build scenarios through it.
    &["configs"],
    // The page and the command line.
    &["ui", "cli", "crate"],
];

fn layer(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|names| {
            names.iter().any(|n| {
                module == *n
                    || (n.ends_with("::") && module.starts_with(n))
                    || module.starts_with(&format!("{n}::"))
            })
        })
        .unwrap_or_else(|| panic!("{module} is in no layer; add it to LAYERS"))
}

#[test]
fn every_import_points_down_the_layers() {
    let graph = import_graph();
    let upward: Vec<String> = graph
        .iter()
        .flat_map(|(m, deps)| {
            deps.iter()
                .filter(|d| layer(d) > layer(m))
                .map(move |d| format!("{m} (layer {}) → {d} (layer {})", layer(m), layer(d)))
        })
        .collect();
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
}

#[test]
fn no_module_of_src_depends_on_itself_through_others() {
    let graph = import_graph();
    let graph: BTreeMap<&str, BTreeSet<String>> =
        graph.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    // Sanity: the graph is read (the simulation uses the builder, the builder the contract).
    assert!(graph["engine::sim"].contains("engine::placement"));
    assert!(graph["engine::placement"].contains("engine::contract"));
    assert!(graph["engine::algorithms::jump"].contains("engine::contract"));
    // Re-exports are read: the page's root re-exports its views.
    assert!(graph["ui"].contains("ui::charts"));
    let circles = circles_in(&graph);
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

/// The import circles of `graph`: from each module, every module it reaches; a module that
/// reaches itself is in a circle (one path a module).
fn circles_in(graph: &BTreeMap<&str, BTreeSet<String>>) -> Vec<String> {
    let mut circles = Vec::new();
    for &start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(String, Vec<String>)> = graph[start]
            .iter()
            .map(|d| (d.clone(), vec![start.to_owned(), d.clone()]))
            .collect();
        while let Some((at, path)) = stack.pop() {
            if at == start {
                circles.push(path.join(" → "));
                break;
            }
            if !seen.insert(at.clone()) {
                continue;
            }
            for next in graph.get(at.as_str()).into_iter().flatten() {
                let mut p = path.clone();
                p.push(next.clone());
                stack.push((next.clone(), p));
            }
        }
    }
    circles
}

/// The workspace's other crates: the engine's helpers under `crates/` (below the engine:
/// they depend on no crate of ours) and the bindings under `bindings/` (above it: they
/// depend on the engine, and nothing depends on them); inside each, no import circle.
#[test]
fn the_other_crates_are_layered_and_have_no_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = Vec::new();
    for (folder, may_use_engine) in [("crates", false), ("bindings", true)] {
        for entry in fs::read_dir(root.join(folder)).unwrap() {
            let dir = entry.unwrap().path();
            let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            // Our crates it depends on, by path.
            let ours: Vec<&str> = manifest
                .lines()
                .filter_map(|l| l.split("path = \"").nth(1))
                .filter_map(|p| p.split('"').next())
                .collect();
            for path in &ours {
                let target = dir.join(path).canonicalize().unwrap();
                let engine = target == root.canonicalize().unwrap();
                assert!(
                    !target.starts_with(root.join("bindings").canonicalize().unwrap()),
                    "{folder}/{name} depends on a binding ({path})"
                );
                assert!(
                    may_use_engine || !engine,
                    "{folder}/{name}, a helper, depends on the engine"
                );
            }
            let graph = import_graph_of(&dir.join("src"));
            let graph: BTreeMap<&str, BTreeSet<String>> =
                graph.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            let circles = circles_in(&graph);
            assert!(
                circles.is_empty(),
                "{folder}/{name}: import circles:\n{}",
                circles.join("\n")
            );
            seen.push(format!("{folder}/{name}"));
        }
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            "bindings/duckdb",
            "bindings/python",
            "crates/plotters-canvas",
            "crates/short-md5"
        ]
    );
    // Nothing of the engine's depends on a binding.
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(
        !manifest.lines().any(|l| l.contains("path = \"bindings/")),
        "the engine depends on a binding"
    );
}

/// The most lines a component function (`#[component]`) may have, signature to closing
/// brace: past it, a component holds logic that belongs in a pure, tested module or in a
/// smaller component (clippy's `too_many_lines` does not reach into `#[component]` bodies).
const MAX_COMPONENT_LINES: usize = 150;

/// Components still past [`MAX_COMPONENT_LINES`], each with the length it may not exceed
/// while it is split: none (the app's root is its hooks and one `Page`, whose views are
/// plain functions).
const LONG_COMPONENTS: &[(&str, usize)] = &[];

#[test]
fn every_component_is_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = BTreeMap::new();
    modules(&root, &root, &mut all);
    let mut found = Vec::new();
    let mut too_long = Vec::new();
    for (module, text) in &all {
        let lines: Vec<&str> = text.lines().collect();
        for (at, line) in lines.iter().enumerate() {
            if line.trim() != "#[component]" {
                continue;
            }
            let start = (at + 1..lines.len())
                .find(|&i| lines[i].contains("fn "))
                .unwrap();
            let end = (start..lines.len()).find(|&i| lines[i] == "}").unwrap();
            let name: String = lines[start]
                .split("fn ")
                .nth(1)
                .unwrap()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let length = end - start + 1;
            let limit = LONG_COMPONENTS
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(MAX_COMPONENT_LINES, |&(_, l)| l);
            if length > limit {
                too_long.push(format!(
                    "{module}::{name}: {length} lines (at most {limit})"
                ));
            }
            found.push(name);
        }
    }
    // Sanity: the components are read.
    assert!(
        found.iter().any(|n| n == "App") && found.len() >= 8,
        "{found:?}"
    );
    assert!(
        too_long.is_empty(),
        "components too long:\n{}",
        too_long.join("\n")
    );
}
