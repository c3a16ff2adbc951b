//! Ceph's placement of an object, bit for bit with Ceph 16.2 (`osdmaptool
//! --test-map-object`): two levels, object → placement group → OSD.
//!
//! 1. **Object → PG.** The object's name is hashed with Jenkins' string hash
//!    (`ceph_str_hash_rjenkins`, `src/common/ceph_hash.cc`), and the hash is folded onto the
//!    pool's `pg_num` groups by `ceph_stable_mod`: `x & mask` when that is below `pg_num`,
//!    else `x & (mask >> 1)` — so `pg_num` need not be a power of two, and raising it by one
//!    splits one group, moving half of its objects and no others.
//! 2. **PG → OSD.** The group's seed (`crush_hash32_2(pg, pool)`, the pool's `hashpspool`
//!    flag) is placed by CRUSH: a flat map (one root bucket holding the OSDs) with a
//!    **straw2** bucket, the rule `choose firstn 0 type osd`, the jewel tunables. Every OSD
//!    draws `ln(u) / weight` with `u` = 16 bits of `crush_hash32_3(seed, osd id, r)`, `ln`
//!    from `crush_ln`'s fixed-point tables and the CRUSH weight in 16.16 fixed point; the
//!    highest draw wins. An OSD marked *out* (our *down*) stays in the bucket and still
//!    draws: when it wins, the win is rejected and the draw repeated with `r + 1` (up to 51
//!    tries) — not the same as CRUSH weight 0, which never wins. The primary (the first of
//!    the acting set) is the owner here; the other replicas are not drawn.
//!
//! Choices: the pool is pool 1 and `pgp_num = pg_num`; a server named `osd.N` is OSD `N`,
//! any other name gets a fixed id from its name's hash (so a change never renumbers the
//! others). Its shape is the table's cells: each placement group a cell of the circle, in
//! its OSD's colour, a key inside its group's cell.
//!
//! The command line's only, for now: in the page's build it would cost 6.0 KB gzip against
//! the 365 B left in the page's budget, so this module, its registry line and its words are
//! `#[cfg(not(target_arch = "wasm32"))]` (docs/REAL-SYSTEMS.md, "Not yet").

use std::rc::Rc;

use super::maglev::{cell_ring, position_in_cell};
use crate::engine::contract::{Explanation, How, Placement, Score};
use crate::engine::ring::{Ring, ServerId, NO_OWNER};
use crate::engine::spec::{no_check, Build, KeyHash, Knobs, Memory, Moves, Params, Shape, Spec};
use crate::problem::Problem;

/// The registry's entry. Source: Ceph 16.2 (`src/crush/mapper.c`, `src/common/ceph_hash.cc`,
/// `src/osd/osd_types.cc`).
pub static SPEC: Spec = Spec {
    id: "ceph",
    knobs: Knobs {
        weights: true,
        pg_num: true,
        ..Knobs::NONE
    },
    shape: Shape::TableCells,
    memory: Memory::Nothing,
    moves: Moves::Minimal,
    over_ring: None,
    table_fill: None,
    arcs: true,
    scores_every_server: false,
    key_value: None,
    key_hash: Some(KeyHash {
        name: "rjenkins",
        hash: key_position,
    }),
    cost: super::ring::lookup_cost,
    check: no_check,
    build,
};

/// A pool's placement groups when none are given (Ceph's `osd_pool_default_pg_num`).
pub const DEFAULT_PG_NUM: u32 = 32;

/// The pool every object is placed in (the first pool `osdmaptool --createsimple` makes).
pub const POOL: u32 = 1;

/// The replicas a pool keeps (Ceph's default `osd_pool_default_size`): the explanation
/// names the other two; placement here is the primary's.
pub const POOL_SIZE: u32 = 3;

/// CRUSH's retries after an out OSD won (`choose_total_tries` 50, plus the first try).
const TRIES: u32 = 51;

/// Jenkins' 96-bit mix, as CRUSH and `ceph_str_hash_rjenkins` write it.
fn mix(a: &mut u32, b: &mut u32, c: &mut u32) {
    for (s1, s2, s3) in [(13, 8, 13), (12, 16, 5), (3, 10, 15)] {
        *a = a.wrapping_sub(*b).wrapping_sub(*c) ^ (*c >> s1);
        *b = b.wrapping_sub(*c).wrapping_sub(*a) ^ (*a << s2);
        *c = c.wrapping_sub(*a).wrapping_sub(*b) ^ (*b >> s3);
    }
}

/// `ceph_str_hash_rjenkins`: an object name's 32-bit hash.
pub fn str_hash(name: &[u8]) -> u32 {
    let word = |k: &[u8]| {
        let mut w = [0u8; 4];
        w[..k.len()].copy_from_slice(k);
        u32::from_le_bytes(w)
    };
    let (mut a, mut b, mut c) = (0x9e37_79b9u32, 0x9e37_79b9u32, 0u32);
    let mut rest = name;
    while rest.len() >= 12 {
        a = a.wrapping_add(word(&rest[0..4]));
        b = b.wrapping_add(word(&rest[4..8]));
        c = c.wrapping_add(word(&rest[8..12]));
        mix(&mut a, &mut b, &mut c);
        rest = &rest[12..];
    }
    // The last 11 bytes: a, b as whole little-endian words; c's low byte is the length.
    c = c.wrapping_add(name.len() as u32);
    a = a.wrapping_add(word(&rest[..rest.len().min(4)]));
    b = b.wrapping_add(word(&rest[rest.len().min(4)..rest.len().min(8)]));
    c = c.wrapping_add(word(&rest[rest.len().min(8)..]) << 8);
    mix(&mut a, &mut b, &mut c);
    c
}

/// `crush_hash32_rjenkins1_2`.
pub fn hash2(mut a: u32, mut b: u32) -> u32 {
    let mut h = 1_315_423_911 ^ a ^ b;
    let (mut x, mut y) = (231_232u32, 1232u32);
    mix(&mut a, &mut b, &mut h);
    mix(&mut x, &mut a, &mut h);
    mix(&mut b, &mut y, &mut h);
    h
}

/// `crush_hash32_rjenkins1_3`.
pub fn hash3(mut a: u32, mut b: u32, mut c: u32) -> u32 {
    let mut h = 1_315_423_911 ^ a ^ b ^ c;
    let (mut x, mut y) = (231_232u32, 1232u32);
    mix(&mut a, &mut b, &mut h);
    mix(&mut c, &mut x, &mut h);
    mix(&mut y, &mut a, &mut h);
    mix(&mut b, &mut x, &mut h);
    mix(&mut y, &mut c, &mut h);
    h
}

/// `ceph_stable_mod`: `x` folded onto `b` groups, `mask` being the next power of two less
/// one.
pub fn stable_mod(x: u32, b: u32, mask: u32) -> u32 {
    if x & mask < b {
        x & mask
    } else {
        x & (mask >> 1)
    }
}

/// The pool's `pg_num_mask`: the smallest power of two at or above `pg_num`, less one.
pub fn pg_mask(pg_num: u32) -> u32 {
    pg_num.max(1).next_power_of_two() - 1
}

/// The placement group of an object named `name` among `pg_num`.
pub fn pg_of(name: &str, pg_num: u32) -> u32 {
    stable_mod(str_hash(name.as_bytes()), pg_num, pg_mask(pg_num))
}

/// Where a key is drawn: inside its placement group's cell.
fn key_position(key: &str, params: &Params<'_>) -> u32 {
    let ps = str_hash(key.as_bytes());
    let pg = stable_mod(ps, params.table, pg_mask(params.table));
    position_in_cell(u64::from(pg), params.table, u64::from(ps))
}

/// `crush_ln`: 2⁴⁴·log2(x + 1) for x in 0..=0xffff, in Ceph's fixed point and from its
/// tables (`src/crush/crush_ln_table.h`).
pub fn crush_ln(xin: u32) -> u64 {
    let mut x = xin + 1;
    let mut exponent = 15u64;
    if x & 0x18000 == 0 {
        let bits = (x & 0x1ffff).leading_zeros() - 16;
        x <<= bits;
        exponent = 15 - u64::from(bits);
    }
    let k = (x >> 8) as usize - 128;
    // RH = ⌈2⁵⁵ / (128 + k)⌉: the table's values, exactly.
    let rh = (1u64 << 55).div_ceil(128 + k as u64);
    let index2 = ((u64::from(x) * rh) >> 48) as usize & 0xff;
    (exponent << 44) + ((LH[k] + LL[index2]) >> 4)
}

/// A straw2 draw: `ln(u) / weight` in Ceph's fixed point (the highest wins; `i64::MIN`
/// for weight 0).
pub fn straw2_draw(x: u32, id: u32, r: u32, weight: u32) -> i64 {
    if weight == 0 {
        return i64::MIN;
    }
    let u = hash3(x, id, r) & 0xffff;
    let ln = crush_ln(u) as i64 - 0x1_0000_0000_0000;
    ln / i64::from(weight)
}

/// The CRUSH id of a server: `N` for `osd.N`, else its name's hash (below 2³¹, as OSD ids
/// are).
pub fn osd_id(name: &str) -> u32 {
    name.strip_prefix("osd.")
        .filter(|n| n.bytes().all(|b| b.is_ascii_digit()) && (*n == "0" || !n.starts_with('0')))
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|&n| n < 1 << 31)
        .unwrap_or_else(|| str_hash(name.as_bytes()) & 0x7fff_ffff)
}

/// A server's CRUSH weight in 16.16 fixed point (`crushtool`'s `weight 1.500` → 0x18000).
pub fn crush_weight(weight: f64) -> u32 {
    (weight * 65536.0) as u32
}

/// One OSD of the root bucket.
#[derive(Clone, Copy, Debug)]
struct Osd {
    server: ServerId,
    id: u32,
    weight: u32,
    out: bool,
}

/// Ceph's placement over the OSDs: each placement group's primary OSD, and the groups as
/// cells round the circle.
pub struct Ceph {
    osds: Vec<Osd>,
    pg_num: u32,
    table: Vec<ServerId>,
    ring: Ring,
}

/// One try of CRUSH for a placement group: the winner of every OSD's draw (an index; the
/// first on a tie, as `bucket_straw2_choose` keeps the first).
fn winner(osds: &[Osd], seed: u32, r: u32) -> usize {
    let mut high = (0, i64::MIN);
    for (i, o) in osds.iter().enumerate() {
        let d = straw2_draw(seed, o.id, r, o.weight);
        if i == 0 || d > high.1 {
            high = (i, d);
        }
    }
    high.0
}

impl Ceph {
    /// The placement group's seed for CRUSH (`raw_pg_to_pps` under `hashpspool`).
    fn seed(pg: u32) -> u32 {
        hash2(pg, POOL)
    }

    /// The tries for a placement group's seed: the OSDs that won and were out, then the
    /// draws of the last try and its winner (`None` when every try hit an out OSD).
    fn place(&self, seed: u32) -> (Vec<ServerId>, Vec<i64>, Option<usize>) {
        let mut rejected = Vec::new();
        let mut r = 0;
        let high = loop {
            let high = winner(&self.osds, seed, r);
            let osd = self.osds[high];
            if !osd.out || r + 1 == TRIES {
                break Some(high).filter(|_| !osd.out);
            }
            if !rejected.contains(&osd.server) {
                rejected.push(osd.server);
            }
            r += 1;
        };
        let draws = self
            .osds
            .iter()
            .map(|o| straw2_draw(seed, o.id, r, o.weight))
            .collect();
        (rejected, draws, high)
    }

    /// The primary OSD of a placement group's seed.
    fn primary(&self, seed: u32) -> ServerId {
        self.acting(seed, 1).first().copied().unwrap_or(NO_OWNER)
    }

    /// The acting set of a placement group's seed for a pool of `size` replicas, primary
    /// first: `crush_choose_firstn` over the root — replica `rep` draws with `r = rep +
    /// failures`, and a draw that won an out OSD or one already chosen is drawn again (51
    /// tries in all; a replica without an OSD after them is left out, as Ceph leaves it).
    pub fn acting(&self, seed: u32, size: u32) -> Vec<ServerId> {
        let mut chosen: Vec<ServerId> = Vec::new();
        for rep in 0..size {
            for failures in 0..TRIES {
                let osd = self.osds[winner(&self.osds, seed, rep + failures)];
                if !osd.out && !chosen.contains(&osd.server) {
                    chosen.push(osd.server);
                    break;
                }
            }
        }
        chosen
    }
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    let mut all: Vec<_> = b
        .live
        .iter()
        .map(|s| (s, false))
        .chain(b.down.iter().map(|s| (s, true)))
        .collect();
    all.sort_by_key(|(s, _)| s.slot);
    let osds: Vec<Osd> = all
        .into_iter()
        .map(|(s, out)| Osd {
            server: s.id,
            id: osd_id(&s.name),
            weight: crush_weight(s.weight),
            out,
        })
        .collect();
    let mut ceph = Ceph {
        pg_num: b.params.table,
        table: Vec::new(),
        ring: Ring::default(),
        osds,
    };
    if ceph.osds.iter().any(|o| !o.out) {
        ceph.table = (0..ceph.pg_num)
            .map(|pg| ceph.primary(Ceph::seed(pg)))
            .collect();
        ceph.ring = cell_ring(&ceph.table);
    }
    Ok(Rc::new(ceph))
}

impl Placement for Ceph {
    fn owner(&self, _key: &str, position: u32) -> ServerId {
        self.ring.owner_of(position)
    }

    fn needs_key_name(&self) -> bool {
        false
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        let ps = str_hash(key.as_bytes());
        let pg = stable_mod(ps, self.pg_num, pg_mask(self.pg_num));
        let (rejected, draws, winner) = if self.table.is_empty() {
            (Vec::new(), Vec::new(), None)
        } else {
            self.place(Ceph::seed(pg))
        };
        let replicas = if self.table.is_empty() {
            Vec::new()
        } else {
            self.acting(Ceph::seed(pg), POOL_SIZE).split_off(1)
        };
        Explanation {
            position,
            owner: winner.map_or(NO_OWNER, |i| self.osds[i].server),
            how: How::PlacementGroup {
                hash: ps,
                pg,
                pg_num: self.pg_num,
                rejected,
                replicas,
                draws: self
                    .osds
                    .iter()
                    .zip(draws)
                    .map(|(o, d)| (o.server, Score::Straw2(d)))
                    .collect(),
            },
        }
    }

    fn ring(&self) -> Option<&Ring> {
        Some(&self.ring).filter(|r| !r.is_empty())
    }

    /// The groups' table (as Maglev counts its table) and the bucket's OSDs; the ring of
    /// cells is the picture's.
    fn memory_bytes(&self) -> usize {
        self.table.len() * std::mem::size_of::<ServerId>()
            + self.osds.len() * std::mem::size_of::<Osd>()
    }
}

/// `__RH_LH_tbl[2k + 1]`, k = 0..=128: about 2⁴⁸·log2(1 + k/128) (Ceph's values, read from
/// `libceph-common.so.2` 16.2.15; `tests/reference/ceph-ln-table.txt` keeps the whole table).
#[rustfmt::skip]
const LH: [u64; 129] = [
    0x000000000000, 0x02dfca16dde1, 0x05b9e5a170b4, 0x088e68ea899a,
    0x0b5d69bac77e, 0x0e26fd5c8555, 0x10eb389fa29f, 0x13aa2fdd27f1,
    0x1663f6fac913, 0x1918a16e4633, 0x1bc84240adab, 0x1e72ec117fa5,
    0x2118b119b4f3, 0x23b9a32eaa56, 0x2655d3c4f15c, 0x28ed53f307ee,
    0x2b803473f7ad, 0x2e0e85a9de04, 0x309857a05e07, 0x331dba0efce1,
    0x359ebc5b69d9, 0x381b6d9bb29b, 0x3a93dc9864b2, 0x3d0817ce9cd4,
    0x3f782d7204d0, 0x41e42b6ec0c0, 0x444c1f6b4c2d, 0x46b016ca47c1,
    0x49101eac381c, 0x4b6c43f1366a, 0x4dc4933a9337, 0x501918ec6c11,
    0x5269e12f346e, 0x54b6f7f1325a, 0x570068e7ef5a, 0x59463f919dee,
    0x5b8887367433, 0x5dc74ae9fbec, 0x6002958c5871, 0x623a71cb82c8,
    0x646eea247c5c, 0x66a008e4788c, 0x68cdd829fd81, 0x6af861e5fc7d,
    0x6d1fafdce20a, 0x6f43cba79e40, 0x7164beb4a56d, 0x73829248e961,
    0x759d4f80cba8, 0x77b4ff5108d9, 0x79c9aa879d53, 0x7bdb59cca388,
    0x7dea15a32c1b, 0x7ff5e66a0ffe, 0x81fed45cbccb, 0x8404e793fb81,
    0x86082806b1d5, 0x88089d8a9e47, 0x8a064fd50f2a, 0x8c01467b94bb,
    0x8df988f4ae80, 0x8fef1e987409, 0x91e20ea1393e, 0x93d2602c2e5f,
    0x95c01a39fbd6, 0x97ab43af59f9, 0x9993e355a4e5, 0x9b79ffdb6c8b,
    0x9d5d9fd5010b, 0x9f3ec9bcfb80, 0xa11d83f4c355, 0xa2f9d4c51039,
    0xa4d3c25e68dc, 0xa6ab52d99e76, 0xa8808c384547, 0xaa5374652a1c,
    0xac241134c4e9, 0xadf26865a8a1, 0xafbe7fa0f04d, 0xb1885c7aa982,
    0xb35004723c46, 0xb5157cf2d078, 0xb6d8cb53b0ca, 0xb899f4d8ab63,
    0xba58feb2703a, 0xbc15edfeed32, 0xbdd0c7c9a817, 0xbf89910c1678,
    0xc1404eadf383, 0xc2f5058593d9, 0xc4a7ba58377c, 0xc65871da59dd,
    0xc80730b00016, 0xc9b3fb6d0559, 0xcb5ed69565af, 0xcd07c69d8702,
    0xceaecfea8085, 0xd053f6d26089, 0xd1f73f9c70c0, 0xd398ae817906,
    0xd53847ac00a6, 0xd6d60f388e41, 0xd8720935e643, 0xda0c39a54804,
    0xdba4a47aa996, 0xdd3b4d9cf24b, 0xded038e633f3, 0xe0636a23e2ee,
    0xe1f4e5170d02, 0xe384ad748f0e, 0xe512c6e54998, 0xe69f35065448,
    0xe829fb693044, 0xe9b31d93f98e, 0xeb3a9f019750, 0xecc08321eb30,
    0xee44cd59ffab, 0xefc781043579, 0xf148a170700a, 0xf2c831e44116,
    0xf446359b1353, 0xf5c2afc65447, 0xf73da38d9d4a, 0xf8b7140edbb1,
    0xfa2f045e7832, 0xfba577877d7d, 0xfd1a708bbe11, 0xfe8df263f957,
    0xffff00000000,
];

/// `__LL_tbl[k]`, k = 0..=255: about 2⁴⁸·log2(1 + k/2¹⁵) (Ceph's values, not the formula's:
/// entries from 2 on differ from it, and the table is what placement follows).
#[rustfmt::skip]
const LL: [u64; 256] = [
    0x000000000000, 0x0002e2a60a00, 0x00070cb64ec5, 0x0009ef50ce67,
    0x000cd1e588fd, 0x000fb4747e9c, 0x001296fdaf5e, 0x001579811b58,
    0x00185bfec2a1, 0x001b3e76a552, 0x001e20e8c380, 0x002103551d43,
    0x0023e5bbb2b2, 0x0026c81c83e4, 0x0029aa7790f0, 0x002c8cccd9ed,
    0x002f6f1c5ef2, 0x003251662017, 0x003533aa1d71, 0x003815e8571a,
    0x003af820cd26, 0x003dda537fae, 0x0040bc806ec8, 0x00439ea79a8c,
    0x004680c90310, 0x004962e4a86c, 0x004c44fa8ab6, 0x004f270aaa06,
    0x005209150672, 0x0054eb19a013, 0x0057cd1876fd, 0x005aaf118b4a,
    0x005d9104dd0f, 0x006072f26c64, 0x006354da3960, 0x006636bc441a,
    0x006918988ca8, 0x006bfa6f1322, 0x006edc3fd79f, 0x0071be0ada35,
    0x00749fd01afd, 0x0077818f9a0c, 0x007a6349577a, 0x007d44fd535e,
    0x008026ab8dce, 0x0083085406e3, 0x0085e9f6beb2, 0x0088cb93b552,
    0x008bad2aeadc, 0x008e8ebc5f65, 0x009170481305, 0x009451ce05d3,
    0x0097334e37e5, 0x009a14c8a953, 0x009cf63d5a33, 0x009fd7ac4a9d,
    0x00a2b07f3458, 0x00a59a78ea6a, 0x00a87bd699fb, 0x00ab5d2e8970,
    0x00ae3e80b8e3, 0x00b11fcd2869, 0x00b40113d818, 0x00b6e254c80a,
    0x00b9c38ff853, 0x00bca4c5690c, 0x00bf85f51a4a, 0x00c2671f0c26,
    0x00c548433eb6, 0x00c82961b211, 0x00cb0a7a664d, 0x00cdeb8d5b82,
    0x00d0cc9a91c8, 0x00d3ada20933, 0x00d68ea3c1dd, 0x00d96f9fbbdb,
    0x00dc5095f744, 0x00df31867430, 0x00e2127132b5, 0x00e4f35632ea,
    0x00e7d43574e6, 0x00eab50ef8c1, 0x00ed95e2be90, 0x00f076b0c66c,
    0x00f35779106a, 0x00f6383b9ca2, 0x00f918f86b2a, 0x00fbf9af7c1a,
    0x00feda60cf88, 0x0101bb0c658c, 0x01049bb23e3c, 0x01077c5259af,
    0x010a5cecb7fc, 0x010d3d81593a, 0x01101e103d7f, 0x0112fe9964e4,
    0x0115df1ccf7e, 0x0118bf9a7d64, 0x011ba0126ead, 0x011e8084a371,
    0x012160f11bc6, 0x01244157d7c3, 0x012721b8d77f, 0x012a02141b10,
    0x012ce269a28e, 0x012fc2b96e0f, 0x0132a3037daa, 0x01358347d177,
    0x01386386698c, 0x013b43bf45ff, 0x013e23f266e9, 0x0141041fcc5e,
    0x0143e4477678, 0x0146c469654b, 0x0149a48598f0, 0x014c849c117c,
    0x014f64accf08, 0x015244b7d1a9, 0x015524bd1976, 0x015804bca687,
    0x015ae4b678f2, 0x015dc4aa90ce, 0x0160a498ee31, 0x016384819134,
    0x0166646479ec, 0x01694441a870, 0x016c24191cd7, 0x016df6ca19bd,
    0x0171e3b6d7aa, 0x0174c37d1e44, 0x0177a33dab1c, 0x017a82f87e49,
    0x017d62ad97e2, 0x0180425cf7fe, 0x0182b07f3458, 0x018601aa8c19,
    0x0188e148c046, 0x018bc0e13b52, 0x018ea073fd52, 0x01918001065d,
    0x01945f88568b, 0x01973f09edf2, 0x019a1e85ccaa, 0x019cfdfbf2c8,
    0x019fdd6c6063, 0x01a2bcd71593, 0x01a59c3c126e, 0x01a87b9b570b,
    0x01ab5af4e380, 0x01ae3a48b7e5, 0x01b11996d450, 0x01b3f8df38d9,
    0x01b6d821e595, 0x01b9b75eda9b, 0x01bc96961803, 0x01bf75c79de3,
    0x01c254f36c51, 0x01c534198365, 0x01c81339e336, 0x01caf2548bd9,
    0x01cdd1697d67, 0x01d0b078b7f5, 0x01d38f823b9a, 0x01d66e86086d,
    0x01d94d841e86, 0x01dc2c7c7df9, 0x01df0b6f26df, 0x01e1ea5c194e,
    0x01e4c943555d, 0x01e7a824db23, 0x01ea8700aab5, 0x01ed65d6c42b,
    0x01f044a7279d, 0x01f32371d51f, 0x01f60236ccca, 0x01f8e0f60eb3,
    0x01fbbfaf9af3, 0x01fe9e63719e, 0x02017d1192cc, 0x02045bb9fe94,
    0x02073a5cb50d, 0x0209c06e6212, 0x020cf791026a, 0x020fd622997c,
    0x0212b07f3458, 0x02159334a8d8, 0x021871b52150, 0x021b502fe517,
    0x021d6a73a78f, 0x02210d144eee, 0x0223eb7df52c, 0x0226c9e1e713,
    0x0229a84024bb, 0x022c23679b4e, 0x022f64eb83a8, 0x02324338a51b,
    0x0235218012a9, 0x0237ffc1cc69, 0x023a2c3b0ea4, 0x023d13ee805b,
    0x024035e9221f, 0x0243788faf25, 0x024656b4e735, 0x0247ed646bfe,
    0x024c12ee3d98, 0x024ef1025c1a, 0x0251cf10c799, 0x025492644d65,
    0x02578b1c85ee, 0x025a6919d8f0, 0x025d13ee805b, 0x026025036716,
    0x026296453882, 0x0265e0d62b53, 0x0268beb701f3, 0x026b9c92265e,
    0x026d32f798a9, 0x0271583758eb, 0x02743601673b, 0x027713c5c3b0,
    0x0279f1846e5f, 0x027ccf3d6761, 0x027e6580aecb, 0x02828a9e44b3,
    0x028568462932, 0x0287bdbf5255, 0x028b2384de4a, 0x028d13ee805b,
    0x029035e9221f, 0x029296453882, 0x029699bdfb61, 0x029902a37aab,
    0x029c54b864c9, 0x029deabd1083, 0x02a20f9c0bb5, 0x02a4c7605d61,
    0x02a7bdbf5255, 0x02a96056dafc, 0x02ac3daf14ef, 0x02af1b019eca,
    0x02b296453882, 0x02b5d022d80f, 0x02b8fa471cb3, 0x02ba9012e713,
    0x02bd6d4901cc, 0x02c04a796cf6, 0x02c327a428a6, 0x02c61a5e8f4c,
    0x02c8e1e891f6, 0x02cbbf023fc2, 0x02ce9c163e6e, 0x02d179248e13,
    0x02d4562d2ec6, 0x02d73330209d, 0x02da102d63b0, 0x02dced24f814,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::Scenario;
    use crate::engine::sim::Simulation;

    /// Replays `osdmaptool --test-map-object` (tests/reference/ceph.txt): each object's
    /// placement group, primary OSD and acting set (pool size 3) in five cluster states.
    #[test]
    fn objects_go_where_osdmaptool_puts_them() {
        let text = include_str!("../../../tests/reference/ceph.txt");
        let (mut sim, mut pg_num) = (None, 0);
        let (mut states, mut checked) = (0, 0);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split(' ').collect();
            if words[0] == "scenario" {
                let mut pairs: Vec<(&str, &str)> = vec![("algo", "ceph"), ("keys", "0..1")];
                pairs.extend(words[2..].iter().map(|w| w.split_once('=').unwrap()));
                let s = Scenario::from_pairs(pairs).unwrap();
                pg_num = s.settings.table;
                sim = Some(Simulation::new(&s).unwrap());
                states += 1;
                continue;
            }
            let sim = sim.as_ref().unwrap();
            let pg = u32::from_str_radix(words[1], 16).unwrap();
            assert_eq!(pg_of(words[0], pg_num), pg, "{line}");
            let (_, owner) = sim.lookup(words[0]).unwrap();
            assert_eq!(sim.server(owner).unwrap().name, words[2], "{line}");
            let How::PlacementGroup { replicas, .. } = sim.explain(words[0]).unwrap().how else {
                panic!("{line}: not a placement group's explanation");
            };
            let acting: Vec<&str> = std::iter::once(owner)
                .chain(replicas)
                .map(|id| sim.server(id).unwrap().name.as_str())
                .collect();
            assert_eq!(acting.join(","), words[3], "{line}");
            checked += 1;
        }
        assert_eq!((states, checked), (5, 10_000));
    }

    /// Replays `crushtool --test --show-mappings` (tests/reference/ceph-crushtool.txt):
    /// CRUSH alone, the acting set (pool size 3) for inputs 0..1023 of four maps — unequal
    /// weights, an OSD added, one re-weighted, one out.
    #[test]
    fn crush_maps_inputs_as_crushtool_does() {
        let text = include_str!("../../../tests/reference/ceph-crushtool.txt");
        let (mut ceph, mut names) = (None, Vec::new());
        let (mut maps, mut checked) = (0, 0);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (first, rest) = line.split_once(' ').unwrap();
            if first == "scenario" {
                let s = Scenario::from_pairs(
                    rest.split(' ').skip(1).map(|w| w.split_once('=').unwrap()),
                )
                .unwrap();
                names = s.nodes.iter().map(|n| n.name.clone()).collect();
                let osds = s
                    .nodes
                    .iter()
                    .enumerate()
                    .map(|(i, n)| Osd {
                        server: i as ServerId,
                        id: osd_id(&n.name),
                        weight: crush_weight(n.weight),
                        out: !n.up,
                    })
                    .collect();
                ceph = Some(Ceph {
                    osds,
                    pg_num: 1,
                    table: Vec::new(),
                    ring: Ring::default(),
                });
                maps += 1;
                continue;
            }
            let x: u32 = first.parse().unwrap();
            let acting: Vec<&str> = ceph
                .as_ref()
                .unwrap()
                .acting(x, 3)
                .into_iter()
                .map(|id| names[usize::from(id)].as_str())
                .collect();
            assert_eq!(acting.join(","), rest, "{line}");
            checked += 1;
        }
        assert_eq!((maps, checked), (4, 4096));
    }

    /// The RH column of Ceph's `__RH_LH_tbl` is ⌈2⁵⁵ / (128 + k)⌉, which [`crush_ln`]
    /// computes; the committed table (read from `libceph-common.so.2`) says so, and the
    /// LH and LL columns here are its own.
    #[test]
    fn the_log_tables_are_cephs() {
        let text = include_str!("../../../tests/reference/ceph-ln-table.txt");
        let numbers = |row: &str| -> Vec<u64> {
            let line = text.lines().find(|l| l.starts_with(row)).unwrap();
            line[row.len()..]
                .split_whitespace()
                .map(|v| u64::from_str_radix(v.trim_start_matches("0x"), 16).unwrap())
                .collect()
        };
        let rh_lh = numbers("RH_LH ");
        for k in 0..=128u64 {
            assert_eq!(
                rh_lh[2 * k as usize],
                (1u64 << 55).div_ceil(128 + k),
                "RH[{k}]"
            );
            assert_eq!(rh_lh[2 * k as usize + 1], LH[k as usize], "LH[{k}]");
        }
        assert_eq!(numbers("LL "), LL.to_vec());
    }

    #[test]
    fn stable_mod_folds_onto_any_group_count() {
        // 12 groups: mask 15; 13..15 fold onto 5..7.
        assert_eq!(pg_mask(12), 15);
        assert_eq!(stable_mod(13, 12, 15), 5);
        assert_eq!(stable_mod(11, 12, 15), 11);
        assert_eq!(pg_mask(1), 0);
        assert_eq!(pg_mask(16), 15);
        assert_eq!(pg_mask(17), 31);
    }

    proptest::proptest! {
        /// Raising pg_num by one splits one group: an object changes group only when it was
        /// in the group that splits (`pg_num − mask/2 − 1`, folded) and goes to the new one.
        #[test]
        fn raising_pg_num_splits_only_one_group(name in "[a-z0-9.-]{0,30}", pg_num in 1u32..5000) {
            let (before, after) = (pg_of(&name, pg_num), pg_of(&name, pg_num + 1));
            if before != after {
                proptest::prop_assert_eq!(after, pg_num);
                proptest::prop_assert_eq!(before, pg_num & (pg_mask(pg_num + 1) >> 1));
            }
        }
    }

    #[test]
    fn raising_pg_num_from_12_to_13_moves_half_of_group_4() {
        let names: Vec<String> = (0..20_000).map(|i| format!("object-{i}")).collect();
        let mut moved = 0;
        let in_4 = names.iter().filter(|n| pg_of(n, 12) == 4).count();
        for n in &names {
            if pg_of(n, 12) != pg_of(n, 13) {
                assert_eq!((pg_of(n, 12), pg_of(n, 13)), (4, 12), "{n}");
                moved += 1;
            }
        }
        // Half of group 4's objects, give or take the draw.
        assert!(
            (moved as f64 / in_4 as f64 - 0.5).abs() < 0.05,
            "{moved} of {in_4}"
        );
    }

    #[test]
    fn an_out_osd_is_drawn_again_but_weight_zero_never_wins() {
        let osds = |out: bool| {
            (0..4)
                .map(|i| Osd {
                    server: i as ServerId,
                    id: i,
                    weight: if i == 3 && !out { 0 } else { 0x10000 },
                    out: out && i == 3,
                })
                .collect::<Vec<_>>()
        };
        let ceph = |osds| Ceph {
            osds,
            pg_num: 1,
            table: vec![0],
            ring: Ring::default(),
        };
        let (out, zero) = (ceph(osds(true)), ceph(osds(false)));
        let mut differ = 0;
        for seed in 0..5000 {
            let a = out.primary(seed);
            assert_ne!(a, 3);
            assert_ne!(zero.primary(seed), 3);
            differ += usize::from(a != zero.primary(seed));
        }
        // Out is rejected after the draw (the retry with r + 1 may pick anyone); weight
        // 0 is left out of the draw: the two agree only where osd.3 would not have won.
        assert!(differ > 0);
    }
}
