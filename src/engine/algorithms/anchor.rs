//! AnchorHash: Gal Mendelson, Shay Vargaftik, Katherine Barabash, Dean H. Lorenz, Isaac Keslassy
//! and Ariel Orda, "AnchorHash: A Scalable Consistent Hash" (IEEE/ACM Transactions on
//! Networking, 2021; arXiv:1812.09674).
//!
//! The *anchor* is a fixed set of `a` buckets; `w` of them work. A key hashes uniformly onto
//! the anchor; when its bucket `b` was removed it rehashes onto the buckets that were still
//! working when `b` left (`A[b]` of them), following the *replaced-by* map `K` to translate
//! that view into today's — so a removal moves only the removed bucket's keys, to the others
//! in proportion, and any bucket can leave, not just the last. Removed buckets come back in
//! the reverse order of their removal (a stack), which undoes the removal exactly.
//!
//! [`Anchor`] transcribes the authors' memory-efficient C++ (`mem/AnchorHash.cpp` of
//! anchorhash/cpp-anchorhash: the arrays `A` and `K` and the removal stack), including its
//! hash: the SSE4.2 `crc32q` instruction, computed here portably by [`crc32c_u64`].
//! `tests/reference/anchor.txt` holds buckets printed by that C++ compiled here
//! (`tools/AnchorVectors.cpp`).
//!
//! Choices the paper leaves open: a key's `(key1, key2)` pair is its 64-bit digest (xxh3-64,
//! or its integer under the identity hash) and 0; the anchor size `a` is the bucket book's
//! capacity (see [`crate::engine::book`]).

use crate::engine::book::BucketChain;
use crate::engine::contract::{Placement, Structure};
use crate::engine::keys::DIGEST;
use crate::engine::spec::{no_check, Build, Knobs, Memory, Moves, Shape, Spec};
use std::rc::Rc;

/// The registry's entry. Source: Mendelson et al. 2020.
pub static SPEC: Spec = Spec {
    id: "anchor",
    knobs: Knobs::NONE,
    shape: Shape::Fans,
    memory: Memory::BucketBook,
    moves: Moves::Minimal,
    over_ring: None,
    table_fill: None,
    arcs: false,
    scores_every_server: false,
    key_value: Some(DIGEST),
    key_hash: None,
    cost: super::jump::key_cost,
    check: no_check,
    build,
};

/// The engine for every bucket the book has used, its removals replayed in order.
fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, crate::problem::Problem> {
    let book = b.book.ok_or(crate::problem::Problem::Internal(
        "this algorithm needs a bucket book",
    ))?;
    let mut engine = Anchor::new(book.capacity(), book.holders().len() as u32);
    for &r in book.removed() {
        engine.remove(r);
    }
    Ok(book.placement(engine, b.params.hash))
}

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of the 8 little-endian bytes of
/// `key`, starting from the low 32 bits of `seed`, with no inversion before or after: what
/// the x86 instruction `crc32q key, seed` leaves in `seed`.
pub fn crc32c_u64(key: u64, seed: u64) -> u32 {
    crate::engine::crc::crc32c_raw(seed as u32, &key.to_le_bytes())
}

/// The anchor's state: `A`, `K`, the working count and the removal stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// `A[b]`: 0 while `b` works; otherwise the number of working buckets right after `b`
    /// was removed.
    a: Vec<u32>,
    /// `K[b]`: the bucket that replaced `b` (itself while `b` works).
    k: Vec<u32>,
    /// How many buckets work.
    working: u32,
    /// Removed buckets, the last removed on top (the initial reserve included).
    removed: Vec<u32>,
}

impl Anchor {
    /// An anchor of `capacity` buckets, the first `working` of them working (the C++
    /// constructor: the others count as removed in descending order).
    pub fn new(capacity: u32, working: u32) -> Anchor {
        let mut a = vec![0; capacity as usize];
        let k: Vec<u32> = (0..capacity).collect();
        let mut removed = Vec::new();
        for i in (working..capacity).rev() {
            a[i as usize] = i;
            removed.push(i);
        }
        Anchor {
            a,
            k,
            working,
            removed,
        }
    }

    /// The anchor size `a`.
    pub fn capacity(&self) -> u32 {
        self.a.len() as u32
    }

    /// How many buckets work.
    pub fn working(&self) -> u32 {
        self.working
    }

    fn translate(&self, mut h: u32, view: u32) -> u32 {
        while self.a[h as usize] >= view {
            h = self.k[h as usize];
        }
        h
    }

    /// Removes working bucket `b` (`UpdateRemoval`). At least one bucket must stay.
    pub fn remove(&mut self, b: u32) {
        self.removed.push(b);
        let h = self.translate(self.working - 1, self.working);
        self.k[b as usize] = h;
        self.working -= 1;
        self.a[b as usize] = self.working;
    }

    /// Brings back the last removed bucket and returns it (`UpdateNewBucket`).
    pub fn restore(&mut self) -> Option<u32> {
        let b = self.removed.pop()?;
        self.working += 1;
        self.a[b as usize] = 0;
        self.k[b as usize] = b;
        Some(b)
    }

    /// The working bucket of a key (`ComputeBucket`), calling `visit` with the anchor
    /// bucket it hashes to and each bucket it rehashes to while the last was removed.
    /// Needs a working bucket.
    pub fn walk(&self, key1: u64, key2: u64, mut visit: impl FnMut(u32)) -> u32 {
        let m = self.capacity();
        let mut bs = crc32c_u64(key1, key2);
        let mut b = bs % m;
        visit(b);
        while self.a[b as usize] != 0 {
            bs = crc32c_u64(
                key1.wrapping_sub(u64::from(bs)),
                key2.wrapping_add(u64::from(bs)),
            );
            let h = bs % self.a[b as usize];
            b = self.translate(h, self.a[b as usize]);
            visit(b);
        }
        b
    }

    /// The working bucket of a key.
    pub fn bucket(&self, key1: u64, key2: u64) -> u32 {
        self.walk(key1, key2, |_| {})
    }

    /// Bytes of `A`, `K` and the stack.
    pub fn memory_bytes(&self) -> usize {
        (self.a.len() * 2 + self.removed.capacity()) * std::mem::size_of::<u32>()
    }
}

/// AnchorHash as the bucket book's engine: a key's pair is its digest and 0.
impl BucketChain for Anchor {
    fn walk(&self, digest: u64, visit: impl FnMut(u32)) -> u32 {
        Anchor::walk(self, digest, 0, visit)
    }

    fn any_working(&self) -> bool {
        self.working > 0
    }

    fn cells(&self) -> u32 {
        self.capacity()
    }

    fn memory_bytes(&self) -> usize {
        Anchor::memory_bytes(self)
    }

    fn structure(&self) -> Structure {
        Structure::Stack(self.removed.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// CRC-32C bit by bit, the textbook way, to check the crate-based [`crc32c_u64`].
    fn crc32c_bitwise(key: u64, seed: u64) -> u32 {
        let mut crc = seed as u32;
        for byte in key.to_le_bytes() {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0x82F6_3B78
                } else {
                    crc >> 1
                };
            }
        }
        crc
    }

    #[test]
    fn crc32c_matches_the_standard_check_value() {
        // CRC-32C("123456789") = 0xE3069283 with the usual inversions; here the same
        // polynomial over one 8-byte word, checked against the bitwise definition.
        assert_eq!(crc32c_u64(0, 0), crc32c_bitwise(0, 0));
        assert_eq!(
            crc32c_u64(0x0123_4567_89AB_CDEF, 0xDEAD_BEEF),
            crc32c_bitwise(0x0123_4567_89AB_CDEF, 0xDEAD_BEEF)
        );
    }

    #[test]
    fn equals_the_authors_cpp_bit_for_bit() {
        let vectors = include_str!("../../../tests/reference/anchor.txt");
        let mut anchor = Anchor::new(1, 1);
        let mut checked = 0;
        for line in vectors.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split(' ').collect();
            match f[0] {
                "new" => anchor = Anchor::new(f[1].parse().unwrap(), f[2].parse().unwrap()),
                "remove" => anchor.remove(f[1].parse().unwrap()),
                "restore" => assert_eq!(anchor.restore(), Some(f[1].parse().unwrap())),
                _ => {
                    let key: u64 = f[0].parse().unwrap();
                    assert_eq!(anchor.bucket(key, 0).to_string(), f[1], "{line}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 100, "{checked}");
    }

    proptest! {
        #[test]
        fn crc_equals_its_definition(key in any::<u64>(), seed in any::<u64>()) {
            prop_assert_eq!(crc32c_u64(key, seed), crc32c_bitwise(key, seed));
        }

        #[test]
        fn a_removal_moves_only_the_removed_buckets_keys(
            key in any::<u64>(),
            removals in proptest::collection::vec(0u32..40, 0..30),
            gone in 0u32..40,
        ) {
            let mut anchor = Anchor::new(40, 30);
            let mut live: Vec<u32> = (0..30).collect();
            for r in removals {
                if live.len() > 2 && live.contains(&r) {
                    anchor.remove(r);
                    live.retain(|&b| b != r);
                }
            }
            prop_assume!(live.len() > 1 && live.contains(&gone));
            let before = anchor.bucket(key, 0);
            prop_assert!(live.contains(&before));
            anchor.remove(gone);
            let after = anchor.bucket(key, 0);
            prop_assert!(after == before || before == gone, "{before} → {after}");
            // Restoring undoes the removal exactly.
            prop_assert_eq!(anchor.restore(), Some(gone));
            prop_assert_eq!(anchor.bucket(key, 0), before);
        }
    }
}
