//! What the page exports and reads back: the scenario as a JSON file, and the CSV of the
//! keys per server and of every key's server.
//!
//! A scenario file holds the same parameters as a link (so it is validated by the same
//! code with the same messages), under a format marker:
//!
//! ```json
//! {"format": "hashring-lab scenario", "version": 1, "algo": "ring", "nodes": "A,B,C", …}
//! ```
//!
//! Values are strings (a seed may exceed what a JSON number holds exactly); whole numbers
//! are accepted too. The page parses the text with the browser's own `JSON.parse` and
//! hands the fields here, so no JSON library ships in the page.

use crate::engine::pace::{run_to_end, Pace};
use crate::engine::ring::ServerId;
use crate::engine::scenario::{Scenario, PARAMS};
use crate::engine::sim::Simulation;
use crate::problem::{JsonKind, Problem};
use crate::text::quote;
use crate::text::Fixed;

/// The `format` field's value.
pub const FORMAT: &str = "hashring-lab scenario";
/// The file format's version.
pub const VERSION: u32 = 1;

/// A field's value as the JSON parser gave it.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValue {
    /// A string.
    Text(String),
    /// A number.
    Number(f64),
    /// Anything else (an object, a list, true, null), by kind.
    Other(JsonKind),
}

/// The scenario as a JSON document, one field per line.
pub fn scenario_json(scenario: &Scenario) -> String {
    let mut out = format!("{{\n  \"format\": \"{FORMAT}\",\n  \"version\": {VERSION}");
    for (k, v) in scenario.to_pairs() {
        out.push_str(&format!(",\n  \"{k}\": {}", json_string(&v)));
    }
    out.push_str("\n}\n");
    out
}

/// `text` as a JSON string literal.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The largest scenario file the page reads (a key list at the page's limit of 1,000,000
/// keys fits); a larger one is refused before it is read.
pub const MAX_FILE_BYTES: f64 = 16.0 * 1024.0 * 1024.0;

/// Refuses a file of `bytes` bytes before reading it, when it is larger than a scenario
/// file can be.
pub fn check_file_size(bytes: f64) -> Result<(), Problem> {
    if bytes <= MAX_FILE_BYTES {
        return Ok(());
    }
    Err(Problem::FileTooLarge {
        size: format!("{} MB", Fixed(bytes / 1024.0 / 1024.0, 1)),
        max: "16 MB".into(),
    })
}

/// A scenario file's top-level field names, as [`top_level_fields`] found them.
#[derive(Debug, Default, PartialEq)]
pub struct FieldNames {
    /// The names kept, in order, repeats included: the first [`MAX_FIELDS`] + 1, and past
    /// them the first two of each name a scenario knows (enough to see it repeated).
    pub names: Vec<String>,
    /// Names past those that a scenario does not know: counted, not kept (a hostile file
    /// names 100,000 fields).
    pub unknown_unkept: usize,
    /// Every top-level field.
    pub count: usize,
}

/// True for a field name a scenario file may hold.
fn known_field(name: &str) -> bool {
    name == "format" || name == "version" || PARAMS.contains(&name)
}

/// The names of a JSON object's top-level fields in `text`, in order, repeats included
/// (a JSON parser keeps only the last of a repeated field, so a file saying `"nodes"`
/// twice would silently use one; the page asks this first). Empty when `text` is not an
/// object; the parser reports that. Past [`MAX_FIELDS`] + 1 names, only what can still
/// be a problem worth naming is kept.
pub fn top_level_fields(text: &str) -> FieldNames {
    let mut found = FieldNames::default();
    let mut chars = text.trim_start_matches('\u{FEFF}').chars().peekable();
    if chars.find(|c| !c.is_whitespace()) != Some('{') {
        return found;
    }
    let mut name = String::new();
    // Depth 1 is the top-level object; a string at depth 1 followed by `:` is a field name.
    let (mut depth, mut expecting_name) = (1usize, true);
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                if depth == 1 && expecting_name {
                    json_string_body(&mut chars, &mut name);
                    found.count += 1;
                    let seen = || found.names.iter().filter(|n| **n == name).count();
                    if found.names.len() <= MAX_FIELDS || (known_field(&name) && seen() < 2) {
                        found.names.push(name.clone());
                    } else if !known_field(&name) {
                        found.unknown_unkept += 1;
                    }
                    expecting_name = false;
                } else {
                    // A value (a million listed keys may be one string): skipped, not kept.
                    while let Some(c) = chars.next() {
                        match c {
                            '"' => break,
                            '\\' => {
                                chars.next();
                            }
                            _ => {}
                        }
                    }
                }
            }
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => expecting_name = true,
            _ => {}
        }
    }
    found
}

/// The rest of a JSON string literal whose opening quote was read, decoded as a JSON parser
/// decodes it: `"nod\u0065s"` is the field `nodes` (so it is a repeat of `"nodes"`, not a
/// name of its own that slips past the check). A broken escape is kept as written: the
/// parser refuses the file anyway.
fn json_string_body(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, name: &mut String) {
    name.clear();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => match chars.next() {
                Some('u') => {
                    let unit = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
                        let hex: String = chars.take(4).collect();
                        u32::from_str_radix(&hex, 16)
                            .ok()
                            .filter(|_| hex.len() == 4)
                    };
                    let Some(first) = unit(chars) else { continue };
                    let code = if (0xD800..0xDC00).contains(&first) && chars.peek() == Some(&'\\') {
                        chars.next();
                        chars.next();
                        match unit(chars) {
                            Some(low) if (0xDC00..0xE000).contains(&low) => {
                                0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
                            }
                            _ => first,
                        }
                    } else {
                        first
                    };
                    name.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                }
                Some(escaped) => name.push(match escaped {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    'b' => '\u{8}',
                    'f' => '\u{C}',
                    other => other,
                }),
                None => break,
            },
            _ => name.push(c),
        }
    }
}

/// More top-level fields than a scenario can have (it has 13 at most): such a file is
/// judged by its field names alone, before the browser turns 100,000 fields into values.
pub const MAX_FIELDS: usize = 64;

/// The problems with a file's field names alone: repeats, and names a scenario does not
/// have (the first few named, the rest counted).
pub fn field_name_problems(found: &FieldNames) -> Vec<Problem> {
    let names = &found.names;
    let mut problems = crate::engine::scenario::repeated_names(names.iter().map(String::as_str));
    let unknown: Vec<&String> = names.iter().filter(|n| !known_field(n)).collect();
    let total = problems.len() + unknown.len() + found.unknown_unkept;
    problems.truncate(crate::problem::MAX_NAMED);
    let room = crate::problem::MAX_NAMED - problems.len();
    problems.extend(unknown.iter().take(room).map(|name| Problem::UnknownField {
        given: quote(name),
        fields: PARAMS.join(", "),
    }));
    if total > problems.len() {
        problems.push(Problem::More {
            count: total - problems.len(),
        });
    }
    problems
}

/// The scenario in a file's fields, or every problem with it (the first few named).
pub fn read_scenario(fields: &[(String, FieldValue)]) -> Result<Scenario, Vec<Problem>> {
    run_to_end(read_scenario_paced(fields, &mut Pace::unlimited()))
}

/// [`read_scenario`] at `pace`: the page reads a file's million tokens or keys in steps.
pub async fn read_scenario_paced(
    fields: &[(String, FieldValue)],
    pace: &mut Pace,
) -> Result<Scenario, Vec<Problem>> {
    let mut problems = Vec::new();
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    match field("format") {
        Some(FieldValue::Text(f)) if f == FORMAT => {}
        _ => problems.push(Problem::NotAScenario { format: FORMAT }),
    }
    match field("version") {
        Some(FieldValue::Number(v)) if *v == f64::from(VERSION) => {}
        Some(FieldValue::Text(v)) if v.trim() == VERSION.to_string() => {}
        _ => problems.push(Problem::Version),
    }
    let mut pairs: Vec<(String, String)> = Vec::new();
    for (k, v) in fields {
        if k == "format" || k == "version" {
            continue;
        }
        if !PARAMS.contains(&k.as_str()) {
            problems.push(Problem::UnknownField {
                given: quote(k),
                fields: PARAMS.join(", "),
            });
            continue;
        }
        match v {
            FieldValue::Text(t) => pairs.push((k.clone(), t.clone())),
            FieldValue::Number(n) if n.fract() == 0.0 && n.abs() < 9e15 => {
                pairs.push((k.clone(), Fixed(*n, 0).to_string()))
            }
            FieldValue::Number(_) => problems.push(Problem::NumberOrString { field: k.clone() }),
            FieldValue::Other(kind) => problems.push(Problem::MustBeString {
                field: k.clone(),
                kind: *kind,
            }),
        }
    }
    if !problems.is_empty() {
        return Err(crate::problem::capped(problems));
    }
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    Scenario::from_pairs_paced(&pairs, pace)
        .await
        .map_err(|e| e.0)
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
///
/// A text that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a
/// tab or a carriage return: a key named `=HYPERLINK(…)`) gets a leading `'`, as OWASP's
/// CSV-injection advice says, so it is shown as text. So does every such character right
/// after a `;`, `,` or tab inside the text: a spreadsheet in a locale that splits rows on
/// `;` (or a tab) starts a cell there, quotes or not (`a;=1+1` is written `a;'=1+1`).
pub fn csv_field(text: &str) -> String {
    let mut safe = String::with_capacity(text.len() + 2);
    let mut cell_starts = true;
    for c in text.chars() {
        if cell_starts && matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r') {
            safe.push('\'');
        }
        safe.push(c);
        cell_starts = matches!(c, ';' | ',' | '\t');
    }
    if safe.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", safe.replace('"', "\"\""))
    } else {
        safe
    }
}

/// The keys-per-server CSV: `server,up,weight,keys,share`, a row per server.
pub fn counts_csv(sim: &Simulation) -> String {
    let total = sim.keys().len().max(1) as f64;
    let mut out = String::from("server,up,weight,keys,share\n");
    for s in sim.servers() {
        let keys = sim.count(s.id);
        out.push_str(&format!(
            "{},{},{},{keys},{}\n",
            csv_field(&s.name),
            s.up,
            crate::text::Shortest(s.weight),
            crate::text::Fixed(keys as f64 / total, 6)
        ));
    }
    out
}

/// The rows `key,position,server` for places `from..to` of the key layout (the page
/// writes a million keys this way, a slice per step, after a `key,position,server` header).
pub fn key_rows(sim: &Simulation, from: usize, to: usize) -> String {
    let keys = sim.keys();
    let mut out = String::with_capacity((to - from) * 24);
    for place in from..to {
        let owner = sim.owners()[place];
        let server = sim.server(owner).map_or("", |s| s.name.as_str());
        out.push_str(&csv_field(&sim.key_name(keys.ids[place])));
        out.push(',');
        out.push_str(&keys.positions[place].to_string());
        out.push(',');
        out.push_str(&csv_field(server));
        out.push('\n');
    }
    out
}

/// The migration list's header: a row per moved key of each step.
pub const MOVED_HEADER: &str = "step,key,from,to,between_survivors\n";

/// The migration list of one change, `m`, which `sim` has just applied: a row
/// `step,key,from,to,between_survivors` per moved key, in key-list order, written to `out` a
/// key at a time (a million moved keys never make one string). `name_before` names a server
/// the change took away. `false` when the change replaced the keys (another key set or
/// seed), so there is no key before to compare with.
pub fn write_moved(
    sim: &Simulation,
    m: &crate::engine::sim::Movement,
    step: usize,
    name_before: &dyn Fn(ServerId) -> String,
    out: &mut dyn std::io::Write,
) -> std::io::Result<bool> {
    let Some(order) = moved_in_key_order(sim, m) else {
        return Ok(false);
    };
    write_moved_rows(sim, m, &order, step, name_before, out)?;
    Ok(true)
}

/// The moved keys of `m` in the order of the key list (the user's file order), as
/// `key index << 32 | place in m's lists`; None when the change replaced the keys. A key file
/// is then read forward, and the list reads as the keys were given. 16 bytes a moved key
/// with the sort's scratch, while the hashing's pairs are long freed (10 million keys from
/// a file, 2.2 million moved: 295 MB peak, 6.9 s — 33 s when read in ring order).
pub fn moved_in_key_order(sim: &Simulation, m: &crate::engine::sim::Movement) -> Option<Vec<u64>> {
    if m.moved > 0 && m.moved_places.is_empty() {
        return None;
    }
    let ids = &sim.keys().ids;
    let mut order: Vec<u64> = (0u32..)
        .zip(&m.moved_places)
        .map(|(j, &place)| u64::from(ids[place as usize]) << 32 | u64::from(j))
        .collect();
    crate::engine::order::sort(&mut order);
    Some(order)
}

/// The rows of the migration list for `order` (a slice of [`moved_in_key_order`]).
pub fn write_moved_rows(
    sim: &Simulation,
    m: &crate::engine::sim::Movement,
    order: &[u64],
    step: usize,
    name_before: &dyn Fn(ServerId) -> String,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let keys = sim.keys();
    let name = |id: ServerId| match sim.server(id) {
        Some(s) => s.name.clone(),
        None => name_before(id),
    };
    for &entry in order {
        let j = (entry & u64::from(u32::MAX)) as usize;
        let (place, from) = (m.moved_places[j], m.moved_from[j]);
        let to = sim.owners()[place as usize];
        let between = m.survives(from) && m.survives(to);
        writeln!(
            out,
            "{step},{},{},{},{between}",
            csv_field(&sim.key_name(keys.ids[place as usize])),
            csv_field(&name(from)),
            csv_field(&name(to)),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_with_too_many_fields_is_judged_by_their_names() {
        // 100,000 unknown fields between two `nodes`: the repeat is named, every unknown field
        // counted, and only a bounded few names are kept.
        let fields: Vec<String> = ["\"format\": 1", "\"version\": 1", "\"nodes\": \"A\""]
            .into_iter()
            .map(String::from)
            .chain((0..100_000).map(|i| format!("\"f{i}\": 1")))
            .chain(["\"nodes\": \"B\"".to_owned()])
            .collect();
        let found = top_level_fields(&format!("{{{}}}", fields.join(", ")));
        assert_eq!(found.count, 100_004);
        assert!(
            found.names.len() <= MAX_FIELDS + 1 + 2 * 15,
            "{}",
            found.names.len()
        );
        let problems = field_name_problems(&found);
        let text = crate::problem::english(&problems);
        assert!(
            text.starts_with(
                "'nodes' is given more than once; give each parameter once; unknown field 'f0'"
            ),
            "{text}"
        );
        assert!(text.ends_with("and 99996 more problems"), "{text}");
    }

    #[test]
    fn the_top_level_field_names_keep_their_repeats() {
        let text = r#"{"format": "x", "nodes": "A,B", "inner": {"nodes": 1, "a": [{"b": ","}]},
            "nodes": "C", "say \"hi\"": 2}"#;
        assert_eq!(
            top_level_fields(text).names,
            ["format", "nodes", "inner", "nodes", "say \"hi\""]
        );
        // Escapes are decoded as the parser decodes them: these are all `nodes`.
        let escaped =
            r#"{"nodes": "A", "nod\u0065s": "B", "\u006eodes": "C", "x\ud83d\ude00\n": 1}"#;
        assert_eq!(
            top_level_fields(escaped).names,
            ["nodes", "nodes", "nodes", "x\u{1F600}\n"]
        );
        assert!(top_level_fields("[1, 2]").names.is_empty());
        assert!(top_level_fields("").names.is_empty());
    }

    #[test]
    fn cells_a_spreadsheet_would_run_are_written_as_text() {
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("+1"), "'+1");
        assert_eq!(csv_field("-2"), "'-2");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("\tx"), "'\tx");
        assert_eq!(csv_field("key-1"), "key-1");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
    }

    #[test]
    fn a_file_with_many_bad_fields_names_the_first_few_and_counts_the_rest() {
        let fields: Vec<(String, FieldValue)> = (0..100_000)
            .map(|i| (format!("x{i}"), FieldValue::Number(1.0)))
            .collect();
        let problems = read_scenario(&fields).unwrap_err();
        assert_eq!(problems.len(), crate::problem::MAX_NAMED + 1);
        let text = crate::problem::english(&problems);
        assert!(text.len() < 2_000, "{} characters", text.len());
        assert!(text.contains("more problems"), "{text}");
        assert!(check_file_size(50.0 * 1024.0 * 1024.0).is_err());
        assert!(check_file_size(1024.0).is_ok());
    }

    #[test]
    fn the_page_opens_its_own_file_after_every_server_is_removed() {
        let empty = Scenario::from_pairs([("nodes", ""), ("keys", "0..100")]).unwrap();
        assert!(empty.nodes.is_empty());
        let json = scenario_json(&empty);
        let fields: Vec<(String, FieldValue)> =
            serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&json)
                .unwrap()
                .into_iter()
                .map(|(k, v)| {
                    (
                        k,
                        match v {
                            serde_json::Value::String(s) => FieldValue::Text(s),
                            serde_json::Value::Number(n) => FieldValue::Number(n.as_f64().unwrap()),
                            _ => FieldValue::Other(JsonKind::Other),
                        },
                    )
                })
                .collect();
        assert_eq!(read_scenario(&fields).unwrap(), empty);
    }

    /// Parses JSON the way the page does (a flat object), with serde_json.
    fn fields(json: &str) -> Vec<(String, FieldValue)> {
        let value: serde_json::Value = serde_json::from_str(json).unwrap();
        value
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    serde_json::Value::String(s) => FieldValue::Text(s.clone()),
                    serde_json::Value::Number(n) => FieldValue::Number(n.as_f64().unwrap()),
                    serde_json::Value::Object(_) => FieldValue::Other(JsonKind::Object),
                    _ => FieldValue::Other(JsonKind::Other),
                };
                (k.clone(), v)
            })
            .collect()
    }

    #[test]
    fn a_scenario_survives_the_round_trip() {
        let s = Scenario::from_pairs([
            ("algo", "rendezvous"),
            ("nodes", "节点\"1\",B*2.5,C"),
            ("down", "C"),
            ("keys", "user:{i}:0..5000"),
            ("seed", "18446744073709551615"),
        ])
        .unwrap();
        let json = scenario_json(&s);
        assert_eq!(read_scenario(&fields(&json)), Ok(s));
    }

    #[test]
    fn a_bad_file_names_every_problem() {
        let e = read_scenario(&fields(
            r#"{"vnodes": 5000, "colour": "red", "nodes": {"a": 1}}"#,
        ))
        .unwrap_err();
        let all = crate::problem::english(&e);
        assert!(all.contains("not a hashring-lab scenario"), "{all}");
        assert!(all.contains("\"version\" must be 1"), "{all}");
        assert!(all.contains("unknown field 'colour'"), "{all}");
        assert!(
            all.contains("\"nodes\" must be a string, not an object"),
            "{all}"
        );
        let e = read_scenario(&fields(
            r#"{"format": "hashring-lab scenario", "version": 1, "vnodes": 5000}"#,
        ))
        .unwrap_err();
        assert!(e[0].to_string().contains("vnodes"), "{e:?}");
    }

    #[test]
    fn csv_fields_are_quoted_only_when_needed() {
        assert_eq!(csv_field("A"), "A");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn a_formula_after_a_separator_of_any_locale_is_shown_as_text() {
        // A semicolon locale splits `a;=1+1` into a cell `=1+1`, inside quotes or not.
        assert_eq!(csv_field("a;=1+1"), "a;'=1+1");
        assert_eq!(csv_field(";@x"), ";'@x");
        assert_eq!(csv_field("x\t-2"), "x\t'-2");
        assert_eq!(csv_field("a,+3"), "\"a,'+3\"");
        assert_eq!(csv_field("=1;=2"), "'=1;'=2");
        // Signs that start no cell stay as they are.
        assert_eq!(csv_field("user-1;a=b"), "user-1;a=b");
        assert_eq!(csv_field("10.0.0.1:80"), "10.0.0.1:80");
    }

    #[test]
    fn the_csv_exports_hold_every_server_and_key() {
        let scenario = Scenario::from_pairs([("nodes", "A,B*2,C"), ("keys", "0..10")]).unwrap();
        let sim = Simulation::new(&scenario).unwrap();
        let counts = counts_csv(&sim);
        let lines: Vec<&str> = counts.lines().collect();
        assert_eq!(lines[0], "server,up,weight,keys,share");
        assert_eq!(lines.len(), 1 + sim.servers().len());
        let total: u64 = lines[1..]
            .iter()
            .map(|l| l.split(',').nth(3).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 10);
        let rows = key_rows(&sim, 0, 10);
        assert_eq!(rows.lines().count(), 10);
        for line in rows.lines() {
            let owner = line.rsplit(',').next().unwrap();
            assert!(sim.servers().iter().any(|s| s.name == owner), "{line}");
        }
        assert_eq!(key_rows(&sim, 3, 5).lines().count(), 2);
    }
}
