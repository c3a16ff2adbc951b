//! Hash functions that place keys and virtual nodes on the 0..2^32 ring.
//!
//! Each seed post uses its own hash, and reproducing a seed's numbers means using exactly
//! that hash, bit for bit. The seed-specific variants (`java-string`, `fnv-hutool`,
//! `murmur64a-seed`) are written here by hand because no crate computes them; the standard
//! ones (`md5`, `xxh3`, `crc16`) come from well-kept crates.
//!
//! **Signed vs unsigned order.** The seeds' Java rings keep positions as signed `int`s in a
//! `TreeMap`, so their "circle" runs from −2^31 up to 2^31−1. We keep the same 32 bits as a
//! `u32`, which runs 0..2^32−1. Reinterpreting the bits moves the negative half after the
//! positive half: the circle is *rotated* by 2^31, but the cyclic order of every pair of
//! points is unchanged, so every "first node clockwise at or after the key" answer, and
//! therefore every count, is identical to the seeds'.

use std::fmt;

/// A hash function that maps a key string to a ring position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashFn {
    /// Java `String.hashCode` over UTF-16 code units, then `h ^ (h >>> 16)` as
    /// `java.util.HashMap` spreads it (seed 002).
    JavaString,
    /// The "FNV1" of Hutool's `HashUtil.fnvHash` (seeds 001 and 003): FNV-1 over UTF-16
    /// code units, five extra shift/add mixing steps on `i32`, then Java's `Math.abs`
    /// (so `i32::MIN` stays negative, as in Java).
    FnvHutool,
    /// Seed 000's Java MurmurHash64A: seed `0x1234ABCD`, over the UTF-8 bytes,
    /// little-endian 8-byte blocks, tail zero-padded to 8 bytes and mixed as one word;
    /// the position is the low 32 bits.
    Murmur64aSeed,
    /// Ketama style MD5: the first four digest bytes as a little-endian `u32`.
    Md5,
    /// The low 32 bits of XXH3-64 of the UTF-8 bytes: a fast modern default.
    Xxh3,
    /// A decimal integer key maps to its own value; for readable fixtures and the
    /// "key % N" teaching example of seed 000. Non-integer keys are an error.
    Identity,
    /// Redis Cluster's CRC16-XMODEM of the key, or of its hash tag (the part between the
    /// first `{` and the next `}` when that part is non-empty). The 16-bit value is shifted
    /// into the top half of the position (`crc << 16`) so it spans the whole circle.
    Crc16,
}

/// Why a key could not be hashed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashError {
    /// The key that was rejected.
    pub key: String,
    /// The largest key the algorithm takes: 2³² − 1 where the key's value is its ring
    /// position, 2⁶⁴ − 1 where the algorithm places by the key's 64-bit value (jump's
    /// family, Maglev).
    pub max: u64,
}

impl fmt::Display for HashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the identity hash needs decimal integer keys in 0..={}, got '{}'",
            self.max, self.key
        )
    }
}

impl std::error::Error for HashError {}

impl From<HashError> for crate::problem::Problem {
    fn from(e: HashError) -> Self {
        crate::problem::Problem::IdentityNeedsInteger {
            max: e.max,
            given: format!("'{}'", e.key),
        }
    }
}

impl HashFn {
    /// Every hash, in the order the page and the CLI list them.
    pub const ALL: [HashFn; 7] = [
        HashFn::Xxh3,
        HashFn::Murmur64aSeed,
        HashFn::FnvHutool,
        HashFn::JavaString,
        HashFn::Md5,
        HashFn::Crc16,
        HashFn::Identity,
    ];

    /// The name used on the command line and in URLs.
    pub fn name(self) -> &'static str {
        match self {
            HashFn::JavaString => "java-string",
            HashFn::FnvHutool => "fnv-hutool",
            HashFn::Murmur64aSeed => "murmur64a-seed",
            HashFn::Md5 => "md5",
            HashFn::Xxh3 => "xxh3",
            HashFn::Identity => "identity",
            HashFn::Crc16 => "crc16",
        }
    }

    /// Parses a name from [`HashFn::name`].
    pub fn from_name(name: &str) -> Option<HashFn> {
        HashFn::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The names of all hashes, comma separated, for error messages.
    pub fn names() -> String {
        HashFn::ALL.map(HashFn::name).join(", ")
    }

    /// The ring position of `key`. Only [`HashFn::Identity`] can fail.
    pub fn position(self, key: &str) -> Result<u32, HashError> {
        Ok(match self {
            HashFn::JavaString => java_string_spread(key),
            HashFn::FnvHutool => fnv_hutool(key),
            HashFn::Murmur64aSeed => murmur64a_seed(key.as_bytes()),
            HashFn::Md5 => md5_ketama(key.as_bytes()),
            HashFn::Xxh3 => xxhash_rust::xxh3::xxh3_64(key.as_bytes()) as u32,
            HashFn::Identity => identity(key)?,
            HashFn::Crc16 => u32::from(redis_crc16(key.as_bytes())) << 16,
        })
    }
}

/// Java's `String.hashCode()` over UTF-16 code units.
pub fn java_string_hash_code(key: &str) -> i32 {
    key.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)))
}

/// `HashMap.hash`: `h ^ (h >>> 16)` of `String.hashCode()` (seed 002).
pub fn java_string_spread(key: &str) -> u32 {
    let h = java_string_hash_code(key) as u32;
    h ^ (h >> 16)
}

/// Hutool's `HashUtil.fnvHash(String)` as copied in seeds 001 and 003.
pub fn fnv_hutool(key: &str) -> u32 {
    const P: i32 = 16_777_619;
    let mut hash = 2_166_136_261u32 as i32;
    for c in key.encode_utf16() {
        hash = (hash ^ i32::from(c)).wrapping_mul(P);
    }
    // `>>` on i32 is arithmetic, exactly like Java's `>>`.
    hash = hash.wrapping_add(hash << 13);
    hash ^= hash >> 7;
    hash = hash.wrapping_add(hash << 3);
    hash ^= hash >> 17;
    hash = hash.wrapping_add(hash << 5);
    // Java's Math.abs(Integer.MIN_VALUE) is Integer.MIN_VALUE; wrapping_abs matches.
    hash.wrapping_abs() as u32
}

/// Seed 000's MurmurHash64A (Java, `ByteBuffer` in little-endian order), low 32 bits.
pub fn murmur64a_seed(data: &[u8]) -> u32 {
    const SEED: u64 = 0x1234_ABCD;
    const M: u64 = 0xc6a4_a793_5bd1_e995;
    const R: u32 = 47;
    let mut h = SEED ^ (data.len() as u64).wrapping_mul(M);
    let mut blocks = data.chunks_exact(8);
    for block in &mut blocks {
        let mut k = u64::from_le_bytes(block.try_into().expect("chunks_exact(8)"));
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h ^= k;
        h = h.wrapping_mul(M);
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let mut padded = [0u8; 8];
        padded[..tail.len()].copy_from_slice(tail);
        h ^= u64::from_le_bytes(padded);
        h = h.wrapping_mul(M);
    }
    h ^= h >> R;
    h = h.wrapping_mul(M);
    h ^= h >> R;
    h as u32
}

/// The MD5 digest of `data`.
pub fn md5_digest(data: &[u8]) -> [u8; 16] {
    short_md5::md5_concat(data, &[])
}

/// Ketama's position: the first four MD5 digest bytes, little-endian.
pub fn md5_ketama(data: &[u8]) -> u32 {
    let d = md5_digest(data);
    u32::from_le_bytes([d[0], d[1], d[2], d[3]])
}

/// twemproxy's `fnv1a_64` (its pools' default `hash:`, `hashkit/nc_fnv.c`): FNV-1a with the
/// 64-bit offset basis and prime cut to 32 bits, over the key's bytes read as C `char`s —
/// signed, so a byte ≥ 0x80 is sign-extended before the xor.
pub fn fnv1a_64_twemproxy(data: &[u8]) -> u32 {
    const BASIS: u32 = 0xcbf2_9ce4_8422_2325_u64 as u32;
    const PRIME: u32 = 0x0100_0000_01b3_u64 as u32;
    data.iter().fold(BASIS, |hash, &b| {
        (hash ^ (b as i8 as i32 as u32)).wrapping_mul(PRIME)
    })
}

/// The part of a Redis key that is hashed: the hash tag between the first `{` and the
/// next `}` when it is non-empty, otherwise the whole key.
pub fn redis_hash_tag(key: &[u8]) -> &[u8] {
    if let Some(open) = key.iter().position(|&b| b == b'{') {
        if let Some(len) = key[open + 1..].iter().position(|&b| b == b'}') {
            if len > 0 {
                return &key[open + 1..open + 1 + len];
            }
        }
    }
    key
}

/// CRC16-XMODEM of the key's hash tag, as Redis Cluster computes it.
pub fn redis_crc16(key: &[u8]) -> u16 {
    super::crc::crc16_xmodem(redis_hash_tag(key))
}

/// Number of hash slots in Redis Cluster.
pub const SLOT_COUNT: u32 = 16_384;

/// The Redis Cluster hash slot of a key: `CRC16(tag) mod 16384`.
pub fn redis_slot(key: &str) -> u16 {
    redis_crc16(key.as_bytes()) % SLOT_COUNT as u16
}

fn identity(key: &str) -> Result<u32, HashError> {
    let digits_only = !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit());
    digits_only
        .then(|| key.parse::<u32>().ok())
        .flatten()
        .ok_or_else(|| HashError {
            key: key.chars().take(40).collect(),
            max: u64::from(u32::MAX),
        })
}

/// The 64-bit digest jump (and the other bucket algorithms) hash: xxh3-64 of the key, or
/// under the identity hash the key's own integer value.
pub fn key_digest(hash: HashFn, key: &str) -> u64 {
    match hash {
        HashFn::Identity => key.trim().parse::<u64>().unwrap_or(0),
        _ => xxhash_rust::xxh3::xxh3_64(key.as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every slot Debian's redis-server 7.0 gave with CLUSTER KEYSLOT
    /// (tools/redis-vectors.py): plain keys, hash tags, empty and unclosed tags, high bytes.
    #[test]
    fn equals_redis_cluster_keyslot() {
        let vectors = include_str!("../../tests/reference/redis-keyslot.txt");
        let mut checked = 0;
        for line in vectors.lines().filter(|l| !l.starts_with('#')) {
            let (hex, want) = line.split_once(' ').unwrap();
            let key: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            assert_eq!(
                redis_crc16(&key) % SLOT_COUNT as u16,
                want.parse::<u16>().unwrap(),
                "{hex}"
            );
            checked += 1;
        }
        assert!(checked > 1_200, "{checked}");
    }

    #[test]
    fn java_hash_code_matches_java() {
        // "hello".hashCode() == 99162322 in Java.
        assert_eq!(java_string_hash_code("hello"), 99_162_322);
        assert_eq!(java_string_hash_code(""), 0);
    }

    #[test]
    fn redis_slot_vectors() {
        assert_eq!(redis_crc16(b"123456789"), 0x31C3);
        assert_eq!(redis_slot("somekey"), 11058);
        assert_eq!(redis_slot("{user1}.following"), 8106);
        assert_eq!(redis_slot("{user1}.followers"), 8106);
        // An empty tag means the whole key is hashed.
        assert_eq!(redis_hash_tag(b"{}abc"), b"{}abc");
        assert_eq!(redis_hash_tag(b"a{b}c{d}"), b"b");
    }

    #[test]
    fn identity_accepts_only_decimal_u32() {
        assert_eq!(HashFn::Identity.position("42"), Ok(42));
        assert_eq!(HashFn::Identity.position("4294967295"), Ok(u32::MAX));
        assert!(HashFn::Identity.position("4294967296").is_err());
        assert!(HashFn::Identity.position("-1").is_err());
        assert!(HashFn::Identity.position("+1").is_err());
        assert!(HashFn::Identity.position("").is_err());
        let err = HashFn::Identity.position("abc").unwrap_err();
        assert!(err.to_string().contains("'abc'"));
    }

    #[test]
    fn names_round_trip() {
        for h in HashFn::ALL {
            assert_eq!(HashFn::from_name(h.name()), Some(h));
        }
        assert_eq!(HashFn::from_name("sha1"), None);
    }
}
