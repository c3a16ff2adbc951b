//! The `hashring-lab` command line, run as a user runs it: every subcommand, and every
//! error path answers with one line and exit code 2, never a panic.

use std::process::Command;

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
fn bad_input_is_one_line_and_exit_2() {
    for (args, needle) in [
        (vec![], "no command given"),
        (vec!["frobnicate"], "unknown command 'frobnicate'"),
        (
            vec!["simulate", "--algo", "maglev"],
            "unknown algorithm 'maglev'; choose one of ring, modn, rendezvous, carp, slots",
        ),
        (vec!["simulate", "--hash", "sha1"], "unknown hash 'sha1'"),
        (
            vec!["simulate", "--nodes", ""],
            "server names must not be empty",
        ),
        (vec!["simulate", "--nodes", "A,A"], "appears twice"),
        (vec!["simulate", "--vnodes", "0"], "from 1 to 1000"),
        (vec!["simulate", "--vnodes", "5000"], "from 1 to 1000"),
        (vec!["simulate", "--keys", "10..5"], "is empty"),
        (vec!["simulate", "--keys", "nonsense"], "expected A..B"),
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
        (vec!["simulate", "--format", "xml"], "unknown format 'xml'"),
        (vec!["simulate", "--colour", "red"], "unknown flag --colour"),
        (vec!["simulate", "--nodes"], "flag --nodes needs a value"),
        (vec!["sweep"], "sweep needs --vnodes"),
        (vec!["hash", "--hash", "md5"], "at least one KEY"),
        (vec!["hash", "key"], "hash needs --hash NAME"),
        (vec!["bench", "--runs", "0"], "from 1 to 100"),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed to stdout: {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.starts_with("hashring-lab: "), "{args:?}: {err}");
    }
}
