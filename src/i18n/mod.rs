//! The page's languages. Every sentence the page shows comes from one [`Words`] catalog per
//! language — `en.rs` and `zh_cn.rs` — so a translator edits one file, and the compiler
//! refuses a catalog that misses an entry. An entry that only places names or numbers in
//! a sentence is a template — `{0}`, `{1}`, … in the order the callers give them, filled by
//! [`crate::text::fill`] (a translator may reorder them); one whose sentence changes
//! with its values (plurals, optional parts, narrations) is a plain function. The catalogs
//! are compiled in, so choosing a language makes no request.
//!
//! What is wrong with an input comes as a [`Problem`] (data, not text): a catalog words
//! each one (`problem`, an exhaustive `match` in each language), and [`reason`] picks the
//! page's language. The command line prints a problem's English (`Display`).

mod en;
mod words;
mod zh_cn;

pub use en::WORDS as EN;
pub use words::{reason, Narration, TourWords, Words};
pub use zh_cn::WORDS as ZH_CN;

/// A language of the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    ZhCn,
}

impl Lang {
    /// Every language, in the order of the switch.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// The BCP 47 tag, as in `lang=` and `<html lang>`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// The language's own name, for the switch.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhCn => "简体中文",
        }
    }

    /// The language for a `lang=` value (exactly `en` or `zh-CN`, any case).
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(code.trim()))
    }

    /// The first of the browser's preferred languages that the page speaks: any `zh`
    /// except the traditional scripts and regions picks Simplified Chinese; else English.
    pub fn from_preferences<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        for tag in tags {
            let tag = tag.to_ascii_lowercase();
            if tag == "en" || tag.starts_with("en-") {
                return Lang::En;
            }
            if tag == "zh" || tag.starts_with("zh-") {
                let traditional = ["hant", "-tw", "-hk", "-mo"]
                    .iter()
                    .any(|t| tag.contains(t));
                if !traditional {
                    return Lang::ZhCn;
                }
            }
        }
        Lang::En
    }

    /// This language's catalog.
    pub fn words(self) -> &'static Words {
        match self {
            Lang::En => &en::WORDS,
            Lang::ZhCn => &zh_cn::WORDS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::algorithms::Algorithm;
    use crate::problem::Problem;
    use crate::text::fill;

    /// HAProxy's own words, quoted in messages as its config writes them.
    const HAPROXY_WORDS: [&str; 19] = [
        "defaults",
        "balance",
        "roundrobin",
        "source",
        "uri",
        "url_param",
        "hdr",
        "rdp",
        "cookie",
        "crc32",
        "djb2",
        "wt6",
        "sdbm",
        "avalanche",
        "addr",
        "key",
        "factor",
        "template",
        "DNS",
    ];

    /// `nodetool ring`'s own column names and values, and the parameters they become: quoted
    /// as the output writes them.
    const NODETOOL_WORDS: [&str; 14] = [
        "Cassandra",
        "tokens",
        "slots",
        "Address",
        "Rack",
        "Status",
        "State",
        "Load",
        "Owns",
        "Token",
        "Normal",
        "Leaving",
        "Joining",
        "Moving",
    ];

    /// Every problem, one of each variant, in both catalogs: English as the command line
    /// prints it, Chinese different from the English and without English words (beyond
    /// names, parameter names and the quoted values).
    #[test]
    fn every_problem_is_worded_in_every_language() {
        let allowed = [
            "hashring",
            "lab",
            // Ceph's devices.
            "OSD",
            "osd",
            "format",
            "version",
            "json",
            "nodes",
            "down",
            "vnodes",
            "label",
            "keys",
            "algo",
            "hash",
            "ring",
            "compare",
            "light",
            "dark",
            "lang",
            "theme",
            "view",
            "tour",
            "step",
            "freeze",
            "modn",
            "last",
            "node",
            "key",
            "user",
            "list",
            "random",
            "add",
            "remove",
            "fail",
            "recover",
            "weight",
            "Maglev",
            "xxh3",
            "md5",
            "embed",
            "jump",
            "spec",
            "colour",
            "seed",
            "NAME",
            "grow",
            "scenario",
            "FFFD",
            "UTF",
            "present",
            "upstream",
            "backend",
            "notes",
            // Config syntax, quoted as the config writes it.
            "consistent",
            "server",
            "type",
            "hash_tag",
            "fnv1a_64",
            "distribution",
            "modula",
            "host",
            "port",
            "path",
            "name",
            "simulate",
            "config",
            "YAML",
            // The commands whose output is a cluster's own layout.
            "nodetool",
            "ring",
            "CLUSTER",
            "NODES",
            "SHARDS",
            "Redis",
            // The command whose output is a Ceph cluster's CRUSH map.
            "crushtool",
            "slotmap",
            "cport",
            // CLUSTER SHARDS's own field names and values, quoted as the output writes them.
            "role",
            "master",
            "nodes",
            "port",
        ];
        let mut allowed = allowed.to_vec();
        allowed.extend(crate::engine::scenario::PARAMS);
        allowed.extend(NODETOOL_WORDS);
        allowed.extend(HAPROXY_WORDS);
        // Ids, and the words of a hyphenated one ("envoy-ring").
        allowed.extend(Algorithm::ALL.iter().flat_map(|a| a.name().split('-')));
        for p in crate::problem::examples() {
            let en = (Lang::En.words().problem)(&p);
            assert_eq!(en, p.to_string());
            let zh = (Lang::ZhCn.words().problem)(&p);
            assert_ne!(zh, en, "{p:?} has no Chinese");
            // A bug's words, and a CRUSH map reader's reason (its own, in English).
            if !matches!(p, Problem::Internal(_) | Problem::CrushMap { .. }) {
                let left = english_words(&zh, &allowed);
                assert!(left.is_empty(), "{left:?} in: {zh}");
            }
        }
    }

    /// The narrations name servers from the facts: rename the Java tour's servers (and
    /// the ring tour's caches) and every sentence follows, in both languages.
    #[test]
    fn narrations_follow_renamed_servers() {
        use crate::tour::TourId;
        let facts = Facts {
            keys: "100".into(),
            moved: "7".into(),
            counts: vec![
                ("10.0.0.1#P".into(), "30".into()),
                ("10.0.0.2#Q".into(), "70".into()),
            ],
            gone: vec!["10.0.0.9#Z".into()],
            moved_from: vec!["10.0.0.1#P".into()],
            moved_to: vec!["10.0.0.2#Q".into()],
            ..Facts::default()
        };
        for lang in [Lang::En, Lang::ZhCn] {
            let java = &lang.words().tour_words[TourId::Java.index()];
            for (k, step) in java.steps.iter().enumerate() {
                let text = step(&facts);
                assert!(
                    text.contains("P 30") && text.contains("Q 70"),
                    "{lang:?} {k}: {text}"
                );
                assert!(
                    !text.contains("127.") && !text.contains(crate::facts::UNKNOWN_SERVER),
                    "{text}"
                );
            }
            assert!(
                java.steps[1](&facts).contains('Z'),
                "the removed server is named"
            );
            let ring = &lang.words().tour_words[TourId::Ring.index()];
            for step in ring.steps {
                assert!(!step(&facts).contains("cache_"), "{}", step(&facts));
            }
        }
    }

    #[test]
    fn every_registered_algorithm_has_words_in_every_language() {
        for lang in [Lang::En, Lang::ZhCn] {
            for a in Algorithm::ALL {
                let (title, intro) = (lang.words().algorithms)(a.name());
                assert!(!title.is_empty(), "{lang:?} has no title for {a}");
                assert!(intro.len() > 20, "{lang:?} has no intro for {a}");
            }
        }
    }
    use crate::tour::{Facts, Tour, TourId};

    #[test]
    fn the_browser_language_picks_the_catalog() {
        assert_eq!(Lang::from_preferences(["zh-CN", "en"]), Lang::ZhCn);
        assert_eq!(Lang::from_preferences(["zh"]), Lang::ZhCn);
        assert_eq!(Lang::from_preferences(["zh-Hans-SG"]), Lang::ZhCn);
        assert_eq!(Lang::from_preferences(["zh-TW", "en-GB"]), Lang::En);
        assert_eq!(Lang::from_preferences(["fr", "de"]), Lang::En);
        assert_eq!(Lang::from_preferences(["fr", "zh-CN"]), Lang::ZhCn);
        assert_eq!(Lang::from_code("ZH-cn"), Some(Lang::ZhCn));
        assert_eq!(Lang::from_code("zh"), None);
    }

    #[test]
    fn every_tour_has_one_narration_per_step_in_every_language() {
        for lang in Lang::ALL {
            for id in TourId::ALL {
                let words = &lang.words().tour_words[id.index()];
                assert_eq!(words.steps.len(), Tour::get(id).len(), "{lang:?} {id:?}");
                assert!(!words.title.is_empty());
            }
        }
    }

    /// Latin words of three or more letters outside quotes, except the allowed names.
    fn english_words(text: &str, allowed: &[&str]) -> Vec<String> {
        // Quoted values are the user's own; parameter lists name what may be typed.
        let mut unquoted = String::new();
        let mut quoted = false;
        for c in text.chars() {
            if c == '\'' {
                quoted = !quoted;
            } else if !quoted {
                unquoted.push(c);
            }
        }
        unquoted
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .filter(|w| w.chars().filter(char::is_ascii_alphabetic).count() >= 3)
            .filter(|w| !allowed.iter().any(|a| a.eq_ignore_ascii_case(w)))
            .map(str::to_owned)
            .collect()
    }

    /// Every message the engine, the reducer, the link and the file reader give for bad
    /// input reads as Chinese.
    #[test]
    #[allow(clippy::too_many_lines)] // A list of bad inputs, one per line.
    fn engine_messages_are_translated() {
        use crate::engine::scenario::Scenario;
        use crate::engine::sim::{Change, Simulation};
        use crate::state::{keys_from_form, Action, PageState};
        let mut messages: Vec<Problem> = Vec::new();
        let bad_scenarios: &[&[(&str, &str)]] = &[
            &[
                ("nodes", "A,A"),
                ("vnodes", "0"),
                ("seed", "-1"),
                ("algo", "x"),
                ("hash", "y"),
            ],
            &[
                ("nodes", "a,b*0"),
                ("keys", "5..5"),
                ("label", "{i}"),
                ("colour", "red"),
            ],
            &[
                ("nodes", "a\u{200b}b,c*x"),
                ("keys", "k:0..10"),
                ("vnodes", "x"),
            ],
            &[("nodes", ""), ("keys", "list:a\u{7}"), ("down", "Z")],
            &[("nodes", "A*0.001"), ("vnodes", "1")],
            &[
                ("vnodes", "1000"),
                (
                    "nodes",
                    "a*100,b*100,c*100,d*100,e*100,f*100,g*100,h*100,i*100,j*100,k*100",
                ),
            ],
            &[("label", "{node}"), ("vnodes", "5")],
            &[("algo", "rendezvous"), ("hash", "identity")],
            &[("keys", "nonsense")],
            &[("keys", "x..7")],
            &[("keys", "random:abc")],
            &[("keys", "0..20000000")],
            &[("vnodes", "3"), ("vnodes", "4")],
            &[("c", "0.5")],
            &[("nodes", "s{i}:0..x")],
            &[("probes", "0")],
            &[("table", "250"), ("algo", "maglev")],
            &[("table", "0")],
        ];
        for pairs in bad_scenarios {
            messages.extend(Scenario::from_pairs(pairs.iter().copied()).unwrap_err().0);
        }
        let mut sim = Simulation::new(&Scenario::from_pairs([("nodes", "A,B")]).unwrap()).unwrap();
        for change in [
            Change::add("A"),
            Change::add("x,y"),
            Change::Remove("Q".into()),
            Change::Recover("A".into()),
        ] {
            messages.push(sim.apply(&change).unwrap_err());
        }
        sim.apply(&Change::Fail("A".into())).unwrap();
        messages.push(sim.apply(&Change::Fail("A".into())).unwrap_err());
        for (count, pattern) in [("abc", ""), ("0", ""), ("10", "user")] {
            messages.push(keys_from_form(count, pattern).unwrap_err());
        }
        let identity = PageState::new(
            &Scenario::from_pairs([
                ("hash", "identity"),
                ("label", "{node}{i}"),
                ("nodes", "1,2"),
            ])
            .unwrap(),
        )
        .unwrap();
        let notices = [
            identity.reduce(Action::Lookup("abc".into())).error,
            PageState::new(&Scenario::from_pairs([("nodes", "A")]).unwrap())
                .unwrap()
                .reduce(Action::RemoveLast)
                .reduce(Action::RemoveLast)
                .error,
        ];
        let w = Lang::ZhCn.words();
        let mut texts: Vec<String> = messages.iter().map(|m| reason(w, m)).collect();
        texts.extend(notices.iter().flatten().map(|n| crate::words::notice(w, n)));
        let link = crate::link::Link::read(&[
            ("lang".into(), "fr".into()),
            ("tour".into(), "nope".into()),
            ("theme".into(), "pink".into()),
            ("embed".into(), "yes".into()),
            ("freeze".into(), "x".into()),
        ]);
        texts.extend(link.notice().map(|n| crate::words::notice(w, &n)));
        let file = crate::file::read_scenario(&[(
            "colour".into(),
            crate::file::FieldValue::Other(crate::problem::JsonKind::Object),
        )])
        .unwrap_err();
        texts.extend(file.iter().map(|m| reason(w, m)));
        assert!(texts.len() > 30, "{}", texts.len());
        let mut allowed = vec![
            "jump",
            "bounded",
            "anchor",
            "memento",
            "flip",
            "power",
            "binomial",
            "jumpback",
            "multiprobe",
            "maglev",
            "probes",
            "table",
            "identity",
            "hash",
            "nodes",
            "down",
            "vnodes",
            "keys",
            "algo",
            "label",
            "seed",
            "node",
            "list",
            "random",
            "user",
            "key",
            "ring",
            "modn",
            "rendezvous",
            "carp",
            "slots",
            "xxh3",
            "murmur64a",
            "fnv",
            "hutool",
            "java",
            "string",
            "md5",
            "crc16",
            "lang",
            "zh",
            "tour",
            "step",
            "last",
            "theme",
            "light",
            "dark",
            "embed",
            "freeze",
            "ring",
            "vnodes",
            "format",
            "version",
            "hashring",
            "lab",
            "scenario",
            "sweep",
            "stale",
            "survivors",
            "slots",
            "json",
            "slotmap",
            "tokens",
        ];
        // Ids, and the words of a hyphenated one ("envoy-ring"); the tours' ids; the
        // scenario's parameter names.
        allowed.extend(Algorithm::ALL.iter().flat_map(|a| a.name().split('-')));
        allowed.extend(crate::engine::scenario::PARAMS);
        allowed.extend(crate::tour::TourId::ALL.map(crate::tour::TourId::id));
        for text in texts {
            let left = english_words(&text, &allowed);
            assert!(left.is_empty(), "{left:?} in: {text}");
        }
    }

    /// The Chinese catalog is Chinese: besides names, numbers and formulas, no English
    /// word of three or more letters is left in it.
    /// The names of the people, products and functions the algorithms come from (each
    /// file's `SPEC` doc): they may appear in any language.
    const SOURCE_NAMES: &[&str] = &[
        "Appleton",
        // Ceph's own names: its placement function, its devices, its tool, its knob.
        "CRUSH",
        "straw2",
        "OSD",
        "rjenkins",
        "ceph_stable_mod",
        "osdmaptool",
        "pg_num",
        "Cassandra",
        "Coluzzi",
        "CRC32",
        "crc32",
        "Envoy",
        "Ertl",
        "FNV",
        "Guava",
        "HAProxy",
        "Hashing",
        "consistentHash",
        "consistenthash",
        "Murmur3",
        "MurmurHash3",
        "OpenResty",
        "lua",
        "resty",
        "balancer",
        "XXH64",
        "sdbm",
        "memcached",
        "libmemcached",
        "nutcracker",
        "fnv1a_64",
        "distribution",
        "ingress",
        "upstream",
        "consistent",
        "type",
        "vnodes",
        "seed",
        "keys",
    ];

    #[test]
    fn the_chinese_catalog_has_no_english_sentences() {
        let mut allowed = vec![
            "Lamping",
            "Mirrokni",
            "Thorup",
            "Zadimoghaddam",
            "AnchorHash",
            "Mendelson",
            "MementoHash",
            "Memento",
            "DxHash",
            "Dong",
            "Wang",
            "FlipHash",
            "Masson",
            "Lee",
            "Leu",
            "Binomial",
            "BinomialHash",
            "Coluzzi",
            "JumpBack",
            "Ertl",
            "Veach",
            "Appleton",
            "Reilly",
            "Maglev",
            "Google",
            "table",
            "hashring",
            "lab",
            "Redis",
            "Cluster",
            "CARP",
            "MD5",
            "CRC16",
            "HRW",
            "hash",
            "key",
            "mod",
            "xxh3",
            "Java",
            "String",
            "hashCode",
            "MurmurHash64A",
            "user",
            "following",
            "followers",
            "user1",
            "redis5",
            "node",
            "7003",
            "key2",
            "cache_A",
            "cache_B",
            "cache_C",
            "cache_D",
            "NODE1",
            "NODE2",
            "NODE3",
            "server",
            // The command whose output a user pastes.
            "nodetool",
            // The slots tour's Ceph cluster: its object and host names.
            "obj",
            "node",
        ];
        // The registry's ids and the names its sources give may appear in any language.
        allowed.extend(Algorithm::ALL.iter().map(|a| a.name()));
        allowed.extend(SOURCE_NAMES);
        let w = Lang::ZhCn.words();
        let facts = Facts::default();
        let mut texts: Vec<String> = vec![
            w.tagline.into(),
            w.dismiss.into(),
            (w.busy)(2),
            (w.ignored)(1),
            fill(w.moved_of, &["x", "1", "2", "3"]),
            (w.explain_scores)("MD5(server + key)", false, "A"),
        ];
        for a in Algorithm::ALL {
            let (title, intro) = (w.algorithms)(a.name());
            texts.extend([title.to_string(), intro.to_string()]);
        }
        for t in &w.tour_words {
            texts.push(t.title.into());
            texts.extend(t.steps.iter().map(|n| n(&facts)));
        }
        for text in texts {
            for word in text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
                if word.len() >= 3 && word.chars().any(|c| c.is_ascii_alphabetic()) {
                    assert!(
                        allowed.iter().any(|a| a.eq_ignore_ascii_case(word)),
                        "English '{word}' in: {text}"
                    );
                }
            }
        }
    }
}
