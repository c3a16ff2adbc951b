//! FlipHash: Charles Masson and Homin K. Lee, "FlipHash: A Constant-Time Consistent
//! Range-Hashing Algorithm" (Datadog, 2024, arXiv:2402.17549).
//!
//! A key's bucket among a power of two is its hash's masked bits with the bits below the
//! highest one *flipped* by a second hash seeded with that bit's position — so doubling the
//! range moves a key only into the new upper half. For other sizes, FlipHash draws up to 64
//! times in the enclosing power of two and falls back to the lower half. Constant time, no
//! memory, and growing to `n + 1` moves keys only into the new bucket.
//!
//! This is the authors' own code: the `fliphash` crate (DataDog/fliphash-rs), `fliphash_64`
//! with its built-in hash. Choices left open: the key's digest is xxh3-64 of its name (its
//! integer under the identity hash), and bucket `i` is the `i`-th live server in list order.

/// The registry's entry. Source: Masson & Lee 2024.
pub static SPEC: crate::engine::spec::Spec = super::jump::bucket_spec("flip", |b| {
    let ranges = Some(super::jump::power_of_two_ranges as super::jump::RangesOf);
    super::jump::buckets(b, flip, None, ranges)
});

/// The bucket in `0..buckets` for the digest `hash`; `buckets` ≥ 1.
pub fn flip(hash: u64, buckets: u32) -> u32 {
    fliphash::fliphash_64(hash, ..=u64::from(buckets.max(1) - 1)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreads_keys_evenly() {
        let mut counts = [0u32; 10];
        for k in 0..100_000u64 {
            counts[flip(crate::engine::keys::splitmix64(k), 10) as usize] += 1;
        }
        let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
        assert!(f64::from(hi - lo) / f64::from(*lo) < 0.05, "{counts:?}");
    }
}
