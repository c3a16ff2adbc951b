//! The embed's conversation with the page around it (`window.postMessage`), so a
//! documentation page can drive the frame from its own buttons and follow what happens in
//! its own text. Version 1 of the protocol; every message is an object with a
//! `"hashring-lab": 1` field.
//!
//! The host sends commands (accepted only from the embedding parent window; anything
//! malformed is ignored, and a command that cannot be carried out is answered with an
//! `error` event, the state unchanged):
//!
//! | `command` | fields | does |
//! | --- | --- | --- |
//! | `add` | `name` (optional) | adds a server (the suggested name when none) |
//! | `remove` | `name` (optional) | removes that server, or the last one |
//! | `fail`, `recover` | `name` | fails or recovers a server |
//! | `scenario` | `query`: link parameters, e.g. `algo=modn&nodes=A,B,C&keys=0..1000` | loads that scenario |
//! | `step` | `tour`, `step` (a number or `last`) | goes to a step of a guided tour |
//!
//! The frame sends events to its parent: `ready` and `changed` (what the last change
//! moved: `change`, `moved`, `keys`, `ideal` (or null), `betweenSurvivors`, and `flows`, a
//! list of `{from, to, keys}`), `resized` (`height`: the CSS pixels its content needs at the
//! frame's width, whatever height the frame has — on load and whenever it changes, so a host
//! can size the frame to it), and `error` (`message`; the one answer to a refused command). Events go to any origin (`"*"`): they hold only the scenario the
//! URL already shows.
//!
//! The message is read by the browser (the page ships no JSON library): its fields arrive
//! here as [`FieldValue`]s, and events are written here as JSON text the page parses.

use crate::engine::sim::{Change, Movement};
use crate::file::{json_string, FieldValue};
use crate::i18n::Words;
use crate::link::Link;
use crate::text::quote;
use crate::tour::Position;

/// The protocol's version: the value of the `"hashring-lab"` field.
pub const PROTOCOL: f64 = 1.0;
/// The marker field every message carries.
pub const MARKER: &str = "hashring-lab";
/// The most fields a command may have (a bound on what is read from a message).
pub const MAX_FIELDS: usize = 8;
/// The longest text field read from a message.
pub const MAX_TEXT: usize = 4096;

/// What the host asks the frame to do.
#[derive(Clone, Debug, PartialEq)]
pub enum HostCommand {
    /// Add a server, named or with the suggested name.
    Add(Option<String>),
    /// Remove the named server, or the last one.
    Remove(Option<String>),
    /// Fail a server.
    Fail(String),
    /// Recover a server.
    Recover(String),
    /// Load the scenario of these link parameters.
    Scenario(Box<crate::engine::scenario::Scenario>),
    /// Go to a tour step.
    Step(Position),
}

/// Why a message was not a command.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// Not a message of this protocol (another script's message): ignored silently.
    Foreign,
    /// A message of this protocol that cannot be carried out: answered with this text.
    Bad(String),
}

fn text<'a>(fields: &'a [(String, FieldValue)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .and_then(|(_, v)| match v {
            FieldValue::Text(t) => Some(t.as_str()),
            _ => None,
        })
}

/// Reads a command from a message's fields.
pub fn read_command(fields: &[(String, FieldValue)]) -> Result<HostCommand, Refusal> {
    let version = fields.iter().find(|(k, _)| k == MARKER).map(|(_, v)| v);
    match version {
        Some(FieldValue::Number(v)) if *v == PROTOCOL => {}
        Some(other) => {
            return Err(Refusal::Bad(format!(
                "\"{MARKER}\" must be {}, not {}",
                crate::text::Shortest(PROTOCOL),
                match other {
                    FieldValue::Text(t) => quote(t),
                    FieldValue::Number(n) => crate::text::Shortest(*n).to_string(),
                    FieldValue::Other(kind) => kind.name().to_owned(),
                }
            )))
        }
        None => return Err(Refusal::Foreign),
    }
    if fields.len() > MAX_FIELDS {
        return Err(Refusal::Bad(format!(
            "a command has at most {MAX_FIELDS} fields"
        )));
    }
    // A name is text: a number or null is refused, not taken as "no name" (an unnamed add).
    if let Some((_, value)) = fields.iter().find(|(k, _)| k == "name") {
        if !matches!(value, FieldValue::Text(_)) {
            return Err(Refusal::Bad(format!(
                "\"name\" must be text (a server's name), not {}",
                match value {
                    FieldValue::Number(n) => format!("the number {}", short_number(*n)),
                    FieldValue::Other(kind) => kind.name().to_owned(),
                    FieldValue::Text(_) => String::new(),
                }
            )));
        }
    }
    let name = |required: bool| -> Result<Option<String>, Refusal> {
        match text(fields, "name") {
            Some(n) if !n.trim().is_empty() => Ok(Some(n.trim().to_owned())),
            _ if required => Err(Refusal::Bad("this command needs a \"name\"".into())),
            _ => Ok(None),
        }
    };
    let command = text(fields, "command").unwrap_or_default();
    Ok(match command {
        "add" => HostCommand::Add(name(false)?),
        "remove" => HostCommand::Remove(name(false)?),
        "fail" => HostCommand::Fail(name(true)?.unwrap_or_default()),
        "recover" => HostCommand::Recover(name(true)?.unwrap_or_default()),
        "scenario" => {
            let query = text(fields, "query")
                .ok_or_else(|| Refusal::Bad("\"scenario\" needs a \"query\"".into()))?;
            let link = Link::read(&query_pairs(query));
            match link.scenario {
                Some(s) if link.problems.is_empty() => HostCommand::Scenario(Box::new(s)),
                _ => return Err(Refusal::Bad(crate::problem::english(&link.problems))),
            }
        }
        "step" => {
            let step = match fields.iter().find(|(k, _)| k == "step").map(|(_, v)| v) {
                Some(FieldValue::Number(n)) if n.fract() == 0.0 && (1.0..=1000.0).contains(n) => {
                    crate::text::Shortest(*n).to_string()
                }
                Some(FieldValue::Number(n)) => {
                    return Err(Refusal::Bad(format!(
                        "\"step\" must be a tour's step number (a whole number from 1) or \"last\", not {}",
                        short_number(*n)
                    )))
                }
                Some(FieldValue::Text(t)) => t.clone(),
                _ => "1".to_owned(),
            };
            let pairs = [
                (
                    "tour".to_owned(),
                    text(fields, "tour").unwrap_or_default().to_owned(),
                ),
                ("step".to_owned(), step),
            ];
            let link = Link::read(&pairs);
            match link.view.tour {
                Some(p) if link.problems.is_empty() => HostCommand::Step(p),
                _ => return Err(Refusal::Bad(crate::problem::english(&link.problems))),
            }
        }
        other => {
            return Err(Refusal::Bad(format!(
                "unknown command {}: use add, remove, fail, recover, scenario or step",
                quote(other)
            )))
        }
    })
}

/// A number as the sender wrote it, in at most a few characters (`1e300`, not 300 digits
/// nor a saturated integer).
fn short_number(n: f64) -> String {
    let plain = crate::text::Shortest(n).to_string();
    if plain.len() <= 12 || !n.is_finite() {
        return plain;
    }
    // Mantissa and exponent by hand: `{:e}` would bring another float formatter into the
    // page (6 KB of wasm), and Rust's own `powf` libm's (2 KB): the browser's do.
    let exponent = crate::math::log10(n.abs()).floor();
    let mantissa = (n / crate::math::powf(10.0, exponent) * 1e6).round() / 1e6;
    format!("{}e{}", crate::text::Shortest(mantissa), exponent as i32)
}

/// Link parameters (`a=1&b=2`, percent-encoded or not) as decoded pairs.
pub fn query_pairs(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            let decode = |s: &str| {
                percent_encoding::percent_decode_str(&s.replace('+', " "))
                    .decode_utf8_lossy()
                    .into_owned()
            };
            (decode(k), decode(v))
        })
        .collect()
}

fn event(kind: &str, body: &str) -> String {
    format!("{{\"{MARKER}\":1,\"event\":{}{body}}}", json_string(kind))
}

/// The `changed` event for a change and what it moved; `name` names a server id (also one
/// the change took away).
pub fn changed_event(
    w: &Words,
    changes: u64,
    change: &Change,
    m: &Movement,
    name: &dyn Fn(crate::engine::ring::ServerId) -> String,
) -> String {
    let ideal = m.ideal_keys().map_or("null".to_owned(), |n| n.to_string());
    let flows: Vec<String> = m
        .flows
        .iter()
        .map(|f| {
            format!(
                "{{\"from\":{},\"to\":{},\"keys\":{}}}",
                json_string(&name(f.from)),
                json_string(&name(f.to)),
                f.keys
            )
        })
        .collect();
    event(
        "changed",
        &format!(
            ",\"changes\":{changes},\"change\":{},\"moved\":{},\"keys\":{},\"ideal\":{ideal},\"betweenSurvivors\":{},\"flows\":[{}]",
            json_string(&crate::words::change_title(w, change)),
            m.moved,
            m.keys,
            m.between_survivors,
            flows.join(",")
        ),
    )
}

/// The `ready` event: the servers and the number of keys.
pub fn ready_event(servers: &[String], keys: usize) -> String {
    let names: Vec<String> = servers.iter().map(|s| json_string(s)).collect();
    event(
        "ready",
        &format!(",\"servers\":[{}],\"keys\":{keys}", names.join(",")),
    )
}

/// The `resized` event: the CSS pixels the frame's content needs.
pub fn resized_event(height: u32) -> String {
    event("resized", &format!(",\"height\":{height}"))
}

/// The `error` event: why `count` commands were not carried out (the last one's words).
pub fn error_event(count: u32, message: &str) -> String {
    event(
        "error",
        &format!(",\"count\":{count},\"message\":{}", json_string(message)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::sim::Flow;
    use crate::tour::TourId;

    fn fields(pairs: &[(&str, FieldValue)]) -> Vec<(String, FieldValue)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect()
    }
    fn t(s: &str) -> FieldValue {
        FieldValue::Text(s.to_owned())
    }
    const V1: (&str, FieldValue) = (MARKER, FieldValue::Number(1.0));

    #[test]
    fn commands_are_read_from_their_fields() {
        assert_eq!(
            read_command(&fields(&[V1, ("command", t("add"))])),
            Ok(HostCommand::Add(None))
        );
        assert_eq!(
            read_command(&fields(&[V1, ("command", t("add")), ("name", t(" E "))])),
            Ok(HostCommand::Add(Some("E".into())))
        );
        assert_eq!(
            read_command(&fields(&[V1, ("command", t("fail")), ("name", t("B"))])),
            Ok(HostCommand::Fail("B".into()))
        );
        let Ok(HostCommand::Scenario(s)) = read_command(&fields(&[
            V1,
            ("command", t("scenario")),
            ("query", t("algo=modn&nodes=A%2CB,C&keys=0..100")),
        ])) else {
            panic!("a scenario");
        };
        assert_eq!(s.nodes.len(), 3);
        assert_eq!(
            read_command(&fields(&[
                V1,
                ("command", t("step")),
                ("tour", t("java")),
                ("step", FieldValue::Number(3.0))
            ])),
            Ok(HostCommand::Step(Position {
                tour: TourId::Java,
                step: 3
            }))
        );
    }

    #[test]
    fn other_messages_are_ignored_and_bad_commands_say_why() {
        assert_eq!(
            read_command(&fields(&[("type", t("webpackOk"))])),
            Err(Refusal::Foreign)
        );
        let bad = |f: &[(&str, FieldValue)]| match read_command(&fields(f)) {
            Err(Refusal::Bad(m)) => m,
            other => panic!("{other:?}"),
        };
        assert!(bad(&[(MARKER, FieldValue::Number(2.0))]).contains("must be 1"));
        assert!(bad(&[V1, ("command", t("explode"))]).contains("unknown command 'explode'"));
        assert!(bad(&[V1, ("command", t("fail"))]).contains("needs a \"name\""));
        assert!(
            bad(&[V1, ("command", t("scenario")), ("query", t("vnodes=0"))]).contains("vnodes")
        );
        assert!(bad(&[V1, ("command", t("step")), ("tour", t("nope"))]).contains("nope"));
        // A name is text: a number or null is no name (issue 53: it was an unnamed add).
        assert_eq!(
            bad(&[V1, ("command", t("add")), ("name", FieldValue::Number(5.0))]),
            "\"name\" must be text (a server's name), not the number 5"
        );
        let null = FieldValue::Other(crate::problem::JsonKind::Null);
        assert!(bad(&[V1, ("command", t("remove")), ("name", null)]).ends_with("not null"));
        // A step far out of range is quoted as written, not saturated.
        assert_eq!(
            bad(&[
                V1,
                ("command", t("step")),
                ("tour", t("ring")),
                ("step", FieldValue::Number(1e300))
            ]),
            "\"step\" must be a tour's step number (a whole number from 1) or \"last\", not 1e300"
        );
        assert_eq!(
            error_event(2, "x"),
            r#"{"hashring-lab":1,"event":"error","count":2,"message":"x"}"#
        );
        let many: Vec<(&str, FieldValue)> = (0..MAX_FIELDS + 1)
            .map(|_| ("x", FieldValue::Other(crate::problem::JsonKind::Null)))
            .chain([V1])
            .collect();
        assert!(bad(&many).contains("at most"));
    }

    #[test]
    fn events_are_json_with_the_movement() {
        let m = Movement {
            moved: 3,
            keys: 10,
            flows: vec![Flow {
                from: 0,
                to: 1,
                keys: 3,
            }],
            ideal_fraction: Some(0.5),
            between_survivors: 0,
            ..Movement::default()
        };
        let names = |id| ["A \"one\"", "B"][usize::from(id)].to_owned();
        let e = changed_event(
            crate::i18n::Lang::En.words(),
            1,
            &Change::Add {
                name: "B".into(),
                weight: 1.0,
            },
            &m,
            &names,
        );
        assert_eq!(
            e,
            r#"{"hashring-lab":1,"event":"changed","changes":1,"change":"Added B","moved":3,"keys":10,"ideal":5,"betweenSurvivors":0,"flows":[{"from":"A \"one\"","to":"B","keys":3}]}"#
        );
        assert_eq!(
            resized_event(460),
            r#"{"hashring-lab":1,"event":"resized","height":460}"#
        );
        assert_eq!(
            ready_event(&["A".into()], 5),
            r#"{"hashring-lab":1,"event":"ready","servers":["A"],"keys":5}"#
        );
    }
}
