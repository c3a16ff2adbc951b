//! Jump consistent hash: John Lamping and Eric Veach, "A Fast, Minimal Memory, Consistent
//! Hash Algorithm" (Google, 2014, arXiv:1406.2294).
//!
//! [`jump`] is the paper's reference function, transcribed operation for operation: the
//! same 64-bit linear congruential step (multiplier 2862933555777941757, increment 1) and
//! the same floating-point jump `(b + 1) · 2³¹ / ((key >> 33) + 1)`, so its buckets equal
//! every faithful implementation's bit for bit.
//!
//! Choices the paper leaves open: the key's 64-bit digest is xxh3-64 of its name (under the
//! identity hash, the key's own integer value), and bucket `i` is the `i`-th live server in
//! list order. Jump only grows and shrinks at the end: removing any other server renumbers
//! the ones after it, and their keys move — the cost a real deployment of jump pays, which
//! the page shows rather than hides.

use crate::engine::keys::DIGEST;
use std::rc::Rc;

use crate::engine::contract::{Explanation, How, Placement, Structure};
use crate::engine::hash::{key_digest, HashFn};
use crate::engine::ring::{ServerId, NO_OWNER};
use crate::engine::spec::{
    no_check, Build, CostInput, Knobs, Memory, Moves, Shape, Spec, KEY_COST,
};

/// The registry's entry. Source: Lamping & Veach 2014.
pub static SPEC: Spec = bucket_spec("jump", |b| {
    Ok(Rc::new(Buckets::jump(b.ids(), b.params.hash)))
});

/// The registry entry of a bucket algorithm that grows and shrinks only at the end of the
/// server list (jump and its successors): drawn as buckets, one digest and a few steps
/// per key.
pub const fn bucket_spec(
    id: &'static str,
    build: fn(&Build<'_>) -> Result<Rc<dyn Placement>, crate::problem::Problem>,
) -> Spec {
    Spec {
        id,
        knobs: Knobs::NONE,
        shape: Shape::Fans,
        memory: Memory::Nothing,
        moves: Moves::GrowOnly,
        over_ring: None,
        table_fill: None,
        arcs: false,
        scores_every_server: false,
        key_value: Some(DIGEST),
        key_hash: None,
        cost: key_cost,
        check: no_check,
        build,
    }
}

/// One digest and a constant-time step per key.
pub fn key_cost(_: &CostInput) -> usize {
    KEY_COST
}

/// The placement of a bucket function over the live servers in list order.
pub fn buckets(
    b: &Build<'_>,
    bucket: fn(u64, u32) -> u32,
    path: Option<fn(u64, u32) -> Vec<u32>>,
    ranges: Option<RangesOf>,
) -> Result<Rc<dyn Placement>, crate::problem::Problem> {
    Ok(Rc::new(Buckets {
        servers: b.ids(),
        hash: b.params.hash,
        bucket,
        path,
        ranges,
        told_by_hops: false,
    }))
}

/// The ranges of bucket numbers a bucket algorithm draws keys in, for a bucket count.
pub type RangesOf = fn(u32) -> Vec<(u32, u32)>;

/// The buckets a bucket function with a visitor visits for `digest` among `n`, the answer
/// last: the path [`Buckets::explain`] reports.
pub fn collect_path(walk: impl FnOnce(&mut dyn FnMut(u32)) -> u32) -> Vec<u32> {
    let mut path = Vec::new();
    walk(&mut |b| path.push(b));
    path
}

/// The power-of-two ranges of bucket numbers up to the bucket count's enclosing power of
/// two `m`: `0..1, 1..2, 2..4, …, m/2..m` (JumpBack and Flip draw a key in one of them and
/// draw again when it falls at or past the bucket count).
pub fn power_of_two_ranges(n: u32) -> Vec<(u32, u32)> {
    let m = n.max(1).next_power_of_two();
    let mut out = vec![(0, 1)];
    let mut low = 1;
    while low < m {
        out.push((low, low * 2));
        low *= 2;
    }
    out
}

/// Power's two ranges: `f`'s, the enclosing power of two `0..m`, where a key is drawn
/// first, and `g`'s, `m/2..n`, where a key drawn past the last bucket is drawn again (or,
/// when `g` lands in the lower half, `f` draws once more within it).
pub fn power_ranges(n: u32) -> Vec<(u32, u32)> {
    let m = n.max(1).next_power_of_two();
    match m / 2 {
        0 => vec![(0, 1)],
        half => vec![(0, m), (half, n)],
    }
}

/// Binomial's two trees: the minor tree's leaves `0..m/2` and the enclosing tree's `0..m`
/// (a key tries a leaf of the enclosing tree, and falls back to the minor one).
pub fn trees(n: u32) -> Vec<(u32, u32)> {
    let m = n.max(1).next_power_of_two();
    vec![(0, (m / 2).max(1)), (0, m)]
}

/// JumpBack's power-of-two ranges up to the bucket count: `0..1, 1..2, 2..4, …, m/2..n`
/// (it walks back from the highest range its hash gives, never past the last bucket).
pub fn ranges_below(n: u32) -> Vec<(u32, u32)> {
    power_of_two_ranges(n)
        .into_iter()
        .map(|(low, high)| (low, high.min(n.max(1))))
        .collect()
}

/// The bucket in `0..buckets` for `key` (the paper's `JumpConsistentHash`); `buckets` ≥ 1.
pub fn jump(mut key: u64, buckets: u32) -> u32 {
    let (mut b, mut j): (i64, i64) = (-1, 0);
    while j < i64::from(buckets) {
        b = j;
        key = key.wrapping_mul(2862933555777941757).wrapping_add(1);
        j = ((b + 1) as f64 * ((1i64 << 31) as f64 / ((key >> 33) + 1) as f64)) as i64;
    }
    b as u32
}

/// The buckets jump visits for `key` on its way to the answer: each candidate `b` it jumps
/// to while below `buckets` (the last is the answer). Shows why adding bucket `n` takes a
/// key only when the key's sequence lands on `n`.
pub fn jump_path(mut key: u64, buckets: u32) -> Vec<u32> {
    let mut j: i64 = 0;
    let mut path = Vec::new();
    while j < i64::from(buckets) {
        let b = j;
        path.push(b as u32);
        key = key.wrapping_mul(2862933555777941757).wrapping_add(1);
        j = ((b + 1) as f64 * ((1i64 << 31) as f64 / ((key >> 33) + 1) as f64)) as i64;
    }
    path
}

/// A second hash of a 64-bit value under a 32-bit seed: SplitMix64 of `value ^ seed << 32`.
/// The bucket algorithms whose papers leave their rehash open (Memento, Power) use this.
pub fn rehash(value: u64, seed: u32) -> u64 {
    crate::engine::keys::splitmix64(value ^ (u64::from(seed) << 32))
}

/// A bucket algorithm over the live servers in list order: bucket `i` is `servers[i]`.
/// Jump, JumpBack and BinomialHash differ only in the function that picks the bucket.
pub struct Buckets {
    /// Live server ids in list order.
    pub servers: Vec<ServerId>,
    /// Which digest the keys get (identity or xxh3-64).
    pub hash: HashFn,
    /// The bucket in `0..n` for a digest.
    pub bucket: fn(u64, u32) -> u32,
    /// The buckets visited on the way, when the algorithm has a path worth showing.
    pub path: Option<fn(u64, u32) -> Vec<u32>>,
    /// The ranges of bucket numbers it draws keys in, for a bucket count.
    pub ranges: Option<RangesOf>,
    /// True when a lookup is told hop by hop (jump's loop, as its paper writes it); the
    /// others' walks are drawn and told by the bucket they end at.
    pub told_by_hops: bool,
}

impl Buckets {
    /// Jump over `servers`.
    pub fn jump(servers: Vec<ServerId>, hash: HashFn) -> Buckets {
        Buckets {
            servers,
            hash,
            bucket: jump,
            path: Some(jump_path),
            ranges: None,
            told_by_hops: true,
        }
    }
}

impl Placement for Buckets {
    fn memory_bytes(&self) -> usize {
        self.servers.len() * std::mem::size_of::<ServerId>()
    }

    fn buckets(&self) -> Option<(&[ServerId], u32)> {
        Some((&self.servers, self.servers.len() as u32))
    }

    fn structure(&self) -> Structure {
        self.ranges.map_or(Structure::None, |r| {
            Structure::Ranges(r(self.servers.len() as u32))
        })
    }

    fn owner(&self, key: &str, position: u32) -> ServerId {
        self.owner_of_value(key_digest(self.hash, key), position)
    }

    fn owner_of_value(&self, digest: u64, _position: u32) -> ServerId {
        match self.servers.len() {
            0 => NO_OWNER,
            n => self.servers[(self.bucket)(digest, n as u32) as usize],
        }
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        let digest = key_digest(self.hash, key);
        let path = match (self.servers.len(), self.path) {
            (0, _) => Vec::new(),
            (n, Some(path)) => path(digest, n as u32),
            (n, None) => vec![(self.bucket)(digest, n as u32)],
        };
        Explanation {
            position,
            owner: path.last().map_or(NO_OWNER, |&b| self.servers[b as usize]),
            how: How::Buckets {
                digest,
                path,
                hops: self.told_by_hops,
                live: self.servers.clone(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The paper's C++ reference, transcribed a second time in its own shape (signed
    /// 64-bit `b` and `j`, unsigned key, double arithmetic) to check [`jump`] against.
    fn paper(key: u64, num_buckets: i32) -> i32 {
        let mut key = key;
        let mut b: i64 = -1;
        let mut j: i64 = 0;
        while j < num_buckets as i64 {
            b = j;
            key = key.wrapping_mul(2862933555777941757u64).wrapping_add(1);
            j = ((b + 1) as f64 * ((1u64 << 31) as f64 / ((key >> 33) + 1) as f64)) as i64;
        }
        b as i32
    }

    #[test]
    fn reference_vectors() {
        assert_eq!(jump(42, 57), 43);
        assert_eq!(jump(0xDEAD10CC, 666), 361);
        assert_eq!(jump(256, 1024), 520);
        assert_eq!(jump(0, 1), 0);
        assert_eq!(jump(u64::MAX, 1), 0);
    }

    #[test]
    fn the_path_ends_at_the_answer_and_only_grows() {
        for key in [1u64, 42, 0xDEAD10CC, u64::MAX] {
            let path = jump_path(key, 1000);
            assert_eq!(*path.last().unwrap(), jump(key, 1000));
            assert!(path.windows(2).all(|w| w[0] < w[1]), "{path:?}");
        }
    }

    proptest! {
        #[test]
        fn equals_the_papers_function(key in any::<u64>(), n in 1i32..1_000_000) {
            prop_assert_eq!(jump(key, n as u32) as i32, paper(key, n));
        }

        /// Every constant-time bucket function: growing to `n + 1` buckets moves a key
        /// only into the new bucket.
        #[test]
        fn a_new_bucket_takes_keys_only_for_itself(key in any::<u64>(), n in 1u32..100_000) {
            use super::super::{binomial::binomial, flip::flip, jumpback::jumpback, power::power};
            type BucketFn = fn(u64, u32) -> u32;
            let functions: [(&str, BucketFn); 5] =
                [("jump", jump), ("jumpback", jumpback), ("binomial", binomial), ("flip", flip), ("power", power)];
            for (name, bucket) in functions {
                let (before, after) = (bucket(key, n), bucket(key, n + 1));
                prop_assert!(before < n, "{name}");
                prop_assert!(after == before || after == n, "{name}: {before} → {after} at n={n}");
            }
        }
    }
}
