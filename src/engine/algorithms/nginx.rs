//! nginx's `hash $key consistent` (nginx 1.22,
//! `src/http/modules/ngx_http_upstream_hash_module.c`: `ngx_http_upstream_init_chash`,
//! `ngx_http_upstream_find_chash_point`, `ngx_http_upstream_get_chash_peer`), bit for bit.
//!
//! - Each `server` line is hashed **as written**: split at a final `:digits` into host and
//!   port (no port ⇒ an empty one; a `unix:` prefix ⇒ the path, no port), so `host` and
//!   `host:80` place differently. The server's name here is that line's address.
//! - The server gets `160 × weight` points (weights are whole numbers): point `j` is
//!   `crc32(host ‖ 0x00 ‖ port ‖ prev)`, `prev` being point `j − 1` as 4 little-endian
//!   bytes (0 for the first) — Cache::Memcached::Fast's continuum.
//! - The points are sorted and equal ones dropped (the first kept; nginx's `qsort` leaves
//!   which one unspecified — for 32-bit CRCs a collision is a few in 10⁴ clusters).
//! - A key goes to the first point at or above `crc32(key)`, wrapping past the last.
//! - A server marked `down` keeps its points and is passed over: the key walks on to the
//!   next point. Here a down server's points are left out, which is the same walk except
//!   where one of its points had hidden an equal point of another server.
//!
//! `tests/reference/nginx.txt` holds what Debian's nginx 1.22.1 answered on loopback for
//! 2,004 keys × 4 upstreams (unequal weights, a server added, one `down`, ten servers),
//! written by `tools/nginx-vectors.py`; a test replays them.

use std::rc::Rc;

use crate::engine::contract::Placement;
use crate::engine::ring::{Ring, VNode};
use crate::engine::spec::{whole_weights, Build, KeyHash, Knobs, Moves, Spec};
use crate::problem::Problem;

/// The registry's entry. Source: nginx ngx_http_upstream_hash_module: hash $key consistent, a CRC32 continuum.
pub static SPEC: Spec = super::ring::ring_spec(
    "nginx",
    Knobs {
        weights: true,
        ..Knobs::NONE
    },
    Moves::Minimal,
    KeyHash {
        name: "crc32",
        hash: |key, _| crc32(key),
    },
    whole_weights,
    build,
);

/// Points per unit of weight.
pub const POINTS_PER_WEIGHT: u32 = 160;

/// nginx's `ngx_crc32_long`: the standard (zlib) CRC-32 of the key's bytes.
pub fn crc32(key: &str) -> u32 {
    crate::engine::crc::crc32(key.as_bytes())
}

/// The host and port nginx hashes for a server line: split at a final `:digits`; `unix:`
/// sockets have no port.
pub fn host_and_port(server: &str) -> (&str, &str) {
    if server.len() >= 5 && server[..5].eq_ignore_ascii_case("unix:") {
        return (&server[5..], "");
    }
    let digits = server.bytes().rev().take_while(u8::is_ascii_digit).count();
    let cut = server.len() - digits;
    match server[..cut].strip_suffix(':') {
        Some(host) => (host, &server[cut..]),
        None => (server, ""),
    }
}

/// The `160 × weight` points of one server line.
pub fn server_points(server: &str, weight: u32) -> impl Iterator<Item = u32> {
    let (host, port) = host_and_port(server);
    use crate::engine::crc::crc32_update;
    let base = crc32_update(
        crc32_update(crc32_update(!0, host.as_bytes()), &[0]),
        port.as_bytes(),
    );
    let mut prev = 0u32;
    (0..weight * POINTS_PER_WEIGHT).map(move |_| {
        prev = !crc32_update(base, &prev.to_le_bytes());
        prev
    })
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    let mut points: Vec<VNode> = Vec::new();
    for s in &b.live {
        let weight = (s.weight.round() as u32).max(1);
        points.extend(
            server_points(&s.name, weight)
                .enumerate()
                .map(|(j, position)| VNode {
                    position,
                    server: s.id,
                    replica: j as u32,
                }),
        );
    }
    // Sorted by position, the first of equal points kept (stable: the server listed first).
    crate::engine::order::sort_by_key(&mut points, |p| u64::from(p.position));
    points.dedup_by_key(|p| p.position);
    Ok(Rc::new(Ring::new(points, &|id| b.name_of(id))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_line_is_split_as_nginx_splits_it() {
        assert_eq!(host_and_port("127.0.0.1:8080"), ("127.0.0.1", "8080"));
        assert_eq!(host_and_port("backend"), ("backend", ""));
        assert_eq!(host_and_port("backend:http"), ("backend:http", ""));
        assert_eq!(host_and_port("[::1]:80"), ("[::1]", "80"));
        assert_eq!(host_and_port("UNIX:/tmp/s.sock"), ("/tmp/s.sock", ""));
        assert_eq!(crc32("123456789"), 0xCBF4_3926);
    }

    /// Every answer Debian's nginx 1.22.1 gave on loopback (tools/nginx-vectors.py).
    #[test]
    fn equals_nginx_on_every_recorded_key() {
        let vectors = include_str!("../../../tests/reference/nginx.txt");
        let (scenarios, checked) = super::super::recorded::replay_recorded(vectors, |w| {
            let mut pairs = vec![("algo", "nginx".into()), ("nodes", w[0].to_owned())];
            pairs.push(("down", w.get(1).copied().unwrap_or("").to_owned()));
            pairs
        });
        assert_eq!(scenarios, 4);
        assert!(checked > 8_000, "{checked}");
    }
}
