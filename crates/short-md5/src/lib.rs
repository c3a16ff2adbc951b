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

use md5::{Digest, Md5};

/// The longest message that fits one padded block.
const ONE_BLOCK: usize = 55;

/// The MD5 digest of `a` followed by `b`.
#[inline(never)]
pub fn md5_concat(a: &[u8], b: &[u8]) -> [u8; 16] {
    let len = a.len() + b.len();
    if len > ONE_BLOCK {
        let mut hasher = Md5::new();
        hasher.update(a);
        hasher.update(b);
        return hasher.finalize().into();
    }
    let mut block = [0u8; 64];
    block[..a.len()].copy_from_slice(a);
    block[a.len()..len].copy_from_slice(b);
    block[len] = 0x80;
    block[56..].copy_from_slice(&(len as u64 * 8).to_le_bytes());
    let mut state = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    md5::block_api::compress(&mut state, &[block]);
    let mut digest = [0u8; 16];
    for (bytes, word) in digest.chunks_exact_mut(4).zip(state) {
        bytes.copy_from_slice(&word.to_le_bytes());
    }
    digest
}

#[cfg(test)]
mod tests {
    use super::*;
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
        /// Equal to the crate's streaming digest at every length around the one-block limit.
        #[test]
        fn equals_the_streaming_digest(
            a in prop::collection::vec(any::<u8>(), 0..40),
            b in prop::collection::vec(any::<u8>(), 0..40),
        ) {
            let whole: [u8; 16] = Md5::digest([&a[..], &b[..]].concat()).into();
            prop_assert_eq!(md5_concat(&a, &b), whole);
        }
    }
}
