//! JumpBackHash: Otmar Ertl, "JumpBackHash: Say Goodbye to the Modulo Operation to
//! Distribute Keys Uniformly to Buckets" (2024, arXiv:2403.18682).
//!
//! Like jump, a key's bucket among `n` depends only on its 64-bit digest and `n`, and
//! growing to `n + 1` moves keys only into the new bucket — but JumpBack walks *back* from
//! the highest bucket range using integer arithmetic only, with a constant expected number
//! of random draws. [`jumpback`] transcribes the paper's reference implementation (hash4j's
//! `AbstractConsistentJumpBackBucketHasher`) with its SplitMix64 generator, operation for
//! operation including Java's shift-count masking; `tests/reference/jumpback-splitmix64.txt`
//! holds buckets printed by that Java code, which the tests check bit for bit.
//!
//! Choices the paper leaves open: the generator is SplitMix64 (hash4j's default choice), the
//! digest is xxh3-64 of the key (the key's integer under the identity hash), and bucket `i`
//! is the `i`-th live server in list order — so, like jump, only the last server leaves
//! cheaply.

/// The registry's entry. Source: Ertl 2024.
pub static SPEC: crate::engine::spec::Spec = super::jump::bucket_spec("jumpback", |b| {
    let path = |h, n| super::jump::collect_path(|v| jumpback_walk(h, n, v));
    let ranges = Some(super::jump::ranges_below as super::jump::RangesOf);
    super::jump::buckets(b, jumpback, Some(path), ranges)
});

const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's output for `state`.
fn mix(state: u64) -> u64 {
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The bucket in `0..buckets` for the digest `hash`; `buckets` ≥ 1 and below 2³¹.
pub fn jumpback(hash: u64, buckets: u32) -> u32 {
    jumpback_walk(hash, buckets, |_| {})
}

/// [`jumpback`], calling `visit` with each candidate bucket it draws (in the highest range
/// its hash's bits give, then walking back range by range), the answer last.
pub fn jumpback_walk(hash: u64, buckets: u32, mut visit: impl FnMut(u32)) -> u32 {
    if buckets <= 1 {
        visit(0);
        return 0;
    }
    let mut state = hash.wrapping_add(GOLDEN);
    let r0 = mix(state);
    let mut x = ((r0 ^ (r0 >> 32)) as u32) & (u32::MAX >> (buckets - 1).leading_zeros());
    loop {
        if x == 0 {
            visit(0);
            return 0;
        }
        let range_min = 1u32 << (31 - x.leading_zeros());
        // Java masks a long shift count to 6 bits: 32 · bitCount alternates 32 and 0.
        let shift = (x.count_ones() << 5) & 63;
        let bucket = range_min + ((r0 >> shift) as u32 & (range_min - 1));
        visit(bucket);
        if bucket < buckets {
            return bucket;
        }
        let range_max = (range_min << 1) - 1;
        loop {
            state = state.wrapping_add(GOLDEN);
            let r1 = mix(state);
            let low = r1 as u32 & range_max;
            if low < range_min {
                break;
            }
            visit(low);
            if low < buckets {
                return low;
            }
            let high = (r1 >> 32) as u32 & range_max;
            if high < range_min {
                break;
            }
            visit(high);
            if high < buckets {
                return high;
            }
        }
        x ^= range_min;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_the_java_reference_bit_for_bit() {
        let vectors = include_str!("../../../tests/reference/jumpback-splitmix64.txt");
        let mut checked = 0;
        for line in vectors.lines() {
            let v: Vec<u64> = line.split(' ').map(|x| x.parse().unwrap()).collect();
            assert_eq!(u64::from(jumpback(v[0], v[1] as u32)), v[2], "{line}");
            checked += 1;
        }
        assert_eq!(checked, 88);
    }
}
