//! Cassandra's `Murmur3Partitioner` (`org.apache.cassandra.dht.Murmur3Partitioner`,
//! `org.apache.cassandra.utils.MurmurHash.hash3_x64_128`): a partition key's token is the
//! first 64 bits of MurmurHash3_x64_128 (seed 0) read as a signed number — with Java's
//! **sign extension of the tail bytes** (`(long) key.get(i)`), so keys with bytes ≥ 0x80 get
//! another token than the standard Murmur3 gives. The node owning a token is the one with
//! the first token at or above it, wrapping (ranges `(previous, token]`).
//!
//! Tokens: each node has `vnodes` tokens (`num_tokens`; Cassandra 4 defaults to 16). Real
//! clusters choose them by their allocator or by hand, and `nodetool ring` shows them: the
//! page and the command line read that output (`engine::cassandra_ring`) into the scenario's
//! `tokens` and use the cluster's own ([`Build::tokens`]). Otherwise — and for a node added
//! later — each token is drawn
//! from the node's name and the scenario's seed, so a node keeps its tokens when others come
//! and go. Which node owns a key follows from the tokens exactly; drawn tokens are a model,
//! as the page says.
//!
//! `tests/reference/cassandra.txt` holds the tokens PyPI's cassandra-driver computes
//! (`cassandra.murmur3`, the partitioner's hash) for 1,298 keys, high bytes and every tail
//! length among them, written by `tools/cassandra-vectors.py`; a test replays them.

use std::rc::Rc;

use super::envoy_ring::Ring64;
use crate::engine::contract::Placement;
use crate::engine::spec::{no_check, Build, KeyHash, Knobs, Memory, Moves, Spec};
use crate::problem::Problem;

/// The registry's entry. Source: Cassandra Murmur3Partitioner: Murmur3 tokens (MurmurHash3 x64 128, Java sign extension), vnodes per node.
pub static SPEC: Spec = Spec {
    memory: Memory::Tokens,
    ..super::ring::ring_spec(
        "cassandra",
        Knobs {
            vnodes: true,
            ..Knobs::NONE
        },
        Moves::Minimal,
        KeyHash {
            name: "murmur3 token (top 32 bits)",
            hash: |key, _| (ring_value(token(key.as_bytes())) >> 32) as u32,
        },
        no_check,
        build,
    )
};

/// The Murmur3Partitioner token of `key`: MurmurHash3_x64_128's `h1`, Java's way, with
/// the partitioner's `normalize` (`Long.MIN_VALUE`, the ring's minimum token that no key may
/// have, becomes `Long.MAX_VALUE`).
pub fn token(key: &[u8]) -> i64 {
    normalize(murmur3_h1(key))
}

/// `Murmur3Partitioner.normalize`: `Long.MIN_VALUE` is the ring's minimum, never a token.
fn normalize(hash: i64) -> i64 {
    if hash == i64::MIN {
        i64::MAX
    } else {
        hash
    }
}

/// MurmurHash3_x64_128's first 64 bits of `key` (seed 0), with Java's sign extension.
fn murmur3_h1(key: &[u8]) -> i64 {
    const C1: u64 = 0x87c3_7b91_1142_53d5;
    const C2: u64 = 0x4cf5_ad43_2745_937f;
    let (mut h1, mut h2) = (0u64, 0u64);
    let blocks = key.chunks_exact(16);
    let tail = blocks.remainder();
    for block in blocks {
        let word = |i: usize| {
            u64::from_le_bytes([
                block[i],
                block[i + 1],
                block[i + 2],
                block[i + 3],
                block[i + 4],
                block[i + 5],
                block[i + 6],
                block[i + 7],
            ])
        };
        let (k1, k2) = (word(0), word(8));
        h1 ^= k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);
        h2 ^= k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }
    // The tail: each byte sign-extended to 64 bits before it is shifted in, as Java's
    // `(long) key.get(offset + i)` does.
    let signed = |i: usize| i64::from(tail[i] as i8) as u64;
    let (mut k1, mut k2) = (0u64, 0u64);
    for i in (8..tail.len()).rev() {
        k2 ^= signed(i) << ((i - 8) * 8);
    }
    if tail.len() > 8 {
        h2 ^= k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
    }
    for i in (0..tail.len().min(8)).rev() {
        k1 ^= signed(i) << (i * 8);
    }
    if !tail.is_empty() {
        h1 ^= k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
    }
    let len = key.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1.wrapping_add(h2) as i64
}

fn fmix(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

/// A signed token as an unsigned ring value with the same order (−2⁶³ at 0).
pub fn ring_value(token: i64) -> u64 {
    (token as u64) ^ (1 << 63)
}

/// Token `i` of node `name` under `seed`: a model of the allocator (see the module doc).
pub fn node_token(name: &str, seed: u64, i: u32) -> u64 {
    let named = xxhash_rust::xxh3::xxh3_64(name.as_bytes());
    crate::engine::keys::splitmix64(named ^ seed.rotate_left(17) ^ u64::from(i))
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    let mut entries = Vec::new();
    for s in &b.live {
        match b.tokens.and_then(|t| t.of(s.slot as usize)) {
            Some(given) => entries.extend(
                given
                    .iter()
                    .enumerate()
                    .map(|(n, &t)| (ring_value(t), s.id, n as u32)),
            ),
            None => entries.extend(
                (0..b.params.vnodes).map(|i| (node_token(&s.name, b.params.seed, i), s.id, i)),
            ),
        }
    }
    Ok(Rc::new(Ring64::new(
        entries,
        |key| ring_value(token(key.as_bytes())),
        b,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every token PyPI's cassandra-driver computed (tools/cassandra-vectors.py).
    #[test]
    fn equals_the_cassandra_drivers_tokens() {
        let vectors = include_str!("../../../tests/reference/cassandra.txt");
        let mut checked = 0;
        for line in vectors.lines().filter(|l| !l.starts_with('#')) {
            let (hex, want) = line.split_once(' ').unwrap();
            let key: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            assert_eq!(token(&key), want.parse::<i64>().unwrap(), "{hex}");
            checked += 1;
        }
        assert!(checked > 1_200, "{checked}");
    }

    /// The partitioner's `normalize`: the one hash that would be the ring's minimum token.
    #[test]
    fn the_minimum_token_is_never_a_keys() {
        assert_eq!(normalize(i64::MIN), i64::MAX);
        assert_eq!(normalize(i64::MIN + 1), i64::MIN + 1);
        assert_eq!(normalize(-1), -1);
    }

    #[test]
    fn tokens_order_as_the_ring_does() {
        assert!(ring_value(i64::MIN) < ring_value(-1));
        assert!(ring_value(-1) < ring_value(0));
        assert!(ring_value(0) < ring_value(i64::MAX));
    }
}
