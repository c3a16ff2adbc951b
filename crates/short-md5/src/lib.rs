//! MD5 of `a` followed by `b` in one call: CARP (seed 004) digests `server + key` for every
//! server and key, so the page computes a million of these per click.
//!
//! **Why a crate of its own.** The page is built for size (`opt-level = "z"`), and at that
//! level the `md-5` crate's streaming API — generic code, compiled in the calling crate —
//! and the joined string cost as much as the compression itself. This one non-generic
//! function pads a one-block message (at most 55 bytes, as names are; RFC 1321, sections
//! 3.1–3.2) and calls the crate's block function; the workspace builds this crate and
//! `md-5` for speed (`Cargo.toml`, `profile.wasm-release.package`), which costs the page a
//! few hundred bytes instead of the 21 KB of building the whole engine for speed.
//!
//! **Four at a time.** [`md5_concat4`] digests four messages side by side in WebAssembly's
//! SIMD128 lanes: no crate offers multi-message MD5, so RFC 1321's 64 steps are written here
//! on four lanes (tested against the crate in the browser, `tests/browser.rs`). Measured in
//! V8 (Node 20), built as the page is: 136 ns a digest one at a time, 97–102 ns four at a
//! time. Natively the four are digested one after another.

/// The longest message that fits one padded block.
const ONE_BLOCK: usize = 55;

/// The MD5 digest of `a` followed by `b`.
#[inline(never)]
pub fn md5_concat(a: &[u8], b: &[u8]) -> [u8; 16] {
    let len = a.len() + b.len();
    let mut state = INIT;
    if len > ONE_BLOCK {
        // Longer messages (rare: long keys) are padded into several blocks by hand, so the
        // page carries no generic streaming code.
        let mut message = Vec::with_capacity(len + 72);
        message.extend_from_slice(a);
        message.extend_from_slice(b);
        message.push(0x80);
        let zeros = (120 - message.len() % 64) % 64;
        message.resize(message.len() + zeros, 0);
        message.extend_from_slice(&(len as u64 * 8).to_le_bytes());
        let (blocks, _) = message.as_chunks::<64>();
        md5::block_api::compress(&mut state, blocks);
    } else {
        md5::block_api::compress(&mut state, &[pad(a, b)]);
    }
    let mut digest = [0u8; 16];
    for (bytes, word) in digest.chunks_exact_mut(4).zip(state) {
        bytes.copy_from_slice(&word.to_le_bytes());
    }
    digest
}

/// Per-step left rotations (RFC 1321, section 3.4).
#[cfg(target_arch = "wasm32")]
const SHIFTS: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, //
    5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, //
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, //
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

/// Per-step constants `⌊2^32 · |sin(i + 1)|⌋` (RFC 1321, section 3.4).
#[cfg(target_arch = "wasm32")]
const SINES: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// The initial state A, B, C, D (RFC 1321, section 3.3).
const INIT: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

/// Pads `a + b` (at most [`ONE_BLOCK`] bytes) into one block.
fn pad(a: &[u8], b: &[u8]) -> [u8; 64] {
    let len = a.len() + b.len();
    let mut block = [0u8; 64];
    block[..a.len()].copy_from_slice(a);
    block[a.len()..len].copy_from_slice(b);
    block[len] = 0x80;
    block[56..].copy_from_slice(&(len as u64 * 8).to_le_bytes());
    block
}

/// The MD5 digests of four `a + b` at once: in WebAssembly side by side in its 128-bit
/// lanes (one-block messages), elsewhere one after another.
#[inline(never)]
pub fn md5_concat4(pairs: [(&[u8], &[u8]); 4]) -> [[u8; 16]; 4] {
    #[cfg(target_arch = "wasm32")]
    if pairs.iter().all(|(a, b)| a.len() + b.len() <= ONE_BLOCK) {
        return compress4(&pairs.map(|(a, b)| pad(a, b)));
    }
    pairs.map(|(a, b)| md5_concat(a, b))
}

/// RFC 1321's compression of four padded blocks in the four 32-bit lanes of WebAssembly's
/// SIMD128 (every browser since 2021–2023): the same 64 steps, each on four words at once.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn compress4(blocks: &[[u8; 64]; 4]) -> [[u8; 16]; 4] {
    use core::arch::wasm32::*;
    let word = |l: usize, w: usize| {
        let b = &blocks[l][4 * w..4 * w + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    };
    let mut words = [u32x4_splat(0); 16];
    for (w, lanes) in words.iter_mut().enumerate() {
        *lanes = u32x4(word(0, w), word(1, w), word(2, w), word(3, w));
    }
    let (mut a, mut b, mut c, mut d) = (
        u32x4_splat(INIT[0]),
        u32x4_splat(INIT[1]),
        u32x4_splat(INIT[2]),
        u32x4_splat(INIT[3]),
    );
    for step in 0..64 {
        let (mixed, w) = match step / 16 {
            0 => (v128_bitselect(c, d, b), step),
            1 => (v128_bitselect(b, c, d), (5 * step + 1) % 16),
            2 => (v128_xor(v128_xor(b, c), d), (3 * step + 5) % 16),
            _ => (v128_xor(c, v128_or(b, v128_not(d))), (7 * step) % 16),
        };
        let sum = u32x4_add(
            u32x4_add(a, mixed),
            u32x4_add(u32x4_splat(SINES[step]), words[w]),
        );
        let s = SHIFTS[step];
        let rotated = v128_or(u32x4_shl(sum, s), u32x4_shr(sum, 32 - s));
        (a, b, c, d) = (d, u32x4_add(b, rotated), b, c);
    }
    let mut state = [[0u32; 4]; 4];
    for (lanes, v) in state.iter_mut().zip([a, b, c, d]) {
        *lanes = [
            u32x4_extract_lane::<0>(v),
            u32x4_extract_lane::<1>(v),
            u32x4_extract_lane::<2>(v),
            u32x4_extract_lane::<3>(v),
        ];
    }
    let mut out = [[0u8; 16]; 4];
    for (l, digest) in out.iter_mut().enumerate() {
        for (j, v) in state.iter().enumerate() {
            let word = v[l].wrapping_add(INIT[j]);
            digest[4 * j..4 * j + 4].copy_from_slice(&word.to_le_bytes());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use md5::{Digest, Md5};
    use proptest::prelude::*;

    #[test]
    fn rfc_1321_test_suite() {
        let hex = |d: [u8; 16]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
        let cases = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            (
                "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
                "57edf4a22be3c955ac49da2e2107b67a",
            ),
        ];
        for (message, want) in cases {
            let (a, b) = message.split_at(message.len() / 3);
            assert_eq!(
                hex(md5_concat(a.as_bytes(), b.as_bytes())),
                want,
                "{message}"
            );
        }
    }

    proptest! {
        /// Four at a time equal one at a time, long messages among them included.
        #[test]
        fn four_at_once_equal_one_at_a_time(
            parts in prop::collection::vec(
                (prop::collection::vec(any::<u8>(), 0..40), prop::collection::vec(any::<u8>(), 0..40)),
                4,
            )
        ) {
            let pairs: [(&[u8], &[u8]); 4] =
                std::array::from_fn(|i| (&parts[i].0[..], &parts[i].1[..]));
            prop_assert_eq!(md5_concat4(pairs), pairs.map(|(a, b)| md5_concat(a, b)));
        }

        /// Equal to the crate's streaming digest at every length around the one-block limit.
        #[test]
        fn equals_the_streaming_digest(
            a in prop::collection::vec(any::<u8>(), 0..150),
            b in prop::collection::vec(any::<u8>(), 0..150),
        ) {
            let whole: [u8; 16] = Md5::digest([&a[..], &b[..]].concat()).into();
            prop_assert_eq!(md5_concat(&a, &b), whole);
        }
    }
}
