//! The page's link: what a URL query asks for, and the query that reproduces the page.
//!
//! A link carries the scenario (the parameters of [`crate::engine::scenario`], shared with
//! the command line) and the page's own parameters (`freeze`, `lang`, `tour`, `step`,
//! `embed`, `theme`, `present`, `view` and `notes`). Reading one never fails:
//! every problem is collected with a message that says what is allowed, and the page
//! decides what to show. Names that are neither are ignored, since sites that link here
//! may decorate the URL. Pure, so it is tested natively; the page only reads and writes
//! `location`.

use crate::engine::scenario::{repeated_names, Scenario, PARAMS, QUERY_VALUE};
use crate::i18n::Lang;
use crate::notice::Notice;
use crate::problem::Problem;
use crate::render::palette::Theme;
use crate::text::{parse_decimal, quote};
use crate::tour::{read_position, Position};
use std::rc::Rc;

/// The page-only parameters (not part of the scenario).
pub const PAGE_PARAMS: [&str; 9] = [
    "freeze", "lang", "tour", "step", "embed", "theme", "present", "view", "notes",
];

/// The longest `freeze` value, in milliseconds.
pub const MAX_FREEZE_MS: f64 = 60_000.0;

/// How the page is shown — everything a link says besides the scenario and the animation
/// clock. The page reads it from its link and writes it back (with the language it settled
/// on) after every change, through [`View::pairs`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct View {
    /// `lang=en|zh-CN` (`None`: the browser's preference).
    pub lang: Option<Lang>,
    /// `tour=ID&step=K`.
    pub tour: Option<Position>,
    /// `theme=light|dark` (`None`: the system's choice).
    pub theme: Option<Theme>,
    /// `present=1`: presentation mode.
    pub present: bool,
    /// `embed=1`: the compact view for an iframe.
    pub embed: bool,
    /// `view=compare`: the algorithm comparison instead of the ring.
    pub compare: bool,
    /// `notes=1`: the presenter's notes for the tour, following the presenting window.
    pub notes: bool,
}

impl View {
    /// (name, value) for [`query`]; `None` removes a parameter.
    pub fn pairs(&self) -> Vec<(&'static str, Option<String>)> {
        let flag = |on: bool| on.then(|| "1".to_owned());
        vec![
            ("lang", self.lang.map(|l| l.code().to_owned())),
            ("tour", self.tour.map(|p| p.tour.id().to_owned())),
            ("step", self.tour.map(|p| p.step.to_string())),
            ("theme", self.theme.map(|t| t.name().to_owned())),
            ("present", flag(self.present)),
            ("embed", flag(self.embed)),
            ("view", self.compare.then(|| "compare".to_owned())),
            ("notes", flag(self.notes)),
        ]
    }
}

/// Which view parameter wins when two cannot hold together: the speaker notes are never an
/// embed, an embed is never in presentation mode, and a tour shows the ring, not the
/// comparison. The ignored one is named in the link's notice.
pub const PRECEDENCE: &str = "notes=1 over embed=1, embed=1 over present=1, tour over view=compare";

/// What a link asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The scenario, when its parameters are all valid.
    pub scenario: Option<Scenario>,
    /// `freeze=MS`: a fixed animation clock, when given and valid.
    pub freeze_ms: Option<f64>,
    /// How the page is shown.
    pub view: View,
    /// Every problem found, one message each.
    pub problems: Rc<[Problem]>,
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
            match parse_decimal(v.trim()) {
                Some(t) if (0.0..=MAX_FREEZE_MS).contains(&t) => freeze_ms = Some(t),
                _ => problems.push(Problem::FreezeOutOfRange {
                    given: quote(v),
                    max: MAX_FREEZE_MS,
                }),
            }
        }
        let value = |name: &str| {
            page.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        let lang = value("lang").and_then(|v| {
            let lang = Lang::from_code(v);
            if lang.is_none() {
                problems.push(Problem::Lang { given: quote(v) });
            }
            lang
        });
        let tour = match (value("tour"), value("step")) {
            (Some(tour), step) => read_position(tour, step).map_err(|e| problems.push(e)).ok(),
            (None, Some(_)) => {
                problems.push(Problem::StepNeedsTour);
                None
            }
            (None, None) => None,
        };
        let theme = value("theme").and_then(|v| {
            let theme = Theme::from_name(v);
            if theme.is_none() {
                problems.push(Problem::Theme { given: quote(v) });
            }
            theme
        });
        let mut flag = |name: &'static str| match value(name).map(str::trim) {
            None | Some("0") => false,
            Some("1") => true,
            Some(v) => {
                problems.push(Problem::FlagNotBoolean {
                    name,
                    given: quote(v),
                });
                false
            }
        };
        let (embed, present, notes) = (flag("embed"), flag("present"), flag("notes"));
        let compare = match value("view").map(str::trim) {
            None | Some("ring") => false,
            Some("compare") => true,
            Some(v) => {
                problems.push(Problem::View { given: quote(v) });
                false
            }
        };
        // Parameters that cannot hold together: the one that decides what the page is wins,
        // and the link says which was ignored (see [`PRECEDENCE`]).
        let mut resolve = |wanted: bool, blocked: bool, ignored, winner| {
            if wanted && blocked {
                problems.push(Problem::IgnoredParameter { ignored, winner });
            }
            wanted && !blocked
        };
        let embed = resolve(embed, notes, "embed=1", "notes=1");
        let present = resolve(present, embed, "present=1", "embed=1");
        let compare = resolve(compare, tour.is_some(), "view=compare", "tour");
        let problems = crate::problem::capped(problems);
        Link {
            scenario,
            freeze_ms,
            view: View {
                lang,
                tour,
                theme,
                present,
                embed,
                compare,
                notes,
            },
            problems: problems.into(),
        }
    }

    /// The notice for the link's problems, if it has any.
    pub fn notice(&self) -> Option<Notice> {
        if self.problems.is_empty() {
            return None;
        }
        let list = Rc::clone(&self.problems);
        Some(if self.scenario.is_some() {
            Notice::LinkProblem(list)
        } else {
            Notice::LinkNotLoaded(list)
        })
    }
}

/// The longest link the page offers to share or writes into the address bar: Chromium opens
/// links of at most 2 MB. A scenario whose link is longer (a million listed keys or tokens)
/// is shared as a scenario file; writing it into text fields froze the page for seconds.
pub const MAX_LINK_BYTES: usize = 2 * 1024 * 1024;

/// The query (without `?`) for a scenario whose own query (`Scenario::to_query`, computed
/// once per state) is `scenario_query`, plus the page parameters: those in `set` (a `None`
/// value drops the parameter), then the others among `pairs`, each one's first value kept as
/// it came. Values are percent-encoded.
pub fn with_page_params(
    scenario_query: String,
    set: &[(&str, Option<String>)],
    pairs: &[(String, String)],
) -> String {
    let mut query = scenario_query;
    let mut kept: Vec<&str> = Vec::new();
    let given = pairs.iter().map(|(k, v)| (k.as_str(), Some(v.clone())));
    for (k, v) in set.iter().cloned().chain(given) {
        if !PAGE_PARAMS.contains(&k) || kept.contains(&k) {
            continue;
        }
        kept.push(k);
        let Some(v) = v else { continue };
        if !query.is_empty() {
            query.push('&');
        }
        let v = percent_encoding::utf8_percent_encode(&v, QUERY_VALUE);
        query.push_str(&format!("{k}={v}"));
    }
    query
}

/// The host a link points at, when only the machine that opened it can reach it:
/// `localhost`, `127.x.x.x`, `[::1]` or `0.0.0.0` (what `make serve` listens on unless told
/// otherwise). A QR code of such a link sends every phone in the room to itself.
pub fn loopback_host(link: &str) -> Option<&str> {
    let rest = link.split_once("://").map_or(link, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host_port.starts_with('[') {
        host_port.split_inclusive(']').next().unwrap_or(host_port)
    } else {
        host_port.split(':').next().unwrap_or(host_port)
    };
    let lower = host.to_ascii_lowercase();
    let loopback = lower == "localhost"
        || lower.ends_with(".localhost")
        || lower == "[::1]"
        || lower == "0.0.0.0"
        || lower.strip_prefix("127.").is_some_and(|rest| {
            rest.split('.').count() == 3 && rest.split('.').all(|p| p.parse::<u8>().is_ok())
        });
    loopback.then_some(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_links_are_told_apart_from_links_a_room_can_open() {
        for link in [
            "http://127.0.0.1:8080/?nodes=A,B",
            "http://localhost:8080/",
            "https://LOCALHOST/x",
            "http://[::1]:8080/?a=b",
            "http://0.0.0.0:8080/",
            "http://127.1.2.3/",
            "http://app.localhost/",
        ] {
            assert!(loopback_host(link).is_some(), "{link}");
        }
        for link in [
            "http://192.168.1.20:8080/?nodes=A,B",
            "https://example.org/hashring/?x=127.0.0.1",
            "http://127.0.0.1.example.org/",
            "http://[2001:db8::1]:8080/",
            "http://user@10.0.0.5/",
            "",
        ] {
            assert_eq!(loopback_host(link), None, "{link}");
        }
        assert_eq!(loopback_host("http://127.0.0.1:8080/"), Some("127.0.0.1"));
    }

    #[test]
    fn conflicting_view_parameters_resolve_by_precedence_and_say_so() {
        let pairs = |q: &str| -> Vec<(String, String)> {
            q.split('&')
                .map(|p| {
                    let (k, v) = p.split_once('=').unwrap();
                    (k.to_owned(), v.to_owned())
                })
                .collect()
        };
        let link = Link::read(&pairs("tour=modn&view=compare&embed=1&present=1"));
        assert!(link.view.tour.is_some() && link.view.embed);
        assert!(!link.view.present && !link.view.compare);
        let said = crate::problem::english(&link.problems);
        assert!(
            said.contains("present=1 is ignored: embed=1 takes precedence"),
            "{said}"
        );
        assert!(
            said.contains("view=compare is ignored: tour takes precedence"),
            "{said}"
        );
        let notes = Link::read(&pairs("tour=modn&notes=1&embed=1"));
        assert!(notes.view.notes && !notes.view.embed);
        // A tour no longer hides the link's other problems.
        let toured = Link::read(&pairs("tour=java&step=2&vnodes=0&algo=nope"));
        assert_eq!(toured.problems.len(), 2, "{:?}", toured.problems);
        // The page's own link after every server is removed opens again.
        let empty = Link::read(&pairs("nodes=&keys=0..100"));
        assert!(empty.problems.is_empty(), "{:?}", empty.problems);
        assert_eq!(empty.scenario.map(|s| s.nodes.len()), Some(0));
    }

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
        let Some(Notice::LinkNotLoaded(m)) = link.notice() else {
            panic!("{:?}", link.notice())
        };
        let m = crate::problem::english(&m);
        assert!(
            m.contains("appears twice") && m.contains("freeze 'abc'"),
            "{m}"
        );
    }

    #[test]
    fn repeated_page_parameters_follow_the_same_rule() {
        let link = Link::read(&pairs(&[("freeze", "1"), ("freeze", "abc")]));
        assert!(link.scenario.is_some());
        let Some(Notice::LinkProblem(m)) = link.notice() else {
            panic!("{:?}", link.notice())
        };
        let m = crate::problem::english(&m);
        assert!(m.contains("'freeze' is given more than once"), "{m}");
    }

    #[test]
    fn unknown_names_are_ignored_and_a_good_link_has_no_message() {
        let link = Link::read(&pairs(&[
            ("utm_source", "x"),
            ("vnodes", "20"),
            ("freeze", "500"),
        ]));
        assert_eq!(link.notice(), None);
        assert_eq!(link.freeze_ms, Some(500.0));
        assert_eq!(link.scenario.unwrap().settings.vnodes, 20);
    }

    #[test]
    fn the_query_keeps_page_parameters() {
        let s = Scenario::from_pairs([("vnodes", "20")]).unwrap();
        assert_eq!(
            with_page_params(
                s.to_query(),
                &[],
                &pairs(&[("vnodes", "5"), ("freeze", "1 0"), ("x", "y")])
            ),
            "vnodes=20&freeze=1%200"
        );
        assert_eq!(
            with_page_params(Scenario::default().to_query(), &[], &[]),
            ""
        );
        assert_eq!(
            with_page_params(
                s.to_query(),
                &[("lang", Some("zh-CN".into())), ("tour", None)],
                &pairs(&[("tour", "java"), ("lang", "en")])
            ),
            "vnodes=20&lang=zh-CN"
        );
    }

    #[test]
    fn language_and_tour_are_read_and_checked() {
        let link = Link::read(&pairs(&[
            ("lang", "zh-cn"),
            ("tour", "java"),
            ("step", "last"),
        ]));
        assert_eq!(link.view.lang, Some(Lang::ZhCn));
        assert_eq!(link.view.tour.map(|p| p.step), Some(4));
        assert!(link.problems.is_empty());
        let bad = Link::read(&pairs(&[("lang", "fr"), ("tour", "java"), ("step", "0")]));
        assert_eq!((bad.view.lang, bad.view.tour), (None, None));
        assert_eq!(bad.problems.len(), 2, "{:?}", bad.problems);
        assert!(
            bad.scenario.is_some(),
            "page parameters never block the scenario"
        );
        let view = Link::read(&pairs(&[
            ("embed", "1"),
            ("theme", "Light"),
            ("present", "yes"),
        ]));
        assert!(view.view.embed && !view.view.present);
        assert_eq!(view.view.theme, Some(Theme::Light));
        assert!(view.problems[0]
            .to_string()
            .contains("present 'yes' must be 1 or 0"));
        let orphan = Link::read(&pairs(&[("step", "2")]));
        assert!(orphan.problems[0].to_string().contains("step needs a tour"));
    }

    #[test]
    fn a_view_written_into_a_link_reads_back_the_same() {
        let view = View {
            lang: Some(Lang::ZhCn),
            tour: Some(Position {
                tour: crate::tour::TourId::Carp,
                step: 2,
            }),
            theme: Some(Theme::Dark),
            present: true,
            embed: false,
            // A tour shows the ring: `view=compare` with a tour is a conflict (tested above).
            compare: false,
            notes: true,
        };
        let pairs: Vec<(String, String)> = view
            .pairs()
            .into_iter()
            .filter_map(|(k, v)| Some((k.to_owned(), v?)))
            .collect();
        let back = Link::read(&pairs);
        assert_eq!(back.view, view);
        assert!(back.problems.is_empty(), "{:?}", back.problems);
        assert_eq!(Link::read(&[]).view, View::default());
    }
}
