//! MementoHash: Massimo Coluzzi, Amos Brocco, Paolo Contu and Tiziano Leidi, "MementoHash: A
//! Stateful, Minimal Memory, Best Performing Consistent Hash Algorithm" (IEEE/ACM
//! Transactions on Networking, 2024; arXiv:2306.09783).
//!
//! Jump hash picks a bucket in `0..n`; Memento lets any bucket leave by remembering, for each
//! removed bucket, the bucket that replaced it (the working-set size right after the
//! removal) and the bucket removed before it. A key that lands on a removed bucket `b`
//! rehashes into `0..replacer(b)` and follows replacements until it reaches a working
//! bucket, so a removal moves only the removed bucket's keys. Memory grows only with the
//! removals (no removals: jump hash, nothing stored). Removing the last bucket with no
//! removals remembered just shrinks `n`; buckets come back in the reverse order of removal.
//!
//! [`Memento`] transcribes `MementoEngine` of the authors' repository
//! (SUPSI-DTI-ISIN/java-consistent-hashing-algorithms); their memento table (a `HashMap`)
//! is a vector of entries kept sorted by bucket and searched by halves — the same map, as
//! small (three numbers per removal), and no hash map code of its own in the page.
//! `tests/reference/memento.txt` holds buckets printed by that Java code
//! (`tools/MementoVectors.java`).
//!
//! Choices left open: the key's digest is xxh3-64 of its name (its integer under the identity
//! hash) fed to [`super::jump::jump`], and the rehash of a key at bucket `b` is
//! [`super::jump::rehash`]`(digest, b)` halved to 63 bits (the Java takes `Math.abs` of
//! its hash).

use super::jump::{jump, rehash};
use crate::engine::book::BucketChain;
use crate::engine::contract::{Placement, Structure};
use crate::engine::keys::DIGEST;
use crate::engine::spec::{no_check, Build, Knobs, Memory, Moves, Shape, Spec};
use std::rc::Rc;

/// The registry's entry. Source: Coluzzi et al. 2023.
pub static SPEC: Spec = Spec {
    id: "memento",
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
    let mut engine = Memento::new(book.holders().len() as u32);
    for &r in book.removed() {
        engine.remove(r);
    }
    Ok(book.placement(engine, b.params.hash))
}

/// A removed bucket's entry: who replaced it and which bucket was removed before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    replacer: u32,
    prev_removed: u32,
}

/// Memento's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memento {
    /// The size of the bucket array (working and removed buckets below it).
    b_array_size: u32,
    /// The last removed bucket (`b_array_size` when none is remembered).
    last_removed: u32,
    /// Removed bucket → entry, sorted by bucket.
    table: Vec<(u32, Entry)>,
}

impl Memento {
    /// `size` working buckets, nothing removed.
    pub fn new(size: u32) -> Memento {
        Memento {
            b_array_size: size,
            last_removed: size,
            table: Vec::new(),
        }
    }

    /// Working buckets.
    pub fn size(&self) -> u32 {
        self.b_array_size - self.table.len() as u32
    }

    /// The bucket array's size `n`.
    pub fn array_size(&self) -> u32 {
        self.b_array_size
    }

    /// Where `bucket`'s entry is (Ok) or would go (Err).
    fn find(&self, bucket: u32) -> Result<usize, usize> {
        self.table.binary_search_by_key(&bucket, |e| e.0)
    }

    fn replacer(&self, bucket: u32) -> Option<u32> {
        self.find(bucket).ok().map(|i| self.table[i].1.replacer)
    }

    /// Removes working bucket `bucket`.
    pub fn remove(&mut self, bucket: u32) {
        if self.table.is_empty() && bucket + 1 == self.b_array_size {
            self.b_array_size = bucket;
            self.last_removed = bucket;
            return;
        }
        let entry = Entry {
            replacer: self.size() - 1,
            prev_removed: self.last_removed,
        };
        match self.find(bucket) {
            Ok(i) => self.table[i].1 = entry,
            Err(i) => self.table.insert(i, (bucket, entry)),
        }
        self.last_removed = bucket;
    }

    /// Brings back the last removed bucket (or a new one at the end) and returns it.
    pub fn restore(&mut self) -> u32 {
        let bucket = self.last_removed;
        self.last_removed = match self.find(bucket) {
            Ok(i) => self.table.remove(i).1.prev_removed,
            Err(_) => bucket + 1,
        };
        self.b_array_size = self.b_array_size.max(bucket + 1);
        bucket
    }

    /// The working bucket of a key with this digest.
    pub fn bucket(&self, digest: u64) -> u32 {
        self.walk(digest, |_| {})
    }

    /// The working bucket of a key with this digest, calling `visit` with jump's bucket and
    /// each bucket it rehashes or is redirected to. Needs a working bucket.
    pub fn walk(&self, digest: u64, mut visit: impl FnMut(u32)) -> u32 {
        let mut b = jump(digest, self.b_array_size);
        visit(b);
        let mut replacer = self.replacer(b);
        while let Some(bound) = replacer {
            let h = rehash(digest, b) >> 1;
            b = (h % u64::from(bound)) as u32;
            visit(b);
            let mut r = self.replacer(b);
            while let Some(next) = r.filter(|&next| next >= bound) {
                b = next;
                visit(b);
                r = self.replacer(b);
            }
            replacer = r;
        }
        b
    }

    /// The remembered replacements in removal order, (removed bucket, its replacer): the
    /// table read back from the last removed through each entry's previous one.
    pub fn replacements(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let mut b = self.last_removed;
        while let Ok(i) = self.find(b) {
            let (bucket, e) = self.table[i];
            out.push((bucket, e.replacer));
            b = e.prev_removed;
        }
        out.reverse();
        out
    }

    /// Bytes of the memento table (three numbers per removed bucket) and the counters.
    pub fn memory_bytes(&self) -> usize {
        self.table.len() * 3 * std::mem::size_of::<u32>() + 2 * std::mem::size_of::<u32>()
    }
}

/// MementoHash as the bucket book's engine.
impl BucketChain for Memento {
    fn walk(&self, digest: u64, visit: impl FnMut(u32)) -> u32 {
        Memento::walk(self, digest, visit)
    }

    fn any_working(&self) -> bool {
        self.size() > 0
    }

    fn cells(&self) -> u32 {
        self.b_array_size
    }

    fn memory_bytes(&self) -> usize {
        Memento::memory_bytes(self)
    }

    fn structure(&self) -> Structure {
        Structure::Replacements(self.replacements())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn equals_the_authors_java_bit_for_bit() {
        let vectors = include_str!("../../../tests/reference/memento.txt");
        let mut memento = Memento::new(1);
        let mut checked = 0;
        for line in vectors.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split(' ').collect();
            match f[0] {
                "new" => memento = Memento::new(f[1].parse().unwrap()),
                "remove" => memento.remove(f[1].parse().unwrap()),
                "restore" => assert_eq!(memento.restore().to_string(), f[1]),
                _ => {
                    let key: u64 = f[0].parse().unwrap();
                    assert_eq!(memento.bucket(key).to_string(), f[1], "{line}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 100, "{checked}");
    }

    #[test]
    fn removing_the_last_bucket_first_only_shrinks() {
        let mut m = Memento::new(5);
        m.remove(4);
        assert_eq!((m.array_size(), m.size(), m.memory_bytes()), (4, 4, 8));
        assert_eq!(m.restore(), 4);
        assert_eq!(m, Memento::new(5));
    }

    proptest! {
        #[test]
        fn a_removal_moves_only_the_removed_buckets_keys(
            key in any::<u64>(),
            removals in proptest::collection::vec(0u32..30, 0..25),
            gone in 0u32..30,
        ) {
            let mut m = Memento::new(30);
            let mut live: Vec<u32> = (0..30).collect();
            for r in removals {
                if live.len() > 2 && live.contains(&r) {
                    m.remove(r);
                    live.retain(|&b| b != r);
                }
            }
            prop_assume!(live.len() > 1 && live.contains(&gone));
            let before = m.bucket(key);
            prop_assert!(live.contains(&before));
            let saved = m.clone();
            m.remove(gone);
            let after = m.bucket(key);
            prop_assert!(after == before || before == gone, "{before} → {after}");
            prop_assert_eq!(m.restore(), gone);
            prop_assert_eq!(m, saved);
        }
    }
}
