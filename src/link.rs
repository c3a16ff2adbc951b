//! The page's link: what a URL query asks for, and the query that reproduces the page.
//!
//! A link carries the scenario (the parameters of [`crate::engine::scenario`], shared with
//! the command line) and the page's own parameters (`freeze`). Reading one never fails:
//! every problem is collected with a message that says what is allowed, and the page
//! decides what to show. Names that are neither are ignored, since sites that link here
//! may decorate the URL. Pure, so it is tested natively; the page only reads and writes
//! `location`.

use crate::engine::scenario::{repeated_names, Scenario, PARAMS};
use crate::engine::text::quote;

/// The page-only parameters (not part of the scenario).
pub const PAGE_PARAMS: [&str; 1] = ["freeze"];

/// The longest `freeze` value, in milliseconds.
pub const MAX_FREEZE_MS: f64 = 60_000.0;

/// What a link asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The scenario, when its parameters are all valid.
    pub scenario: Option<Scenario>,
    /// `freeze=MS`: a fixed animation clock, when given and valid.
    pub freeze_ms: Option<f64>,
    /// Every problem found, one message each.
    pub problems: Vec<String>,
}

impl Link {
    /// Reads decoded `(name, value)` pairs.
    pub fn read(pairs: &[(String, String)]) -> Link {
        let page: Vec<&(String, String)> = pairs
            .iter()
            .filter(|(k, _)| PAGE_PARAMS.contains(&k.as_str()))
            .collect();
        let mut problems = repeated_names(page.iter().map(|(k, _)| k.as_str()));
        let scenario = match Scenario::from_pairs(
            pairs
                .iter()
                .filter(|(k, _)| PARAMS.contains(&k.as_str()))
                .map(|(k, v)| (k.as_str(), v.as_str())),
        ) {
            Ok(s) => Some(s),
            Err(e) => {
                problems.extend(e.0);
                None
            }
        };
        let mut freeze_ms = None;
        for (_, v) in page.iter().filter(|(k, _)| k == "freeze") {
            match v.trim().parse::<f64>() {
                Ok(t) if (0.0..=MAX_FREEZE_MS).contains(&t) => freeze_ms = Some(t),
                _ => problems.push(format!(
                    "freeze {} must be a number of milliseconds from 0 to {MAX_FREEZE_MS}",
                    quote(v)
                )),
            }
        }
        Link {
            scenario,
            freeze_ms,
            problems,
        }
    }

    /// The message to show for the link's problems, if it has any.
    pub fn message(&self) -> Option<String> {
        if self.problems.is_empty() {
            return None;
        }
        let list = self.problems.join("; ");
        Some(if self.scenario.is_some() {
            format!("This link has a problem: {list}.")
        } else {
            format!(
                "This link's scenario was not loaded: {list}. Showing the default scenario instead; the address bar keeps your link until you change something."
            )
        })
    }
}

/// The query (without `?`) for `scenario` plus the page parameters among `pairs`, each
/// page parameter's first value kept as it came, percent-encoded.
pub fn query(scenario: &Scenario, pairs: &[(String, String)]) -> String {
    let mut query = scenario.to_query();
    let mut kept: Vec<&str> = Vec::new();
    for (k, v) in pairs {
        if !PAGE_PARAMS.contains(&k.as_str()) || kept.contains(&k.as_str()) {
            continue;
        }
        kept.push(k);
        if !query.is_empty() {
            query.push('&');
        }
        let v = percent_encoding::utf8_percent_encode(v, percent_encoding::NON_ALPHANUMERIC);
        query.push_str(&format!("{k}={v}"));
    }
    query
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn every_problem_is_reported_and_the_default_is_announced() {
        let link = Link::read(&pairs(&[("nodes", "A,A"), ("freeze", "abc")]));
        assert!(link.scenario.is_none());
        assert_eq!(link.problems.len(), 2, "{:?}", link.problems);
        let m = link.message().unwrap();
        assert!(
            m.contains("appears twice") && m.contains("freeze 'abc'"),
            "{m}"
        );
        assert!(m.contains("Showing the default scenario"), "{m}");
    }

    #[test]
    fn repeated_page_parameters_follow_the_same_rule() {
        let link = Link::read(&pairs(&[("freeze", "1"), ("freeze", "abc")]));
        assert!(link.scenario.is_some());
        let m = link.message().unwrap();
        assert!(m.contains("'freeze' is given more than once"), "{m}");
    }

    #[test]
    fn unknown_names_are_ignored_and_a_good_link_has_no_message() {
        let link = Link::read(&pairs(&[
            ("utm_source", "x"),
            ("vnodes", "20"),
            ("freeze", "500"),
        ]));
        assert_eq!(link.message(), None);
        assert_eq!(link.freeze_ms, Some(500.0));
        assert_eq!(link.scenario.unwrap().settings.vnodes, 20);
    }

    #[test]
    fn the_query_keeps_page_parameters() {
        let s = Scenario::from_pairs([("vnodes", "20")]).unwrap();
        assert_eq!(
            query(
                &s,
                &pairs(&[("vnodes", "5"), ("freeze", "1 0"), ("x", "y")])
            ),
            "vnodes=20&freeze=1%200"
        );
        assert_eq!(query(&Scenario::default(), &[]), "");
    }
}
