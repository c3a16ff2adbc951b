//! A system's own configuration → the scenario it describes: which algorithm, which servers
//! (in declaration order, named as the config writes them), their weights, which are down.
//! The system is recognised from the text:
//!
//! - **nginx**: an `upstream NAME { … }` block with `hash KEY consistent;` and `server
//!   ADDRESS [weight=N] [down] [backup] [max_fails=…] …;` lines. Backup servers take no
//!   part in the hash (nginx hashes only the primary peers): they are left out, and said so.
//! - **HAProxy**: a `backend NAME` section with `hash-type consistent` and `server NAME
//!   ADDRESS [weight N] [disabled] …` lines; servers are numbered by declaration order, so
//!   a server's `id N` (which would fix its number) is refused rather than ignored.
//!
//! Every refusal names the line and column and what was expected; nothing is guessed.

use super::algorithms::Algorithm;
use super::text::quote;
use crate::problem::Problem;

/// What a config describes.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The system's algorithm.
    pub algo: Algorithm,
    /// The servers, `NAME[*WEIGHT]` comma-separated, in declaration order.
    pub nodes: String,
    /// The servers marked down or disabled, comma-separated.
    pub down: String,
    /// What the config says that the scenario leaves out (backup servers, …), in English.
    pub left_out: Vec<String>,
}

/// Reads an nginx `upstream` block or an HAProxy `backend` section.
pub fn read_config(text: &str) -> Result<Imported, Problem> {
    let words: Vec<Word<'_>> = words(text);
    if words.iter().any(|w| w.text == "upstream") {
        return nginx(&words);
    }
    if words.iter().any(|w| w.text == "backend") {
        return haproxy(text);
    }
    Err(Problem::ConfigNotRecognized)
}

/// A word of the config and where it starts (1-based line and column).
#[derive(Clone, Copy, Debug)]
struct Word<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

/// The words of `text`: split at white space, `;`, `{` and `}` (each of those a word of its
/// own), `#` comments dropped.
fn words<'a>(text: &'a str) -> Vec<Word<'a>> {
    let mut out = Vec::new();
    for (l, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let mut start: Option<usize> = None;
        let push = |out: &mut Vec<Word<'a>>, from: usize, to: usize| {
            out.push(Word {
                text: &line[from..to],
                line: l + 1,
                column: line[..from].chars().count() + 1,
            });
        };
        for (i, c) in line.char_indices() {
            if c.is_whitespace() || matches!(c, ';' | '{' | '}') {
                if let Some(s) = start.take() {
                    push(&mut out, s, i);
                }
                if !c.is_whitespace() {
                    push(&mut out, i, i + 1);
                }
            } else if start.is_none() {
                start = Some(i);
            }
        }
        if let Some(s) = start {
            push(&mut out, s, line.len());
        }
    }
    out
}

fn syntax(at: Option<&Word<'_>>, expected: &'static str) -> Problem {
    match at {
        Some(w) => Problem::ConfigSyntax {
            line: w.line,
            column: w.column,
            expected,
            found: quote(w.text),
        },
        None => Problem::ConfigSyntax {
            line: 0,
            column: 0,
            expected,
            found: "the end".into(),
        },
    }
}

fn nginx(words: &[Word<'_>]) -> Result<Imported, Problem> {
    let start = words.iter().position(|w| w.text == "upstream").unwrap_or(0);
    let mut at = start + 1;
    // `upstream NAME {`
    if words
        .get(at)
        .is_none_or(|w| matches!(w.text, "{" | "}" | ";"))
    {
        return Err(syntax(words.get(at), "the upstream's name"));
    }
    at += 1;
    if words.get(at).map(|w| w.text) != Some("{") {
        return Err(syntax(words.get(at), "{"));
    }
    at += 1;
    let (mut nodes, mut down, mut left_out) = (Vec::new(), Vec::new(), Vec::new());
    let mut consistent = None;
    loop {
        let Some(directive) = words.get(at) else {
            return Err(syntax(None, "}"));
        };
        if directive.text == "}" {
            break;
        }
        let end = words[at..]
            .iter()
            .position(|w| w.text == ";")
            .map(|i| at + i)
            .ok_or_else(|| syntax(None, ";"))?;
        let args = &words[at + 1..end];
        match directive.text {
            "server" => {
                let address = args
                    .first()
                    .ok_or_else(|| syntax(words.get(end), "an address"))?;
                let mut weight = 1u32;
                let (mut is_down, mut backup) = (false, false);
                for a in &args[1..] {
                    if let Some(w) = a.text.strip_prefix("weight=") {
                        weight =
                            w.parse().ok().filter(|&w| w >= 1).ok_or_else(|| {
                                syntax(Some(a), "weight=N, a whole number from 1")
                            })?;
                    } else if a.text == "down" {
                        is_down = true;
                    } else if a.text == "backup" {
                        backup = true;
                    }
                }
                if backup {
                    left_out.push(format!(
                        "backup server {} (nginx's hash uses the primary servers only)",
                        quote(address.text)
                    ));
                    at = end + 1;
                    continue;
                }
                nodes.push(node(address.text, weight));
                if is_down {
                    down.push(address.text.to_owned());
                }
            }
            "hash" => consistent = Some(args.iter().any(|a| a.text == "consistent")),
            _ => {}
        }
        at = end + 1;
    }
    match consistent {
        Some(true) => {}
        Some(false) => {
            return Err(Problem::ConfigNotConsistent {
                system: "nginx",
                why: "`hash KEY;` without `consistent` is nginx's hash modulo the weights",
            })
        }
        None => {
            return Err(Problem::ConfigNotConsistent {
                system: "nginx",
                why: "there is no `hash KEY consistent;`: this upstream balances round robin",
            })
        }
    }
    finish(
        Algorithm::from_name("nginx"),
        "nginx",
        &nodes,
        &down,
        left_out,
    )
}

fn haproxy(text: &str) -> Result<Imported, Problem> {
    let (mut nodes, mut down) = (Vec::new(), Vec::new());
    let mut in_backend = false;
    let mut consistent = false;
    for (l, line) in text.lines().enumerate() {
        let line_words: Vec<Word<'_>> = words(line)
            .into_iter()
            .map(|w| Word { line: l + 1, ..w })
            .collect();
        let Some(first) = line_words.first() else {
            continue;
        };
        match first.text {
            "backend" => in_backend = nodes.is_empty(),
            "frontend" | "listen" | "defaults" | "global" if in_backend => break,
            "hash-type" if in_backend => {
                consistent = line_words.get(1).map(|w| w.text) == Some("consistent");
            }
            "server" if in_backend => {
                let name = line_words
                    .get(1)
                    .ok_or_else(|| syntax(None, "a server name"))?;
                let _address = line_words
                    .get(2)
                    .ok_or_else(|| syntax(None, "the server's address"))?;
                let mut weight = 1u32;
                let mut i = 3;
                while let Some(w) = line_words.get(i) {
                    match w.text {
                        "weight" => {
                            let value = line_words.get(i + 1);
                            weight = value
                                .and_then(|v| v.text.parse().ok())
                                .filter(|&w| w >= 1)
                                .ok_or_else(|| syntax(value, "a weight from 1 to 256"))?;
                            i += 1;
                        }
                        "disabled" => down.push(name.text.to_owned()),
                        "id" => {
                            return Err(Problem::ConfigNotConsistent {
                                system: "haproxy",
                                why: "a server's `id` fixes its number; servers here are numbered by declaration order",
                            })
                        }
                        _ => {}
                    }
                    i += 1;
                }
                nodes.push(node(name.text, weight));
            }
            _ => {}
        }
    }
    if !consistent {
        return Err(Problem::ConfigNotConsistent {
            system: "haproxy",
            why: "the backend has no `hash-type consistent`",
        });
    }
    finish(
        Algorithm::from_name("haproxy"),
        "haproxy",
        &nodes,
        &down,
        Vec::new(),
    )
}

fn node(name: &str, weight: u32) -> String {
    if weight == 1 {
        name.to_owned()
    } else {
        format!("{name}*{weight}")
    }
}

fn finish(
    algo: Option<Algorithm>,
    system: &'static str,
    nodes: &[String],
    down: &[String],
    left_out: Vec<String>,
) -> Result<Imported, Problem> {
    let algo = algo.ok_or(Problem::Internal("a real system is not registered"))?;
    if nodes.is_empty() {
        return Err(Problem::ConfigNoServers { system });
    }
    Ok(Imported {
        algo,
        nodes: nodes.join(","),
        down: down.join(","),
        left_out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_nginx_upstream_becomes_its_scenario() {
        let config = "http {\n  upstream pool {\n    hash $request_uri consistent;\n    server 10.0.0.1:8080 weight=2;\n    server 10.0.0.2:8080 down;  # maintenance\n    server backend.example max_fails=3;\n    server 10.0.0.9:8080 backup;\n  }\n}\n";
        let i = read_config(config).unwrap();
        assert_eq!(i.algo.name(), "nginx");
        assert_eq!(i.nodes, "10.0.0.1:8080*2,10.0.0.2:8080,backend.example");
        assert_eq!(i.down, "10.0.0.2:8080");
        assert_eq!(i.left_out.len(), 1);
    }

    #[test]
    fn an_haproxy_backend_becomes_its_scenario() {
        let config = "frontend fe\n  bind :80\n  default_backend pool\nbackend pool\n  balance uri\n  hash-type consistent\n  server s1 10.0.0.1:80 weight 2 check\n  server s2 10.0.0.2:80 disabled\n  server s3 10.0.0.3:80\n";
        let i = read_config(config).unwrap();
        assert_eq!(i.algo.name(), "haproxy");
        assert_eq!(i.nodes, "s1*2,s2,s3");
        assert_eq!(i.down, "s2");
    }

    #[test]
    fn a_bad_config_says_where_and_what_was_expected() {
        let e =
            read_config("upstream pool {\n  hash $k consistent;\n  server 10.0.0.1 weight=x;\n}\n")
                .unwrap_err();
        assert_eq!(
            e.to_string(),
            "config line 3, column 19: expected weight=N, a whole number from 1, found 'weight=x'"
        );
        let round_robin = read_config("upstream pool {\n  server a;\n}").unwrap_err();
        assert!(
            round_robin.to_string().contains("round robin"),
            "{round_robin}"
        );
        assert_eq!(
            read_config("hello").unwrap_err(),
            Problem::ConfigNotRecognized
        );
        let with_id = read_config("backend b\n  hash-type consistent\n  server s1 a:80 id 7\n");
        assert!(with_id
            .unwrap_err()
            .to_string()
            .contains("declaration order"));
    }
}
