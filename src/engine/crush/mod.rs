//! CRUSH, Ceph's placement function, as Ceph 16 computes it: its Jenkins hashes
//! (`crush_hash32_rjenkins1_2/3`), `crush_ln`'s fixed-point logarithm from Ceph's own
//! tables, the straw2 draw, and — in [`map`] — `crush_do_rule` over a hierarchy of buckets,
//! with the scenario's form of a cluster's hierarchy in [`layout`]. Machinery below the
//! algorithms: the Ceph algorithm places placement groups with it, and a scenario carries a
//! layout without depending on any algorithm.

pub mod layout;
pub mod map;

/// Jenkins' 96-bit mix, as CRUSH and `ceph_str_hash_rjenkins` write it.
pub(crate) fn mix(a: &mut u32, b: &mut u32, c: &mut u32) {
    for (s1, s2, s3) in [(13, 8, 13), (12, 16, 5), (3, 10, 15)] {
        *a = a.wrapping_sub(*b).wrapping_sub(*c) ^ (*c >> s1);
        *b = b.wrapping_sub(*c).wrapping_sub(*a) ^ (*a << s2);
        *c = c.wrapping_sub(*a).wrapping_sub(*b) ^ (*b >> s3);
    }
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
    let (lh, ll) = log_tables();
    (exponent << 44) + ((lh[k] + ll[index2]) >> 4)
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

/// A server's CRUSH weight in 16.16 fixed point (`crushtool`'s `weight 1.500` → 0x18000).
pub fn crush_weight(weight: f64) -> u32 {
    (weight * 65536.0) as u32
}

/// `⌊2⁴⁸·log2(n / 2^bits)⌋` for `n` in `2^bits..2^(bits+1)` (bits ≤ 62), exactly: the
/// binary digits of the logarithm, one per squaring of `n / 2^bits` in 62-bit fixed point
/// (integer arithmetic, so the page and the command line agree to the bit). It matches
/// Ceph's LH column at all 128 of its entries (`the_log_tables_are_cephs`).
fn log2_fixed(n: u64, bits: u32) -> u64 {
    let mut x = u128::from(n) << (62 - bits);
    let mut digits = 0;
    for _ in 0..48 {
        x = (x * x) >> 62;
        digits <<= 1;
        if x >> 63 != 0 {
            x >>= 1;
            digits |= 1;
        }
    }
    digits
}

/// Ceph's two log tables: `__RH_LH_tbl`'s LH column (`LH[k]` = ⌊2⁴⁸·log2(1 + k/128)⌋, the
/// last entry 2⁴⁸ − 2³² as Ceph wrote it) and `__LL_tbl` (`LL[k]` ≈ 2⁴⁸·log2(1 + k/2¹⁵)),
/// computed once instead of carried as 3 KB of numbers the page's compression cannot
/// shrink.
pub(crate) fn log_tables() -> &'static ([u64; 129], [u64; 256]) {
    static TABLES: std::sync::OnceLock<([u64; 129], [u64; 256])> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut lh = [0xffff_0000_0000; 129];
        for (k, v) in lh.iter_mut().enumerate().take(128) {
            *v = log2_fixed(128 + k as u64, 7);
        }
        let mut ll = LL_OVER_FORMULA;
        for (k, v) in ll.iter_mut().enumerate() {
            *v += log2_fixed((1 << 15) + k as u64, 15);
        }
        (lh, ll)
    })
}

/// `__LL_tbl[k]` less ⌊2⁴⁸·log2(1 + k/2¹⁵)⌋: Ceph's table is not the formula's (from entry
/// 2 on most entries are 0x1_4770_0000 above it, and 23 others differ otherwise), and its
/// values are what placement follows (`tests/reference/ceph-ln-table.txt` keeps the table).
#[rustfmt::skip]
const LL_OVER_FORMULA: [u64; 256] = [
    0x0, 0x0, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x13ed9b9b0, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x3a4f4285, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0xd5e895a5, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0xeee4abc5, 0x147700000, 0x147700000, 0x14340b8bf, 0x147700000,
    0x147700000, 0x147700000, 0x833eb34b, 0x147700000, 0x147700000, 0x147700000,
    0x147700000, 0xe43eed13, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x95ad3c32, 0x9f2a5b80, 0xe2f45e65, 0x147700000, 0x147700000, 0x0,
    0x147700000, 0x147700000, 0x147700000, 0x12cbacd37, 0x147700000, 0x147700000,
    0x1144d0710, 0x147700000, 0xdac5961c, 0x147700000, 0x147700000, 0x147700000,
    0x0, 0x147700000, 0x147700000, 0x147700000, 0x147700000, 0x147700000,
    0x0, 0x147700000, 0x147700000, 0xbf46f5f9, 0x147700000, 0x5a42d14a,
    0x9eac5357, 0x217cfafc, 0x147700000, 0xd2d5723c, 0x147700000, 0x0,
    0x147700000, 0x121cb06eb, 0x13ac6617a, 0x0, 0x0, 0x0,
    0x9df6bfdd, 0xfa8d3579, 0x147700000, 0x0, 0x0, 0x0,
    0x0, 0x15955a58, 0x0, 0x0, 0x0, 0x0,
    0x0, 0x0, 0x0, 0x0,
];
