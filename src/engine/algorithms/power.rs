//! Power consistent hashing: Eric Leu, "Fast Consistent Hashing in Constant Time"
//! (arXiv:2307.12448, 2023).
//!
//! With `m` the smallest power of two ≥ `n`, `f` maps a key uniformly onto `0..m` so that
//! halving `m` keeps every key below the half where it was (the key's bits below `m` pick a
//! power-of-two band by their highest one bit, and a second hash picks the place inside the
//! band). If `f`'s answer is below `n` it is the bucket; otherwise `g`, a jump-like random
//! walk upwards from `m/2 − 1`, picks among `m/2..n`, and a key `g` leaves at `m/2 − 1`
//! takes `f` over `0..m/2`. Constant expected time, no memory, and growing to `n + 1` moves
//! keys only into the new bucket.
//!
//! [`power`] transcribes `PowerEngine.getBucket` of SUPSI-DTI-ISIN/java-consistent-hashing-
//! algorithms (the paper's Algorithm 1 with jump's linear congruential generator in `g`);
//! `tests/reference/power.txt` holds buckets printed by that Java code
//! (`tools/supsi-vectors.sh`). The paper publishes no code of its own.
//!
//! Choices left open: the key's digest is xxh3-64 of its name (its integer under the
//! identity hash), `f`'s second hash is [`super::jump::rehash`], and bucket `i` is the
//! `i`-th live server in list order.

/// The registry's entry. Source: Leu 2023.
pub static SPEC: crate::engine::spec::Spec = super::jump::bucket_spec("power", |b| {
    let path = |h, n| super::jump::collect_path(|v| power_walk(h, n, v));
    super::jump::buckets(b, power, Some(path), Some(super::jump::power_ranges))
});

use super::jump::rehash;

/// `f(key, m − 1)`: a bucket in `0..m` for a power of two `m` given as its mask.
fn f(hash: u64, mask: u32) -> u32 {
    let k_bits = (hash & u64::from(mask)) as u32;
    if k_bits == 0 {
        return 0;
    }
    let h = 1u32 << (31 - k_bits.leading_zeros());
    h + (rehash(hash, h) as u32 & (h - 1))
}

/// `g(key, n, s)`: a random walk up from `s` through `s..n`, jump's way.
fn g(hash: u64, n: u32, s: u32) -> u32 {
    let mut state = hash;
    let mut candidate = s as i32;
    loop {
        state = state.wrapping_mul(2862933555777941757).wrapping_add(1);
        let u = f64::from(((state >> 33) as i32).wrapping_add(1)) / 2147483648.0;
        let next = (f64::from(candidate + 1) / u) as i32;
        if next >= 0 && (next as u32) < n {
            candidate = next;
        } else {
            return candidate as u32;
        }
    }
}

/// The bucket in `0..buckets` for the digest `hash`; `buckets` ≥ 1 and at most 2³⁰.
pub fn power(hash: u64, buckets: u32) -> u32 {
    power_walk(hash, buckets, |_| {})
}

/// [`power`], calling `visit` with `f`'s answer over `0..m`, then (when that is past the
/// last bucket) `g`'s answer when it is one, else `f`'s over `0..m/2`.
pub fn power_walk(hash: u64, buckets: u32, mut visit: impl FnMut(u32)) -> u32 {
    let m = buckets.next_power_of_two();
    let (m1, m2) = (m - 1, (m >> 1).saturating_sub(1));
    let r1 = f(hash, m1);
    visit(r1);
    if r1 < buckets {
        return r1;
    }
    let r2 = g(hash, buckets, m2);
    let r = if r2 > m2 { r2 } else { f(hash, m2) };
    visit(r);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_supsis_java_bit_for_bit() {
        let vectors = include_str!("../../../tests/reference/power.txt");
        let mut n = 1;
        let mut checked = 0;
        for line in vectors.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split(' ').collect();
            if f[0] == "new" {
                n = f[1].parse().unwrap();
                continue;
            }
            let key: u64 = f[0].parse().unwrap();
            assert_eq!(power(key, n).to_string(), f[1], "{line} at n={n}");
            checked += 1;
        }
        assert_eq!(checked, 180);
    }
}
