//! golang/groupcache's `consistenthash` (`consistenthash/consistenthash.go`: `Map.Add`,
//! `Map.Get`), bit for bit: each server puts `replicas` points (here the scenario's vnodes)
//! at `crc32.ChecksumIEEE(strconv.Itoa(i) + name)` — the index **before** the name; on equal
//! points the server added last wins (`hashMap[hash] = key` overwrites); a key goes to the
//! first point at or above `crc32(key)`, wrapping.
//!
//! Checked against groupcache's own `TestHashing` (its integer "hash", three replicas).

use std::rc::Rc;

use super::nginx::crc32;
use crate::engine::contract::Placement;
use crate::engine::ring::{Ring, VNode};
use crate::engine::spec::{no_check, Build, KeyHash, Knobs, Moves, Spec};
use crate::problem::Problem;

/// The registry's entry. Source: golang groupcache consistenthash: crc32 of the index then the name, replicas per server.
pub static SPEC: Spec = super::ring::ring_spec(
    "groupcache",
    Knobs {
        vnodes: true,
        ..Knobs::NONE
    },
    Moves::Minimal,
    KeyHash {
        name: "crc32",
        hash: |key, _| crc32(key),
    },
    no_check,
    build,
);

/// The points of `names` (in the order they are added) with `replicas` each under `hash`:
/// `(position, index into names)`, sorted, one per position — the last writer's.
pub fn points(names: &[&str], replicas: u32, hash: fn(&str) -> u32) -> Vec<(u32, usize)> {
    let mut digits = itoa::Buffer::new();
    let mut out: Vec<(u32, usize)> = names
        .iter()
        .enumerate()
        .flat_map(|(n, name)| {
            (0..replicas)
                .map(|i| (hash(&format!("{}{name}", digits.format(i))), n))
                .collect::<Vec<_>>()
        })
        .collect();
    // Stable by position, then the last of each run kept: `hashMap[hash] = key`.
    crate::engine::order::sort_by_key(&mut out, |p| u64::from(p.0));
    let mut kept: Vec<(u32, usize)> = Vec::with_capacity(out.len());
    for p in out {
        match kept.last_mut() {
            Some(last) if last.0 == p.0 => *last = p,
            _ => kept.push(p),
        }
    }
    kept
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    let names: Vec<&str> = b.live.iter().map(|s| s.name.as_str()).collect();
    let vnodes = points(&names, b.params.vnodes, crc32)
        .into_iter()
        .enumerate()
        .map(|(i, (position, n))| VNode {
            position,
            server: b.live[n].id,
            replica: i as u32,
        })
        .collect();
    Ok(Rc::new(Ring::new(vnodes, &|id| b.name_of(id))))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// groupcache's `TestHashing`: the "hash" reads the text as a number.
    #[test]
    fn equals_groupcaches_own_test() {
        let atoi = |s: &str| s.parse::<u32>().unwrap_or(0);
        let get = |names: &[&str], key: &str| {
            let ring = points(names, 3, atoi);
            let h = atoi(key);
            let at = ring.partition_point(|p| p.0 < h);
            names[ring[if at == ring.len() { 0 } else { at }].1].to_owned()
        };
        // Replicas at 2, 4, 6, 12, 14, 16, 22, 24, 26.
        let three = ["6", "4", "2"];
        for (key, want) in [("2", "2"), ("11", "2"), ("23", "4"), ("27", "2")] {
            assert_eq!(get(&three, key), want, "{key}");
        }
        // Adding 8 (8, 18, 28): 27 now maps to 8.
        assert_eq!(get(&["6", "4", "2", "8"], "27"), "8");
    }

    #[test]
    fn on_equal_points_the_server_added_last_wins() {
        let same = |_: &str| 7;
        assert_eq!(points(&["a", "b"], 2, same), [(7, 1)]);
    }
}
