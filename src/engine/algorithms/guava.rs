//! Guava's `Hashing.consistentHash(long input, int buckets)` (com.google.common.hash,
//! `Hashing.java`): jump consistent hash as Google's Java library writes it — the same
//! linear congruential generator as Lamping & Veach's paper, but its step divides by
//! `nextDouble()` (`((int) (state >>> 33) + 1) / 2³¹`, Java's `int` overflow included)
//! instead of multiplying by `2³¹ / ((key >> 33) + 1)`, and casts with Java's saturating
//! `(int)`. The answers equal [`super::jump::jump`]'s (checked over keys × bucket counts);
//! the file shows what adding an algorithm costs: this module, one registry line, one
//! catalog entry per language.

/// The registry's entry. Source: Guava Hashing.consistentHash.
/// Its lookup is told by the bucket it picks; the picture draws the candidates its loop took.
pub static SPEC: crate::engine::spec::Spec = super::jump::bucket_spec("guava", |b| {
    super::jump::buckets(b, guava, Some(guava_path), None)
});

/// The bucket in `0..buckets` for `input` (`Hashing.consistentHash`); `buckets` ≥ 1.
pub fn guava(input: u64, buckets: u32) -> u32 {
    guava_visiting(input, buckets, &mut |_| {})
}

/// The candidates Guava's loop takes for `input`, its answer last: its jumps, told hop by hop
/// as jump's are.
pub fn guava_path(input: u64, buckets: u32) -> Vec<u32> {
    super::jump::collect_path(|visit| guava_visiting(input, buckets, visit))
}

/// [`guava`], telling `visit` each candidate it takes (the answer last).
fn guava_visiting(input: u64, buckets: u32, visit: &mut dyn FnMut(u32)) -> u32 {
    let mut state = input;
    let mut candidate: i32 = 0;
    visit(0);
    loop {
        state = state.wrapping_mul(2862933555777941757).wrapping_add(1);
        let next_double = f64::from(((state >> 33) as i32).wrapping_add(1)) / 2_147_483_648.0;
        // Java's (int) of a double: saturating, as Rust's `as`.
        let next = (f64::from(candidate + 1) / next_double) as i32;
        if next >= 0 && (next as u32) < buckets {
            candidate = next;
            visit(next as u32);
        } else {
            return candidate as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::keys::splitmix64;

    #[test]
    fn equals_guavas_own_test_values() {
        // HashingTest.testConsistentHash_linearCongruentialGeneratorCompatibility.
        let golden100 = [
            0, 55, 62, 8, 45, 59, 86, 97, 82, 59, 73, 37, 17, 56, 86, 21, 90, 37, 38, 83,
        ];
        for (i, &want) in golden100.iter().enumerate() {
            assert_eq!(guava(i as u64, 100), want, "consistentHash({i}, 100)");
        }
        assert_eq!(guava(10863919174838991, 11), 6);
        assert_eq!(guava(2016238256797177309, 11), 3);
        assert_eq!(guava(1673758223894951030, 11), 5);
        assert_eq!(guava(2, 100001), 80343);
        assert_eq!(guava(2201, 100001), 22152);
        assert_eq!(guava(2202, 100001), 15018);
    }

    #[test]
    fn its_path_ends_at_its_answer_and_only_jumps_forward() {
        for key in 0..2_000u64 {
            let input = splitmix64(key);
            for buckets in [1, 2, 7, 8, 100] {
                let path = guava_path(input, buckets);
                assert_eq!(path.first(), Some(&0));
                assert_eq!(path.last(), Some(&guava(input, buckets)));
                assert!(path.windows(2).all(|w| w[0] < w[1]), "{path:?}");
            }
        }
    }

    #[test]
    fn equals_jump_over_keys_and_bucket_counts() {
        let keys = (0..100u64).chain((0..100).map(splitmix64));
        for key in keys {
            for n in [1, 2, 3, 5, 10, 16, 100, 1000, 65536] {
                assert_eq!(
                    guava(key, n),
                    super::super::jump::jump(key, n),
                    "key {key}, {n} buckets"
                );
            }
        }
    }
}
