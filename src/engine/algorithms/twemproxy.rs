//! twemproxy (nutcracker) with `distribution: ketama` (`hashkit/nc_ketama.c`
//! `ketama_update`, `ketama_dispatch`; `nc_conf.c` `conf_add_server`): libmemcached's
//! weighted continuum (the same 160 points a server of average weight, MD5 of `NAME-k`, four
//! points a digest — [`super::ketama`] builds it), looked up with the pool's key hash, which
//! by default is **not** MD5 but `fnv1a_64` — FNV-1a cut to 32 bits over signed `char`s
//! ([`fnv1a_64_twemproxy`]). So a client that hashes keys with libmemcached's MD5 disagrees
//! with twemproxy on most keys unless the pool says `hash: md5` (then it is `algo=ketama`).
//!
//! A server line `host:port:weight [name]` is hashed by its name when one is given, else by
//! `host` on port 11211 and `host:port` otherwise — the scenario's node is that name, or
//! `host:port`.
//!
//! `tests/reference/twemproxy.txt` holds what Debian's nutcracker 0.5.0 answered on loopback
//! for 2,004 keys × 5 pools (weights, names, a server added, port 11211, `hash: md5`),
//! written by `tools/twemproxy-vectors.py`; a test replays them.

use crate::engine::hash::fnv1a_64_twemproxy;
use crate::engine::spec::{KeyHash, Knobs, Moves, Spec};

/// The registry's entry. Source: twemproxy (nutcracker) distribution ketama, hash fnv1a_64 (FNV-1a cut to 32 bits): the ketama continuum, its default key hash.
pub static SPEC: Spec = super::ring::ring_spec(
    "twemproxy",
    Knobs {
        weights: true,
        ..Knobs::NONE
    },
    Moves::Remaps,
    KeyHash {
        name: "fnv1a_64 (twemproxy)",
        hash: |key, _| fnv1a_64_twemproxy(key.as_bytes()),
    },
    crate::engine::spec::whole_weights,
    super::ketama::build,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_hash_is_fnv1a_cut_to_32_bits_over_signed_chars() {
        // FNV-1a 32 of "" is its basis; the 64-bit basis cut to 32 bits is 0x84222325.
        assert_eq!(fnv1a_64_twemproxy(b""), 0x8422_2325);
        assert_eq!(
            fnv1a_64_twemproxy(b"a"),
            (0x8422_2325 ^ 0x61_u32).wrapping_mul(0x1b3)
        );
        // 0xFF is the char -1: the xor takes 0xFFFFFFFF, not 0xFF.
        assert_eq!(
            fnv1a_64_twemproxy(&[0xFF]),
            (0x8422_2325 ^ u32::MAX).wrapping_mul(0x1b3)
        );
    }

    /// Every answer Debian's nutcracker 0.5.0 gave on loopback (tools/twemproxy-vectors.py);
    /// the `hash: md5` pool is libmemcached's ketama.
    #[test]
    fn equals_twemproxy_on_every_recorded_key() {
        let vectors = include_str!("../../../tests/reference/twemproxy.txt");
        let (scenarios, checked) = super::super::recorded::replay_recorded(vectors, |w| {
            let algo = if w[0] == "md5" { "ketama" } else { "twemproxy" };
            vec![("algo", algo.into()), ("nodes", w[1].to_owned())]
        });
        assert_eq!(scenarios, 5);
        assert!(checked > 10_000, "{checked}");
    }
}
