//! DxHash: Chaos Dong and Fang Wang, "DxHash: A Scalable Consistent Hash Based on the
//! Pseudo-Random Sequence" (arXiv:2107.07930, 2021).
//!
//! The buckets sit in an array of fixed capacity, each marked working or not. A key seeds a
//! pseudo-random generator and draws buckets from the whole array until it hits a working
//! one. Removing a bucket moves only its keys (every other key's first working draw is
//! unchanged), any bucket can leave, and a returning bucket takes back exactly the keys it
//! had. Lookups cost about `capacity / working` draws.
//!
//! [`Dx`] follows `DxEngine` of SUPSI-DTI-ISIN/java-consistent-hashing-algorithms, whose
//! generator is `java.util.Random` seeded with the key's hash; [`JavaRandom`] transcribes
//! that generator, and `tests/reference/dx.txt` holds buckets printed by that Java code
//! (`tools/supsi-vectors.sh`). Removed buckets come back in the reverse order of removal.
//!
//! Choices left open: the seed is the key's digest (xxh3-64, or its integer under the
//! identity hash) and the capacity is the bucket book's (see [`crate::engine::book`]).

use crate::engine::book::BucketChain;
use crate::engine::contract::Placement;
use crate::engine::keys::DIGEST;
use crate::engine::spec::{no_check, Build, Knobs, Memory, Moves, Shape, Spec};
use std::rc::Rc;

/// The registry's entry. Source: Dong & Wang 2021.
pub static SPEC: Spec = Spec {
    id: "dx",
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
    cost: // About capacity / working draws of the generator per key.
    |c| crate::engine::spec::KEY_COST + c.book_capacity / c.live,
    check: no_check,
    build,
};

/// The engine for every bucket the book has used, its removals replayed in order.
fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, crate::problem::Problem> {
    let book = b.book.ok_or(crate::problem::Problem::Internal(
        "this algorithm needs a bucket book",
    ))?;
    let mut engine = Dx::new(book.holders().len() as u32, book.capacity());
    for &r in book.removed() {
        engine.remove(r);
    }
    Ok(book.placement(engine, b.params.hash))
}

/// `java.util.Random`: a 48-bit linear congruential generator.
pub struct JavaRandom {
    seed: u64,
}

impl JavaRandom {
    const MULTIPLIER: u64 = 0x5_DEEC_E66D;
    const MASK: u64 = (1 << 48) - 1;

    /// `new Random(seed)`.
    pub fn new(seed: u64) -> JavaRandom {
        JavaRandom {
            seed: (seed ^ Self::MULTIPLIER) & Self::MASK,
        }
    }

    fn next(&mut self, bits: u32) -> i32 {
        self.seed = (self.seed.wrapping_mul(Self::MULTIPLIER).wrapping_add(0xB)) & Self::MASK;
        (self.seed >> (48 - bits)) as i64 as i32
    }

    /// `nextInt(bound)`, `bound` ≥ 1.
    pub fn next_int(&mut self, bound: u32) -> u32 {
        let bound = bound as i32;
        let mut r = self.next(31);
        let m = bound - 1;
        if bound & m == 0 {
            return ((i64::from(bound) * i64::from(r)) >> 31) as u32;
        }
        let mut u = r;
        loop {
            r = u % bound;
            if u.wrapping_sub(r).wrapping_add(m) >= 0 {
                return r as u32;
            }
            u = self.next(31);
        }
    }
}

/// Which buckets work, in an array of fixed capacity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dx {
    working: Vec<bool>,
    /// How many of `working` are true.
    size: u32,
}

impl Dx {
    /// `capacity` buckets, the first `size` working.
    pub fn new(size: u32, capacity: u32) -> Dx {
        Dx {
            working: (0..capacity).map(|b| b < size).collect(),
            size: size.min(capacity),
        }
    }

    /// Marks bucket `b` removed.
    pub fn remove(&mut self, b: u32) {
        if std::mem::replace(&mut self.working[b as usize], false) {
            self.size -= 1;
        }
    }

    /// Marks bucket `b` working again.
    pub fn restore(&mut self, b: u32) {
        if !std::mem::replace(&mut self.working[b as usize], true) {
            self.size += 1;
        }
    }

    /// The array's capacity.
    pub fn capacity(&self) -> u32 {
        self.working.len() as u32
    }

    /// How many buckets work.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The first working bucket a key with this digest draws.
    pub fn bucket(&self, digest: u64) -> u32 {
        self.walk(digest, |_| {})
    }

    /// The first working bucket a key with this digest draws, calling `visit` with every
    /// draw. Needs a working bucket.
    pub fn walk(&self, digest: u64, mut visit: impl FnMut(u32)) -> u32 {
        let mut random = JavaRandom::new(digest);
        let capacity = self.working.len() as u32;
        loop {
            let b = random.next_int(capacity);
            visit(b);
            if self.working[b as usize] {
                return b;
            }
        }
    }

    /// Bytes of the bit array (one bit per bucket of capacity).
    pub fn memory_bytes(&self) -> usize {
        self.working.len().div_ceil(8)
    }
}

/// DxHash as the bucket book's engine.
impl BucketChain for Dx {
    fn walk(&self, digest: u64, visit: impl FnMut(u32)) -> u32 {
        Dx::walk(self, digest, visit)
    }

    fn any_working(&self) -> bool {
        self.size > 0
    }

    fn cells(&self) -> u32 {
        self.capacity()
    }

    fn memory_bytes(&self) -> usize {
        Dx::memory_bytes(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn java_random_matches_the_jdk() {
        // new Random(42).nextInt(10) == 0, then 3; new Random(0).nextInt(100) == 60.
        let mut r = JavaRandom::new(42);
        assert_eq!((r.next_int(10), r.next_int(10)), (0, 3));
        assert_eq!(JavaRandom::new(0).next_int(100), 60);
    }

    #[test]
    fn equals_supsis_java_bit_for_bit() {
        let vectors = include_str!("../../../tests/reference/dx.txt");
        let mut dx = Dx::new(1, 1);
        let mut removed = Vec::new();
        let mut checked = 0;
        for line in vectors.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split(' ').collect();
            match f[0] {
                "new" => dx = Dx::new(f[1].parse().unwrap(), f[2].parse().unwrap()),
                "remove" => {
                    let b = f[1].parse().unwrap();
                    dx.remove(b);
                    removed.push(b);
                }
                "restore" => {
                    let b = removed.pop().unwrap();
                    assert_eq!(b.to_string(), f[1]);
                    dx.restore(b);
                }
                _ => {
                    let key: u64 = f[0].parse().unwrap();
                    assert_eq!(dx.bucket(key).to_string(), f[1], "{line}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 60, "{checked}");
    }

    proptest! {
        #[test]
        fn a_removal_moves_only_the_removed_buckets_keys(
            key in any::<u64>(),
            gone in proptest::collection::vec(0u32..32, 1..20),
        ) {
            let mut dx = Dx::new(20, 32);
            let before = dx.bucket(key);
            for &g in &gone {
                if g < 20 && dx.size() > 1 {
                    dx.remove(g);
                }
            }
            let after = dx.bucket(key);
            prop_assert!(after == before || !dx.working[before as usize]);
        }
    }
}
