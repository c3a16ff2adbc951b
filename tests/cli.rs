//! The `hashring-lab` command line, run as a user runs it: every subcommand, and every
//! error path answers with one line and exit code 2, never a panic.
#![allow(clippy::unwrap_used)] // A test that cannot go on fails loudly, where it stopped.

use std::process::Command;

use hashring_lab::engine::algorithms::Algorithm;

/// clap's list of `--algo` values: the registry's ids in order.
fn possible_algorithms() -> &'static str {
    let ids: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
    Box::leak(format!("[possible values: {}]", ids.join(", ")).into_boxed_str())
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hashring-lab"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const SEED000: &[&str] = &[
    "--hash",
    "murmur64a-seed",
    "--vnodes",
    "200",
    "--label",
    "{node}{i}",
    "--nodes",
    "127.1.1.1#A,127.2.2.2#B,127.3.3.3#C,127.4.4.4#D",
    "--keys",
    "0..50000",
];

#[test]
fn simulate_json_reports_every_step() {
    let mut args = vec!["simulate"];
    args.extend_from_slice(SEED000);
    args.extend_from_slice(&[
        "--step",
        "remove:127.1.1.1#A",
        "--step",
        "add:127.5.5.5#E",
        "--format",
        "json",
    ]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    assert_eq!(steps[0]["action"], "start");
    assert_eq!(steps[0]["counts"]["127.1.1.1#A"], 12162);
    assert_eq!(steps[0]["moved"], 0);
    assert_eq!(steps[1]["action"], "remove:127.1.1.1#A");
    assert_eq!(steps[1]["moved"], 12162);
    assert_eq!(steps[1]["counts"]["127.4.4.4#D"], 17696);
    assert_eq!(steps[1]["flows"][0]["from"], "127.1.1.1#A");
    assert_eq!(steps[2]["counts"]["127.5.5.5#E"], 13060);
    assert_eq!(steps[2]["moved"], 13060);
    assert!((steps[2]["ideal_fraction"].as_f64().unwrap() - 0.25).abs() < 1e-12);
    assert!(steps[2]["stddev"].as_f64().unwrap() > 0.0);
}

#[test]
fn simulate_table_and_csv_are_for_people_and_spreadsheets() {
    let (code, out, _) = run(&[
        "simulate", "--nodes", "A,B", "--keys", "0..100", "--step", "add:C",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("== start =="));
    assert!(out.contains("== add:C =="));
    assert!(out.contains("moved "));
    let (code, csv, _) = run(&[
        "simulate", "--nodes", "A,B", "--keys", "0..100", "--format", "csv",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "step,action,server,keys,share");
    assert_eq!(lines.len(), 3);
    let total: u64 = lines[1..]
        .iter()
        .map(|l| l.split(',').nth(3).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 100);
}

#[test]
fn sweep_shows_vnodes_improve_balance() {
    let (code, out, err) = run(&[
        "sweep",
        "--vnodes",
        "1,10,100,1000",
        "--nodes",
        "A,B,C,D,E,F,G,H,I,J",
        "--keys",
        "key-{i}:0..100000",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let cv: Vec<f64> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["cv"].as_f64().unwrap())
        .collect();
    assert_eq!(cv.len(), 4);
    assert!(
        cv[0] > cv[3] * 4.0,
        "1 vnode is far less balanced than 1000: {cv:?}"
    );
    assert_eq!(v["points"][2]["vnodes"], 100);
}

#[test]
fn hash_prints_decimal_and_hex() {
    let (code, out, _) = run(&["hash", "--hash", "crc16", "123456789"]);
    assert_eq!(code, 0);
    assert_eq!(out, format!("123456789\t{}\t0x31c30000\n", 0x31C3u32 << 16));
    let (_, out, _) = run(&["hash", "--hash", "identity", "7", "42"]);
    assert_eq!(out, "7\t7\t0x00000007\n42\t42\t0x0000002a\n");
}

#[test]
fn bench_reports_lookups_per_second() {
    let (code, out, err) = run(&[
        "bench", "--keys", "0..10000", "--runs", "2", "--format", "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["lookups"], 10000);
    assert!(v["lookups_per_sec"].as_f64().unwrap() > 0.0);
}

#[test]
fn bad_input_says_what_is_wrong_and_exits_2() {
    // Usage errors: clap's message, exit 2.
    for (args, needle) in [
        (vec![], "Usage: hashring-lab <COMMAND>"),
        (vec!["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (vec!["simulate", "--algo", "maglev2"], possible_algorithms()),
        (vec!["simulate", "--hash", "sha1"], "invalid value 'sha1'"),
        (vec!["simulate", "--format", "xml"], "invalid value 'xml'"),
        (
            vec!["simulate", "--colour", "red"],
            "unexpected argument '--colour'",
        ),
        (
            vec!["simulate", "--nodes"],
            "a value is required for '--nodes",
        ),
        (
            vec!["simulate", "--algo", "ring", "--algo", "modn"],
            "cannot be used multiple times",
        ),
        (vec!["sweep"], "--vnodes <LIST>"),
        (vec!["hash", "--hash", "md5"], "<KEY>..."),
        (vec!["hash", "key"], "--hash <HASH>"),
        (vec!["bench", "--runs", "0"], "0 is not in 1..=100"),
        (vec!["completions", "tcsh"], "invalid value 'tcsh'"),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed to stdout: {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // Bad values: one line per run naming every problem, exit 2.
    let long = "x".repeat(100_000);
    for (args, needle) in [
        (
            vec!["simulate", "--nodes", "A,,B"],
            "server names must not be empty",
        ),
        (
            vec!["simulate", "--nodes", "s{i}:5..1"],
            "is an empty range",
        ),
        (
            vec!["simulate", "--nodes", "s{i}:0..0"],
            "is an empty range",
        ),
        (
            vec!["simulate", "--nodes", "e\u{301},\u{e9}"],
            "combining mark U+0301",
        ),
        (vec!["simulate", "--nodes", "A,A"], "appears twice"),
        (vec!["simulate", "--nodes", "A, A"], "appears twice"),
        (
            vec!["simulate", "--nodes", "A,B", "--down", "A,A"],
            "appears twice",
        ),
        (vec!["simulate", "--nodes", "\u{202E}evil"], "U+202E"),
        (vec!["simulate", "--nodes", "A*1e-300"], "no virtual node"),
        (vec!["simulate", "--vnodes", "0"], "from 1 to 1000"),
        (vec!["simulate", "--vnodes", "5000"], "from 1 to 1000"),
        (vec!["simulate", "--keys", "10..5"], "is empty"),
        (vec!["simulate", "--keys", "nonsense"], "expected A..B"),
        (vec!["simulate", "--keys", long.as_str()], "expected A..B"),
        (
            vec!["simulate", "--step", "remove:Z"],
            "there is no server 'Z'",
        ),
        (
            vec!["simulate", "--step", "explode:A"],
            "unknown step 'explode'",
        ),
        (
            vec!["simulate", "--hash", "identity", "--keys", "list:abc"],
            "identity hash needs decimal integer keys",
        ),
        (
            vec!["sweep", "--vnodes", &["1"; 51].join(",")],
            "at most 50",
        ),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed to stdout: {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(err.starts_with("hashring-lab: "), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.len() < 600,
            "a bad value is quoted short: {} bytes",
            err.len()
        );
    }
    let (_, _, err) = run(&["simulate", "--nodes", "A,A", "--vnodes", "0", "--keys", "x"]);
    for needle in ["appears twice", "vnodes '0'", "got 'x'"] {
        assert!(err.contains(needle), "every problem at once: {err}");
    }
}

#[test]
fn every_command_has_help_and_there_is_a_version_and_completions() {
    for cmd in [
        "simulate",
        "sweep",
        "hash",
        "bench",
        "locate",
        "completions",
    ] {
        let (code, out, err) = run(&[cmd, "--help"]);
        assert_eq!(code, 0, "{cmd}: {err}");
        assert!(out.contains("Usage: hashring-lab"), "{cmd}: {out}");
    }
    let (_, help, _) = run(&["simulate", "--help"]);
    for flag in [
        "--algo <ALGO>",
        "[default: ring]",
        possible_algorithms(),
        "--hash <HASH>",
        "[default: xxh3]",
        "--nodes <NODES>",
        "[default: A,B,C,D]",
        "--vnodes <VNODES>",
        "(default 10;",
        "--label <LABEL>",
        "--keys <KEYS>",
        "[default: key-{i}:0..1000]",
        "--seed <SEED>",
        "--down <DOWN>",
        "--step <STEP>",
        "--format <FORMAT>",
    ] {
        assert!(help.contains(flag), "simulate --help lacks {flag}:\n{help}");
    }
    let (code, out, _) = run(&["--version"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        format!("hashring-lab {}", env!("CARGO_PKG_VERSION"))
    );
    for shell in ["bash", "zsh", "fish"] {
        let (code, out, _) = run(&["completions", shell]);
        assert_eq!(code, 0);
        assert!(out.contains("simulate") && out.contains("nodes"), "{shell}");
    }
}

#[test]
fn locate_explains_each_key_like_the_page() {
    let mut args = vec!["locate"];
    args.extend_from_slice(SEED000);
    args.extend_from_slice(&["--format", "json", "42", "user:1"]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
    assert_eq!(v[0]["key"], "42");
    let server = v[0]["server"].as_str().unwrap();
    assert!(server.starts_with("127."));
    let text = v[0]["explanation"].as_str().unwrap();
    assert!(
        text.starts_with("murmur64a-seed of \"42\" = 0x")
            && text.ends_with(&format!("→ server {server}")),
        "{text}"
    );
    let (code, out, _) = run(&[
        "locate", "--algo", "carp", "--nodes", "A,B,C", "--format", "json", "k",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let scores = v[0]["scores"].as_array().unwrap();
    assert_eq!(scores.len(), 3);
    let winner = scores.iter().find(|s| s["wins"] == true).unwrap();
    assert_eq!(winner["server"], v[0]["server"]);
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hashring-lab"))
        .args([
            "simulate",
            "--keys",
            "0..20000",
            "--nodes",
            "s{i}:0..300",
            "--format",
            "csv",
        ])
        .args((0..100).flat_map(|i| ["--step".to_owned(), format!("weight:s0*{}", 1 + i % 3)]))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn memory_stays_bounded_per_key_whatever_the_names_length() {
    // 2,000,000 keys of ~200 characters: holding the names would need ~450 MB; the bench
    // must run in a 300 MB address-space limit.
    let template = format!("{}{{i}}", "x".repeat(190));
    let keys = format!("{template}:0..2000000");
    let bin = env!("CARGO_BIN_EXE_hashring-lab");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 300000 && exec \"{bin}\" bench --runs 1 --format json --keys '{keys}'"
        ))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["lookups"], 2_000_000);
}

#[test]
fn compare_runs_the_change_through_every_algorithm() {
    let mut args = vec!["compare"];
    args.extend_from_slice(SEED000);
    args.extend_from_slice(&["--change", "remove", "--format", "json"]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), Algorithm::ALL.len(), "one row per algorithm");
    let row = |algo: &str| rows.iter().find(|r| r["algo"] == algo).unwrap();
    // Anchor, Memento and Dx let any server leave: only A's keys move, none between others.
    for algo in ["anchor", "memento", "dx", "rendezvous", "carp"] {
        assert_eq!(row(algo)["moved_between_survivors"], 0, "{algo}");
    }
    // Flip and Power, like jump, renumber the servers after A.
    for algo in ["flip", "power"] {
        assert!(
            row(algo)["moved_between_survivors"].as_u64().unwrap() > 0,
            "{algo}"
        );
    }
    // Bounded loads caps the peak at ⌈1.25 × mean⌉.
    assert!(row("bounded")["peak_to_mean"].as_f64().unwrap() <= 1.2501);
    // Seed 000's numbers again: removing A moves exactly its 12,162 keys on the ring.
    assert_eq!(row("ring")["moved"], 12162);
    assert_eq!(row("ring")["moved_between_survivors"], 0);
    // Jump renumbers the servers after A: keys move between survivors.
    assert!(row("jump")["moved_between_survivors"].as_u64().unwrap() > 0);
    assert!(row("modn")["moved_fraction"].as_f64().unwrap() > 0.5);
    for r in rows {
        assert!(r["bytes"].as_u64().unwrap() > 0, "{r}");
        assert!(r["lookup_ns"].as_f64().unwrap() >= 0.0);
    }
    let (code, out, _) = run(&["compare", "--algos", "jump,maglev", "--format", "csv"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 3, "{out}");
    let (code, _, err) = run(&["compare", "--algos", "jump,nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown algorithm 'nope'"), "{err}");
}

#[test]
fn compare_takes_ten_thousand_servers_written_as_a_range() {
    let (code, out, err) = run(&[
        "compare",
        "--nodes",
        "server-{i}:0..10000",
        "--keys",
        "key-{i}:0..50000",
        "--change",
        "fail",
        "--algos",
        "anchor,memento,dx,maglev,jump",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 5);
    for r in rows {
        // One server of 10,000 fails: about 5 of 50,000 keys are its own.
        assert!(r["ideal_fraction"].as_f64().unwrap() < 0.0002, "{r}");
        if r["algo"] != "jump" {
            assert!(r["moved"].as_u64().unwrap() < 100, "{r}");
        }
    }
    for algo in ["anchor", "memento", "dx"] {
        let r = rows.iter().find(|r| r["algo"] == algo).unwrap();
        assert_eq!(r["moved_between_survivors"], 0, "{algo}");
    }
    // The page's limit stays 100; the engine's is 10,000.
    let (code, _, err) = run(&["compare", "--nodes", "s{i}:0..10001"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("more than the limit of 10000 servers"),
        "{err}"
    );
    // Past a few billion key-server scores, rendezvous and CARP are left out unless named.
    let (code, out, err) = run(&[
        "compare",
        "--nodes",
        "s{i}:0..2001",
        "--keys",
        "key-{i}:0..1000000",
        "--algos",
        "jump",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("jump") && !err.contains("leaving out"),
        "{err}"
    );
}

#[test]
fn arguments_that_are_not_utf8_are_usage_errors() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"a\xffb");
    let bad_list = std::ffi::OsStr::from_bytes(b"A\xff,B");
    for args in [
        vec![std::ffi::OsStr::new("locate"), bad],
        vec![
            std::ffi::OsStr::new("simulate"),
            std::ffi::OsStr::new("--nodes"),
            bad_list,
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_hashring-lab"))
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("invalid UTF-8"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn locate_places_a_key_within_the_scenarios_keys_under_bounded_loads() {
    use hashring_lab::engine::scenario::Scenario;
    use hashring_lab::engine::sim::Simulation;
    let (code, out, err) = run(&[
        "locate",
        "--algo",
        "bounded",
        "--keys",
        "key-{i}:0..3000",
        "--format",
        "json",
        "key-5",
        "key-2999",
        "not-in-the-set",
    ]);
    assert_eq!(code, 0, "{err}");
    let reports: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sim = Simulation::new(
        &Scenario::from_pairs([("algo", "bounded"), ("keys", "key-{i}:0..3000")]).unwrap(),
    )
    .unwrap();
    for r in reports.as_array().unwrap() {
        let key = r["key"].as_str().unwrap();
        // ⌈1.25 × 3000 / 4⌉ = 938 keys per server, not ⌈1.25 × 1 / 4⌉ = 1.
        assert!(r["explanation"].as_str().unwrap().contains("938"), "{r}");
        if key != "not-in-the-set" {
            let (_, owner) = sim.lookup(key).unwrap();
            assert_eq!(r["server"], sim.server(owner).unwrap().name, "{key}");
        }
    }
}

#[test]
fn no_servers_is_one_rule_everywhere() {
    // An empty list is a scenario with no servers (the page writes `nodes=` once every
    // server is removed), in the URL, a scenario file and the command line alike.
    let (code, out, err) = run(&[
        "simulate", "--nodes", "", "--keys", "0..100", "--format", "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        report["steps"][0]["servers"].as_array().map(Vec::len),
        Some(0),
        "{report}"
    );
}

#[test]
fn refused_values_are_quoted_short_and_algorithms_listed_once() {
    let long = "x".repeat(100_000);
    let (code, out, err) = run(&["simulate", "--algo", &long]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.len() < 1_000, "{} bytes", err.len());
    assert!(err.contains(&format!("'{}…'", "x".repeat(60))), "{err}");
    let (code, out, err) = run(&[
        "compare",
        "--nodes",
        "A,B,C",
        "--keys",
        "0..100",
        "--algos",
        "ring,ring, ring,jump",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let algos: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["algo"].as_str().unwrap())
        .collect();
    assert_eq!(algos, ["ring", "jump"]);
    let (_, help, _) = run(&["simulate", "--help"]);
    assert!(help.contains("at most 10,000"), "{help}");
}

#[test]
fn simulate_writes_the_migration_list() {
    let dir = std::env::temp_dir().join(format!("hashring-moved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("moved.csv");
    let path = file.to_str().unwrap();
    for (algo, between_any) in [("ring", false), ("modn", true)] {
        let (code, out, err) = run(&[
            "simulate",
            "--algo",
            algo,
            "--nodes",
            "A,B,C,D",
            "--keys",
            "key-{i}:0..2000",
            "--step",
            "add:E",
            "--step",
            "fail:B",
            "--moved",
            path,
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        let moved: Vec<u64> = report["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["moved"].as_u64().unwrap())
            .collect();
        let csv = std::fs::read_to_string(&file).unwrap();
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        assert_eq!(
            csv.lines().next(),
            Some("step,key,from,to,between_survivors")
        );
        for (step, &want) in moved.iter().enumerate().skip(1) {
            let count = rows.iter().filter(|r| r[0] == step.to_string()).count() as u64;
            assert_eq!(count, want, "{algo} step {step}");
        }
        // Adding E under the ring moves keys only to E; failing B moves only B's keys.
        if algo == "ring" {
            assert!(rows.iter().filter(|r| r[0] == "1").all(|r| r[3] == "E"));
            assert!(rows.iter().filter(|r| r[0] == "2").all(|r| r[2] == "B"));
        }
        let between = rows.iter().filter(|r| r[4] == "true").count();
        assert_eq!(
            between > 0,
            between_any,
            "{algo}: {between} rows between survivors"
        );
        // Moves between survivors agree with the report's count.
        let reported: u64 = report["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["moved_between_survivors"].as_u64().unwrap_or(0))
            .sum();
        assert_eq!(between as u64, reported, "{algo}");
    }
}

#[test]
fn a_config_gives_the_scenario_and_nginx_answers_as_nginx_did() {
    use std::io::Write;
    let config = "upstream pool {\n  hash $arg_key consistent;\n  server 127.0.0.1:18181;\n  server 127.0.0.1:18182 weight=2;\n  server 127.0.0.1:18183;\n  server 127.0.0.1:18199 backup;\n}\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_hashring-lab"))
        .args([
            "locate", "--config", "-", "--format", "json", "key-0", "key-1", "user:42",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(config.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("leaves out backup server '127.0.0.1:18199'"),
        "{err}"
    );
    let reports: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let servers: Vec<&str> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["server"].as_str().unwrap())
        .collect();
    // What Debian's nginx answered for these keys (tests/reference/nginx.txt, "weights").
    assert_eq!(
        servers,
        ["127.0.0.1:18183", "127.0.0.1:18181", "127.0.0.1:18182"]
    );
    let (code, _, err) = run(&["locate", "--config", "/nonexistent/nginx.conf", "k"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--config '/nonexistent/nginx.conf'"), "{err}");
}

/// `--keys @FILE` and `--keys -`: the user's own keys, one per line, place and move exactly
/// as the same keys written as a template (the names are the same), for a ring and for an
/// algorithm that scores every key's name; the migration list names the file's keys.
#[test]
fn a_key_file_and_standard_input_place_keys_as_the_same_names_given_inline() {
    use std::io::Write as _;
    let dir = std::env::temp_dir().join(format!("hashring-lab-cli-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("keys.txt");
    // CRLF line ends and blank lines are the file's business, not the keys'.
    let text: String = (0..20_000)
        .map(|i| format!("user-{i}\r\n{}", if i % 997 == 0 { "\n" } else { "" }))
        .collect();
    std::fs::write(&file, &text).unwrap();
    let at_file = format!("@{}", file.display());
    for algo in ["ring", "carp", "nginx"] {
        let common = [
            "simulate", "--algo", algo, "--nodes", "A,B,C", "--step", "add:D", "--format", "json",
        ];
        let (code, from_file, err) = run(&[&common[..], &["--keys", &at_file]].concat());
        assert_eq!(code, 0, "{err}");
        let (_, inline, _) = run(&[&common[..], &["--keys", "user-{i}:0..20000"]].concat());
        let counts = |json: &str| {
            let v: serde_json::Value = serde_json::from_str(json).unwrap();
            v["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| (s["counts"].clone(), s["moved"].clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(counts(&from_file), counts(&inline), "{algo}");
    }
    // Standard input, and the migration list with the file's own key names.
    let moved = dir.join("moved.csv");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hashring-lab"))
        .args([
            "simulate", "--nodes", "A,B,C", "--keys", "-", "--step", "add:D", "--moved",
        ])
        .arg(&moved)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list = std::fs::read_to_string(&moved).unwrap();
    let rows: Vec<&str> = list.lines().skip(1).collect();
    assert!(rows.len() > 1000, "{} moved", rows.len());
    assert!(
        rows.iter()
            .all(|r| r.contains(",user-") && r.ends_with(",D,false")),
        "{}",
        rows[0]
    );
    let (_, inline, _) = run(&[
        "simulate",
        "--nodes",
        "A,B,C",
        "--keys",
        "user-{i}:0..20000",
        "--step",
        "add:D",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&inline).unwrap();
    assert_eq!(rows.len() as u64, v["steps"][1]["moved"].as_u64().unwrap());
    // What is wrong is said with the line, and nothing runs.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, format!("fine\n{}\n", "k".repeat(300))).unwrap();
    let (code, out, err) = run(&["simulate", "--keys", &format!("@{}", bad.display())]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("line 2: the line is longer than 202 bytes")
            && err.contains("a key is at most 200"),
        "{err}"
    );
    assert!(err.len() < 400, "{err}");
    let (code, _, err) = run(&["simulate", "--keys", "@/nonexistent/keys.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot open"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An Envoy cluster (`--config`, YAML or JSON) is read as Envoy names and weighs its hosts:
/// the same answers as the hosts given by hand, Maglev's `table_size` included; what the lab
/// does not model is refused with the reason.
#[test]
fn an_envoy_cluster_is_the_scenario_its_hosts_describe() {
    let dir = std::env::temp_dir().join(format!("hashring-lab-cli-envoy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ring = dir.join("envoy.yaml");
    std::fs::write(
        &ring,
        "clusters:\n- name: cache\n  lb_policy: RING_HASH\n  load_assignment:\n    endpoints:\n    - lb_endpoints:\n      - endpoint: { address: { socket_address: { address: 127.0.0.1, port_value: 90 } } }\n      - endpoint: { address: { socket_address: { address: 127.0.0.1, port_value: 91 } } }\n        load_balancing_weight: 3\n      - endpoint: { address: { socket_address: { address: 127.0.0.1, port_value: 92 } } }\n        metadata: { filter_metadata: { envoy.lb: { hash_key: blue } } }\n",
    )
    .unwrap();
    let maglev = dir.join("envoy.json");
    std::fs::write(
        &maglev,
        r#"{"name": "m", "lb_policy": "MAGLEV", "maglev_lb_config": {"table_size": 7},
           "load_assignment": {"endpoints": [{"lb_endpoints": [
             {"endpoint": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": 90}}}},
             {"endpoint": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": 91}}}}]}]}}"#,
    )
    .unwrap();
    let keys: Vec<String> = (0..200).map(|i| format!("req-{i}")).collect();
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    for (config, by_hand) in [
        (
            ring.display().to_string(),
            vec![
                "--algo",
                "envoy-ring",
                "--nodes",
                "127.0.0.1:90,127.0.0.1:91*3,blue",
            ],
        ),
        (
            maglev.display().to_string(),
            vec![
                "--algo",
                "envoy-maglev",
                "--nodes",
                "127.0.0.1:90,127.0.0.1:91",
                "--table",
                "7",
            ],
        ),
    ] {
        let (code, imported, err) = run(&[
            &["locate", "--config", &config, "--format", "json"][..],
            &keys,
        ]
        .concat());
        assert_eq!(code, 0, "{err}");
        let (_, given, _) = run(&[&["locate", "--format", "json"][..], &by_hand, &keys].concat());
        assert_eq!(imported, given, "{config}");
    }
    // The config sets Maglev's table: a --table beside it is refused, not silently ignored.
    let maglev_path = maglev.display().to_string();
    let (code, _, err) = run(&["locate", "--config", &maglev_path, "--table", "7", "k"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--table and the config's table_size both set"),
        "{err}"
    );
    std::fs::write(
        &ring,
        std::fs::read_to_string(&ring)
            .unwrap()
            .replace("RING_HASH", "RANDOM"),
    )
    .unwrap();
    let (code, _, err) = run(&["locate", "--config", &ring.display().to_string(), "k"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no cluster has lb_policy RING_HASH or MAGLEV"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A recorded real cluster (`tests/reference/FILE`): its config text — the lines prefixed
/// `PREFIX ` — written to a file of a fresh directory, and its key rows.
struct Recorded {
    dir: std::path::PathBuf,
    config: String,
    rows: Vec<String>,
}

impl Recorded {
    fn open(file: &str, prefix: &str) -> Recorded {
        let vectors = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/reference")
                .join(file),
        )
        .unwrap();
        let dir = std::env::temp_dir().join(format!(
            "hashring-lab-cli-{file}-{prefix}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config.txt");
        let text: String = vectors
            .lines()
            .filter_map(|l| l.strip_prefix(prefix).and_then(|l| l.strip_prefix(' ')))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&path, text).unwrap();
        // Every config section of these files: `node`, `shards`, `shards-raw`, `ring`.
        let rows = vectors
            .lines()
            .filter(|l| {
                !["#", "node ", "shards", "ring "]
                    .iter()
                    .any(|p| l.starts_with(p))
            })
            .map(str::to_owned)
            .collect();
        Recorded {
            dir,
            config: path.display().to_string(),
            rows,
        }
    }
}

impl Drop for Recorded {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `CLUSTER NODES` output as `--config`: a real cluster's own slot table answers where the
/// cluster routed each key (tests/reference/redis-cluster.txt), a change rebalances from it,
/// compare (which builds every algorithm's own placement) says it cannot use it, and the
/// same cluster's `CLUSTER SHARDS` routes as its `CLUSTER NODES`.
#[test]
fn a_real_redis_cluster_routes_keys_by_its_own_slot_table() {
    let cluster = Recorded::open("redis-cluster.txt", "node");
    let config = cluster.config.as_str();
    let recorded: Vec<(&str, &str)> = cluster
        .rows
        .iter()
        .filter_map(|l| l.split_once(' '))
        .take(300)
        .collect();
    let keys: Vec<&str> = recorded.iter().map(|r| r.0).collect();
    // `locate` with a cluster's output as --config routes every key as the cluster did; what
    // it said on stderr is returned.
    let locates_as_recorded = |config: &str| {
        let (code, out, err) = run(&[
            &["locate", "--config", config, "--format", "json"][..],
            &keys,
        ]
        .concat());
        assert_eq!(code, 0, "{err}");
        let reports: serde_json::Value = serde_json::from_str(&out).unwrap();
        for (r, (key, want)) in reports.as_array().unwrap().iter().zip(&recorded) {
            assert_eq!(r["server"], *want, "{key}");
        }
        err
    };
    let err = locates_as_recorded(config);
    assert!(err.contains("slot 100 migrating"), "{err}");
    let (code, out, err) = run(&[
        "simulate",
        "--config",
        config,
        "--keys",
        "key-{i}:0..20000",
        "--step",
        "add:127.0.0.1:18384",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let moved = report["steps"][1]["moved"].as_u64().unwrap();
    assert!(
        (4_000..6_000).contains(&moved),
        "a fourth master takes about a quarter: {moved}"
    );
    assert_eq!(report["steps"][1]["moved_between_survivors"], 0);
    // compare runs the cluster's own table in the slots row, the others on its masters.
    let (code, out, err) = run(&[
        "compare",
        "--config",
        config,
        "--keys",
        "key-{i}:0..20000",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let slots = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["algo"] == "slots")
        .unwrap();
    assert_eq!(slots["moved"], report["steps"][1]["moved"], "{slots}");
    // The same cluster's CLUSTER SHARDS, as redis-cli writes it to a file.
    let shards = Recorded::open("redis-cluster.txt", "shards-raw");
    let err = locates_as_recorded(shards.config.as_str());
    assert!(err.contains("1 replica(s)"), "{err}");
}

/// `nodetool ring` output as `--config`: a Cassandra cluster's own tokens answer where the
/// driver routes each key (tests/reference/cassandra-ring.txt), the joining node is down
/// until `recover:` (then it takes exactly the keys the driver gives it — the migration list
/// names each), a node added takes keys from the others only, and sweep says it cannot use
/// the cluster's tokens.
#[test]
fn a_real_cassandra_ring_routes_keys_by_its_own_tokens() {
    let cluster = Recorded::open("cassandra-ring.txt", "ring");
    let config = cluster.config.as_str();
    let recorded: Vec<Vec<&str>> = cluster
        .rows
        .iter()
        .map(|l| l.split(' ').collect())
        .collect();
    let keys: Vec<&str> = recorded.iter().map(|r| r[0]).take(300).collect();
    let (code, out, err) = run(&[
        &["locate", "--config", config, "--format", "json"][..],
        &keys,
    ]
    .concat());
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("10.0.1.4 until it has joined"), "{err}");
    let reports: serde_json::Value = serde_json::from_str(&out).unwrap();
    for (r, row) in reports.as_array().unwrap().iter().zip(&recorded) {
        assert_eq!(r["server"], row[1], "{}", row[0]);
    }
    let key_file = cluster.dir.join("keys.txt");
    let all: Vec<&str> = recorded.iter().map(|r| r[0]).collect();
    std::fs::write(&key_file, all.join("\n")).unwrap();
    let keys_arg = format!("@{}", key_file.display());
    let moved_file = cluster.dir.join("moved.csv");
    let (code, out, err) = run(&[
        "simulate",
        "--config",
        config,
        "--keys",
        &keys_arg,
        "--step",
        "recover:10.0.1.4",
        "--step",
        "add:10.0.3.1",
        "--moved",
        &moved_file.display().to_string(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["steps"][1]["moved"], 360);
    assert_eq!(report["steps"][1]["moved_between_survivors"], 0);
    let moved = std::fs::read_to_string(&moved_file).unwrap();
    for row in recorded.iter().filter(|r| r[1] != r[2]) {
        assert!(
            moved.contains(&format!("1,{},{},{},", row[0], row[1], row[2])),
            "{row:?}"
        );
    }
    assert_eq!(report["steps"][2]["moved_between_survivors"], 0);
    let (code, _, err) = run(&["sweep", "--config", config, "--vnodes", "1,2"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("sweep draws every node's tokens anew"),
        "{err}"
    );
    // compare runs the cluster's own tokens in its cassandra row (the other rows on the
    // same nodes): the join moves what the driver's token map says it moves.
    let (code, out, err) = run(&[
        "compare",
        "--config",
        config,
        "--keys",
        &keys_arg,
        "--algos",
        "cassandra,ring",
        "--change",
        "add",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[0]["algo"], "cassandra", "{out}");
    let (code, out, err) = run(&[
        "simulate", "--config", config, "--keys", &keys_arg, "--step", "add:A", "--format", "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[0]["moved"], report["steps"][1]["moved"], "{out}");
    assert_eq!(rows[0]["keys"], 2004);
}

/// `--moved` never writes over a file the run reads (the same path, a symbolic or a hard
/// link to it): the keys would be truncated before they were read. A run that fails leaves
/// an existing migration list as it was, and no partial file beside it.
#[test]
fn the_migration_list_never_overwrites_an_input_and_is_never_half_written() {
    let dir = std::env::temp_dir().join(format!("hashring-lab-cli-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let keys = dir.join("keys.txt");
    let text: String = (0..2000).map(|i| format!("user-{i}\n")).collect();
    std::fs::write(&keys, &text).unwrap();
    let symlink = dir.join("symlink.txt");
    std::os::unix::fs::symlink(&keys, &symlink).unwrap();
    let hardlink = dir.join("hardlink.txt");
    std::fs::hard_link(&keys, &hardlink).unwrap();
    let at_keys = format!("@{}", keys.display());
    // Adds D to A, B, C over the key file (and `more` steps), writing the list to `output`.
    let add_d = |more: &[&str], output: &std::path::Path| {
        let mut args = vec![
            "simulate", "--nodes", "A,B,C", "--keys", &at_keys, "--step", "add:D",
        ];
        args.extend_from_slice(more);
        args.extend(["--moved", output.to_str().unwrap()]);
        run(&args)
    };
    for output in [&keys, &symlink, &hardlink] {
        let (code, out, err) = add_d(&[], output);
        assert_eq!((code, out.as_str()), (2, ""), "{err}");
        assert!(
            err.contains("--moved") && err.contains("is the file --keys reads"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(&keys).unwrap(),
            text,
            "the keys are intact"
        );
    }
    // A config is an input too.
    let config = dir.join("upstream.conf");
    let upstream =
        "upstream u {\n  hash $key consistent;\n  server 10.0.0.1:80;\n  server 10.0.0.2:80;\n}\n";
    std::fs::write(&config, upstream).unwrap();
    let (code, _, err) = run(&[
        "simulate",
        "--config",
        config.to_str().unwrap(),
        "--step",
        "add:10.0.0.3:80",
        "--moved",
        config.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is the file --config reads"), "{err}");
    assert_eq!(std::fs::read_to_string(&config).unwrap(), upstream);
    // A run that fails half-way keeps the old list and leaves nothing beside it.
    let moved = dir.join("moved.csv");
    std::fs::write(&moved, "the previous list\n").unwrap();
    let (code, _, err) = add_d(&["--step", "remove:nobody"], &moved);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        std::fs::read_to_string(&moved).unwrap(),
        "the previous list\n"
    );
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // A run that succeeds puts the whole list in place.
    let (code, _, err) = add_d(&[], &moved);
    assert_eq!(code, 0, "{err}");
    let list = std::fs::read_to_string(&moved).unwrap();
    assert!(
        list.starts_with("step,key,from,to,between_survivors\n"),
        "{list}"
    );
    assert!(list.lines().count() > 100);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs the command line with `input` on standard input.
fn run_with_stdin(args: &[&str], input: &[u8]) -> (i32, String, String) {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hashring-lab"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The run may refuse the input before reading it all: a closed pipe is its answer.
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Inputs built to exhaust memory are refused at once, with a message, before they are held:
/// a YAML alias bomb, a key "file" with no line breaks (and the same on standard input, not
/// copied first), and thousands of steps.
#[test]
fn inputs_that_would_exhaust_memory_are_refused_before_they_are_held() {
    // Billion laughs in one kilobyte: ten levels of ten aliases each.
    let mut bomb = String::from("a0: &a0 [\"lol\"]\n");
    for level in 1..10 {
        let refs = vec![format!("*a{}", level - 1); 10].join(",");
        bomb.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
    }
    bomb.push_str("clusters:\n- name: c\n  lb_policy: RING_HASH\n  load_assignment:\n    endpoints:\n    - lb_endpoints: *a9\n");
    let (code, out, err) = run_with_stdin(&["simulate", "--config", "-"], bomb.as_bytes());
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("aliases") && err.contains("would expand it to more than"),
        "{err}"
    );
    assert!(err.len() < 300, "{err}");
    // No line breaks: refused at line 1 (a file, then 50 MB of zeros on standard input).
    let (code, _, err) = run(&["simulate", "--keys", "@/dev/zero"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("line 1: the line is longer than 202 bytes"),
        "{err}"
    );
    let zeros = vec![0u8; 50 << 20];
    let (code, _, err) = run_with_stdin(&["simulate", "--keys", "-"], &zeros);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--keys '-', line 1: the line is longer"),
        "{err}"
    );
    let kept: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("hashring-lab-keys-")
        })
        .filter(|e| e.metadata().is_ok_and(|m| m.len() > 1 << 20))
        .collect();
    assert!(kept.is_empty(), "no copy of the zeros is kept: {kept:?}");
    // Steps: 101 are refused before the first runs.
    let steps: Vec<String> = (0..101).map(|i| format!("--step=add:N{i}")).collect();
    let mut args = vec!["simulate", "--nodes", "A,B"];
    args.extend(steps.iter().map(String::as_str));
    let (code, _, err) = run(&args);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("given 101 times; a run takes at most 100 steps"),
        "{err}"
    );
}

/// The objects `osdmaptool` placed in cluster state `state` of tests/reference/ceph.txt
/// (the state tests/reference/ceph-crushmap.txt is of, and changes of it): the first 200,
/// (object, primary OSD).
fn osdmaptool_answers(state: &str) -> Vec<(String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let vectors = std::fs::read_to_string(format!("{root}/tests/reference/ceph.txt")).unwrap();
    vectors
        .split("scenario ")
        .find(|s| s.starts_with(&format!("{state} ")))
        .unwrap()
        .lines()
        .skip(1)
        .take(200)
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            (w[0].to_owned(), w[2].to_owned())
        })
        .collect()
}

/// A Ceph cluster's decompiled CRUSH map as `--config`, with `--pg-num`: `locate` puts the
/// objects recorded from `osdmaptool` (tests/reference/ceph.txt, the state that map is of)
/// on the OSD Ceph chose, and marking an OSD out is a step.
#[test]
fn a_crush_map_places_objects_as_osdmaptool_did() {
    let root = env!("CARGO_MANIFEST_DIR");
    let map = format!("{root}/tests/reference/ceph-crushmap.txt");
    let reweighted = osdmaptool_answers("osd.3-reweighted");
    let mut args = vec!["locate", "--config", &map, "--pg-num", "12"];
    args.extend(reweighted.iter().map(|(k, _)| k.as_str()));
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    for ((key, osd), line) in reweighted
        .iter()
        .zip(out.lines().filter(|l| !l.starts_with(' ')))
    {
        assert_eq!(
            line.split('\t').take(2).collect::<Vec<_>>(),
            [key, osd],
            "{line}"
        );
    }
    // Without --pg-num, a pool has Ceph's default 32 groups — by --algo ceph or by a map.
    for args in [
        &["locate", "--config", &map, "k"][..],
        &["locate", "--algo", "ceph", "k"],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("ceph_stable_mod(·, 32)"), "{out}");
    }
    // osd.1 out: the recorded answers of that state, from the same map and a step.
    let out_state = osdmaptool_answers("osd.1-out");
    let keys: Vec<&str> = out_state.iter().map(|(k, _)| k.as_str()).collect();
    let csv = format!("{}/ceph-moved.csv", env!("CARGO_TARGET_TMPDIR"));
    let list = format!("list:{}", keys.join(","));
    let (code, _, err) = run(&[
        "simulate",
        "--config",
        &map,
        "--pg-num",
        "12",
        "--keys",
        &list,
        "--step",
        "fail:osd.1",
        "--moved",
        &csv,
    ]);
    assert_eq!(code, 0, "{err}");
    let moved = std::fs::read_to_string(&csv).unwrap();
    for (key, osd) in &out_state {
        let was = reweighted
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, o)| o.as_str());
        let row = moved
            .lines()
            .find(|l| l.split(',').nth(1) == Some(key.as_str()));
        match row {
            Some(row) => assert_eq!(row.split(',').nth(3), Some(osd.as_str()), "{row}"),
            None => assert_eq!(was, Some(osd.as_str()), "{key} stayed"),
        }
    }
}

/// `--down` after `--config`: a CRUSH map cannot say an OSD is out (that is the OSD map's),
/// so `--down` says it, applied after the map, and the answers are `osdmaptool`'s.
#[test]
fn down_after_a_crush_map_is_osdmaptools_out() {
    let root = env!("CARGO_MANIFEST_DIR");
    let map = format!("{root}/tests/reference/ceph-crushmap.txt");
    // osd.1 out: the recorded answers of that state, from the same map and `--down`, which
    // says after the map what a CRUSH map cannot (an OSD out is the OSD map's) …
    let out_state = osdmaptool_answers("osd.1-out");
    let mut args = vec![
        "locate", "--config", &map, "--pg-num", "12", "--down", "osd.1",
    ];
    args.extend(out_state.iter().map(|(k, _)| k.as_str()));
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let placed: Vec<Vec<&str>> = out
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(|l| l.split('\t').take(2).collect())
        .collect();
    let expected: Vec<Vec<&str>> = out_state
        .iter()
        .map(|(k, o)| vec![k.as_str(), o.as_str()])
        .collect();
    assert_eq!(placed, expected);
    // … a name the map does not have is refused, and every OSD out answers "none", not a
    // set of made-up ids.
    let (code, _, err) = run(&["locate", "--config", &map, "--down", "osd.9", "k"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--down (after --config): down: 'osd.9' is not one of the servers"),
        "{err}"
    );
    let all = "osd.0,osd.1,osd.2,osd.3,osd.4,osd.5";
    let (code, out, err) = run(&["locate", "--config", &map, "--down", all, "k"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("k\t(none)\trjenkins of \"k\" = 0x") && out.contains("no server is up"),
        "{out}"
    );
    assert!(!out.contains('#'), "{out}");
}

/// Issue 53, the command line's part: Ceph's `pg_num` is Ceph's own in `compare` (with
/// Ceph's default, beside Maglev's table), a FIFO given as `--keys @FIFO` is read once, and
/// a lookup in a pool of a million groups over a thousand OSDs answers with Ceph's
/// placement group (the engine's on-demand test checks it places one group, not all).
#[test]
fn compare_and_key_files_are_never_fooled() {
    let root = env!("CARGO_MANIFEST_DIR");
    let map = format!("{root}/tests/reference/ceph-crushmap.txt");
    // A CRUSH map's pool at pg_num 128: the Maglev rows keep their own prime table.
    let (code, out, err) = run(&["compare", "--config", &map, "--pg-num", "128"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().any(|l| l.starts_with("ceph ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("maglev ")), "{out}");
    for args in [
        vec!["compare", "--algo", "ceph"],
        vec!["compare", "--algo", "maglev", "--algos", "maglev,ceph"],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    // `--algos ceph` runs Ceph at Ceph's default 32, as `simulate` does: the same moves.
    let (_, json, err) = run(&["compare", "--algos", "ceph", "--format", "json"]);
    let compared: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|_| panic!("{err}"));
    let (_, json, _) = run(&[
        "simulate", "--algo", "ceph", "--step", "add:E", "--format", "json",
    ]);
    let simulated: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        compared[0]["moved"], simulated["steps"][1]["moved"],
        "{compared} {simulated}"
    );
    assert_eq!(compared[0]["moved"], 217);
    // Maglev's own table error names Maglev, and pg_num's names Ceph.
    let (_, _, err) = run(&["simulate", "--algo", "maglev", "--table", "0"]);
    assert!(
        err.contains("Maglev's table size '0'") && !err.contains("pg_num"),
        "{err}"
    );
    let (_, _, err) = run(&["simulate", "--algo", "ceph", "--pg-num", "0"]);
    assert!(
        err.contains("pg_num '0'") && !err.contains("Maglev"),
        "{err}"
    );

    // A FIFO: opened once, its keys read as `--keys -` reads standard input.
    let dir = std::env::temp_dir().join(format!("hashring-lab-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("keys");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, "a\nb\n").unwrap())
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_hashring-lab"))
        .args([
            "simulate", "--nodes", "A,B", "--step", "add:C", "--format", "csv",
        ])
        .arg(format!("--keys=@{}", fifo.display()))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A guard, not a measurement: a run that hangs (the FIFO opened a second time waits for
    // a writer that never comes) is ended and fails here instead of holding the suite.
    let mut waited = 0;
    while child.try_wait().unwrap().is_none() {
        assert!(waited < 600, "simulate --keys @FIFO never returned");
        std::thread::sleep(std::time::Duration::from_millis(100));
        waited += 1;
    }
    writer.join().unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("0,start,B,2,1.000000"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();

    // One key in a pool of 1,000,003 groups over 1,001 OSDs: its group is Ceph's.
    let (code, out, err) = run(&[
        "locate",
        "--algo",
        "ceph",
        "--nodes",
        "osd.{i}:0..1001",
        "--pg-num",
        "1000003",
        "k1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("ceph_stable_mod(·, 1000003) = placement group 1.ad61f"),
        "{out}"
    );
}

/// The words of a shell command line as `sh` splits them: blanks apart, `'…'` and `"…"`
/// quoting (the README's commands use no escapes or expansions inside quotes).
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quote, mut started) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => (quote, started) = (Some(c), true),
            (None, c) if c.is_whitespace() => {
                if started || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (None, c) => word.push(c),
        }
    }
    if started || !word.is_empty() {
        words.push(word);
    }
    words
}

/// Every command the README shows runs as printed, from the repository's root: each
/// `cargo run --release -- …` line of its `sh` blocks (continued lines joined) runs the
/// command line with those words and succeeds, writing what it says it writes. The README's
/// other commands are run elsewhere: `make test` is what CI runs (`.ci/run`), `make serve`
/// serves the page `make test` builds, and the Python example is run by
/// bindings/python/tests/test_readme.py.
#[test]
fn the_readmes_commands_run_as_printed() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    // A README that reads in five minutes; the reference is in docs/.
    assert!(
        readme.lines().count() <= 250,
        "README.md: {} lines",
        readme.lines().count()
    );
    let mut commands = Vec::new();
    let mut others = Vec::new();
    for block in readme.split("```sh\n").skip(1) {
        let block = block.split("```").next().unwrap().replace("\\\n", " ");
        for line in block.lines().filter(|l| !l.trim().is_empty()) {
            match line.strip_prefix("cargo run --release -- ") {
                Some(args) => commands.push(shell_words(args)),
                None => others.push(line.split('#').next().unwrap().trim().to_owned()),
            }
        }
    }
    assert_eq!(others, ["make serve", "make test"], "commands no test runs");
    assert!(commands.len() >= 4, "{commands:?}");
    // From a scratch folder that sees the repository's tests/ (the configs the README
    // reads), so what the commands write lands there.
    let cwd = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readme-commands");
    let _ = std::fs::remove_dir_all(&cwd);
    std::fs::create_dir_all(&cwd).unwrap();
    std::os::unix::fs::symlink(format!("{root}/tests"), cwd.join("tests")).unwrap();
    for args in &commands {
        let out = Command::new(env!("CARGO_BIN_EXE_hashring-lab"))
            .args(args)
            .current_dir(&cwd)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {err}");
        assert!(!out.stdout.is_empty(), "{args:?} printed nothing");
        if let Some(at) = args.iter().position(|a| a == "--moved") {
            let moved = std::fs::read_to_string(cwd.join(&args[at + 1])).unwrap();
            assert!(
                moved.starts_with("step,key,from,to,between_survivors\n"),
                "{args:?}"
            );
            assert!(
                moved.lines().count() > 100,
                "{args:?}: {} rows",
                moved.lines().count()
            );
        }
    }
}

/// Every relative link of the README and of docs/ leads to a file that is there.
#[test]
fn the_documentations_links_resolve() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for link in text.split("](").skip(1) {
            let target = link.split(')').next().unwrap().split('#').next().unwrap();
            if target.is_empty() || target.contains("://") {
                continue;
            }
            if !page.parent().unwrap().join(target).exists() {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(pages.len() >= 9, "{pages:?}");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// One state of tests/reference/ceph-hierarchy.txt: its header's fields, and each object's
/// placement group (hex) and acting set as osdmaptool gave them.
fn hierarchy_state(state: &str) -> (String, Vec<(String, String, String)>) {
    let root = env!("CARGO_MANIFEST_DIR");
    let vectors =
        std::fs::read_to_string(format!("{root}/tests/reference/ceph-hierarchy.txt")).unwrap();
    let block = vectors
        .split("scenario ")
        .find(|s| s.starts_with(&format!("{state} ")))
        .unwrap();
    let mut lines = block.lines();
    let header = lines.next().unwrap().to_owned();
    let objects = lines
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            (w[0].to_owned(), w[1].to_owned(), w[3].to_owned())
        })
        .collect();
    (header, objects)
}

/// Issue 52: adding a host to a real cluster's CRUSH map, as `simulate --step add-host:…`,
/// remaps exactly the placement groups whose acting sets osdmaptool gives differently
/// before and after crushtool added the same host (every copy, not only primaries), and the
/// per-key list moves exactly the objects whose primary changed.
#[test]
fn adding_a_host_remaps_the_groups_osdmaptool_remaps() {
    a_step_remaps_the_groups_osdmaptool_remaps("host-added-by-step", None);
}

/// The same for a host taken out with its OSDs (`--step remove-host:node-b`, crushtool's
/// `--remove-item` of its OSDs and then of it).
#[test]
fn removing_a_host_remaps_the_groups_osdmaptool_remaps() {
    a_step_remaps_the_groups_osdmaptool_remaps("host-removed-by-step", None);
}

/// And for the pool's groups split, 64 → 128 (`--step pg_num:128`, osdmaptool's pool made
/// with one more pg bit): each group after is compared with the group its objects were in,
/// its parent.
#[test]
fn splitting_the_groups_remaps_what_osdmaptool_remaps() {
    a_step_remaps_the_groups_osdmaptool_remaps("pg_num-128", Some("pg_num:128"));
}

/// Runs the 3-hosts map (pool of 64) through `step` (else the state's own `step=`) and
/// checks `--moved-pgs` and `--moved` against osdmaptool's answers before and in `state`:
/// each object's group before and after is a piece of the change, and the pieces whose
/// acting sets differ are the groups remapped.
fn a_step_remaps_the_groups_osdmaptool_remaps(state: &str, step: Option<&str>) {
    let root = env!("CARGO_MANIFEST_DIR");
    let map = format!("{root}/tests/reference/crush/3-hosts.txt");
    let (_, before) = hierarchy_state("3-hosts");
    let (header, after) = hierarchy_state(state);
    let step = step.unwrap_or_else(|| {
        header
            .split(' ')
            .find_map(|w| w.strip_prefix("step="))
            .unwrap()
    });
    let dir = env!("CARGO_TARGET_TMPDIR");
    let keys = format!("{dir}/hierarchy-keys-{state}.txt");
    let names: Vec<&str> = before.iter().map(|(n, _, _)| n.as_str()).collect();
    std::fs::write(&keys, names.join("\n") + "\n").unwrap();
    let (pgs, moved) = (
        format!("{dir}/pgs-{state}.csv"),
        format!("{dir}/moved-{state}.csv"),
    );
    let (code, out, err) = run(&[
        "simulate",
        "--config",
        &map,
        "--pg-num",
        "64",
        "--keys",
        &format!("@{keys}"),
        "--step",
        step,
        "--moved-pgs",
        &pgs,
        "--moved",
        &moved,
    ]);
    assert_eq!(code, 0, "{err}");
    // Each piece (group before → group after) with its acting sets, as osdmaptool says
    // (every group is hit by some of the 2,000 objects).
    let pieces: std::collections::BTreeSet<(String, String, String)> = before
        .iter()
        .zip(&after)
        .map(|(b, a)| (a.1.clone(), b.2.clone(), a.2.clone()))
        .collect();
    let groups: std::collections::BTreeSet<&String> = after.iter().map(|a| &a.1).collect();
    let want: Vec<(String, String, String)> = pieces
        .into_iter()
        .filter(|(_, old, new)| old != new)
        .collect();
    let csv = std::fs::read_to_string(&pgs).unwrap();
    let mut got: Vec<(String, String, String)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let w: Vec<&str> = l.split(',').collect();
            let pg = w[1].strip_prefix("1.").unwrap().to_owned();
            (pg, w[2].replace('+', ","), w[3].replace('+', ","))
        })
        .collect();
    got.sort();
    assert_eq!(got, want);
    assert!(
        out.contains(&format!(
            "placement groups remapped {} of {}",
            want.len(),
            groups.len()
        )),
        "{out}"
    );
    // The per-key list: the objects whose primary changed, primary before → after.
    let primaries: Vec<String> = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b.2.split(',').next() != a.2.split(',').next())
        .map(|(b, a)| {
            format!(
                "1,{},{},{}",
                b.0,
                b.2.split(',').next().unwrap(),
                a.2.split(',').next().unwrap()
            )
        })
        .collect();
    let listed: Vec<String> = std::fs::read_to_string(&moved)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.rsplit_once(',').unwrap().0.to_owned())
        .collect();
    assert_eq!(listed, primaries);
}

/// `--rule` places the pool by one of a CRUSH map's rules, by name or id: the hdd rule
/// never chooses an ssd OSD (osd.2, osd.5, osd.9 are the map's ssds), the default rule
/// does; a rule the map has not, and `--rule` without a map, are refused saying why.
#[test]
fn a_pools_rule_is_chosen_by_name_or_id() {
    let root = env!("CARGO_MANIFEST_DIR");
    let map = format!("{root}/tests/reference/crush/3-hosts.txt");
    let keys: Vec<String> = (0..300).map(|i| format!("obj-{i}")).collect();
    let locate = |rule: Option<&str>| {
        let mut args = vec!["locate", "--config", &map, "--pg-num", "64"];
        if let Some(rule) = rule {
            args.extend(["--rule", rule]);
        }
        args.extend(keys.iter().map(String::as_str));
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let (by_name, by_id, default) = (locate(Some("hdd_rule")), locate(Some("1")), locate(None));
    assert_eq!(by_name, by_id);
    let ssd = |out: &str| {
        ["osd.2 ", "osd.5 ", "osd.9 "]
            .iter()
            .any(|o| out.contains(o))
    };
    assert!(!ssd(&by_name), "{by_name}");
    assert!(ssd(&default));
    let (code, _, err) = run(&["locate", "--config", &map, "--rule", "fast", "obj-1"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the map has no rule 'fast'; its rules are replicated_rule, hdd_rule"),
        "{err}"
    );
    let (code, _, err) = run(&["locate", "--nodes", "A", "--rule", "1", "obj-1"]);
    assert_eq!(code, 2);
    assert!(err.contains("give the map with --config"), "{err}");
}
