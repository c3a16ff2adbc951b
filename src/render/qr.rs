//! The current link as a QR code, so a class can open the teacher's exact scenario on their
//! phones, drawn as one SVG path (a run of dark modules per `h` segment) at any size.
//!
//! The encoder is our own and does one thing: the bytes of a link in *byte mode* at
//! *medium* error correction (a projected code survives glare and a partly covered corner),
//! in the smallest version that holds them, with the mask the standard's penalty rules
//! choose (ISO/IEC 18004:2015, §7). A general encoder (Nayuki's `qrcodegen`, which this one
//! follows and is tested against module for module) weighs 4.8 KB gzip of page for modes
//! and levels a link never uses; this one about a third of that.

/// The light border around the code, in modules (the standard's quiet zone).
pub const QUIET_ZONE: i32 = 4;

/// A link as a QR code: its side in modules (quiet zone included) and the SVG path of its
/// dark modules, one unit per module.
#[derive(Clone, Debug, PartialEq)]
pub struct QrPicture {
    /// Modules per side, quiet zone included.
    pub side: i32,
    /// `M x y h n v1 h -n z` for each horizontal run of dark modules.
    pub path: String,
}

/// Error-correction codewords per block at level M, versions 1..=40 (the standard's
/// table 9).
const ECC_PER_BLOCK: [u8; 40] = [
    10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
];

/// Error-correction blocks at level M, versions 1..=40 (table 9).
const BLOCKS: [u8; 40] = [
    1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25,
    26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
];

/// Modules left for codewords once the function patterns are drawn (remainder bits
/// included).
fn raw_modules(version: usize) -> usize {
    let mut n = (16 * version + 128) * version + 64;
    if version >= 2 {
        let align = version / 7 + 2;
        n -= (25 * align - 10) * align - 55;
        if version >= 7 {
            n -= 36;
        }
    }
    n
}

/// Data codewords of a version at level M.
fn data_codewords(version: usize) -> usize {
    let i = version - 1;
    raw_modules(version) / 8 - usize::from(ECC_PER_BLOCK[i]) * usize::from(BLOCKS[i])
}

/// Multiplication in GF(2⁸) modulo x⁸ + x⁴ + x³ + x² + 1.
fn gf_mul(x: u8, y: u8) -> u8 {
    let mut z = 0u8;
    for i in (0..8).rev() {
        z = (z << 1) ^ ((z >> 7) * 0x1d);
        z ^= ((y >> i) & 1) * x;
    }
    z
}

/// The Reed–Solomon generator polynomial of `degree` (leading term dropped).
fn rs_divisor(degree: usize) -> Vec<u8> {
    let mut divisor = vec![0u8; degree];
    divisor[degree - 1] = 1;
    let mut root = 1u8;
    for _ in 0..degree {
        for j in 0..degree {
            divisor[j] = gf_mul(divisor[j], root) ^ divisor.get(j + 1).copied().unwrap_or(0);
        }
        root = gf_mul(root, 2);
    }
    divisor
}

/// The Reed–Solomon error-correction codewords of `data`: the remainder of its division by
/// the generator polynomial `divisor`.
fn reed_solomon(data: &[u8], divisor: &[u8]) -> Vec<u8> {
    let mut rem = vec![0u8; divisor.len()];
    for &b in data {
        let factor = b ^ rem.remove(0);
        rem.push(0);
        for (r, &d) in rem.iter_mut().zip(divisor) {
            *r ^= gf_mul(d, factor);
        }
    }
    rem
}

/// A BCH code: `data` followed by its remainder modulo `poly` (a polynomial of degree
/// `bits`), as the format and version information are protected.
fn bch(data: u32, bits: u32, poly: u32) -> u32 {
    let mut rem = data;
    for _ in 0..bits {
        rem = (rem << 1) ^ ((rem >> (bits - 1)) * poly);
    }
    data << bits | rem
}

/// The symbol under construction: each module dark or light, and whether it belongs to a
/// function pattern (which data and masks leave alone).
struct Symbol {
    size: usize,
    dark: Vec<bool>,
    function: Vec<bool>,
}

impl Symbol {
    fn set(&mut self, x: usize, y: usize, dark: bool) {
        let i = y * self.size + x;
        self.dark[i] = dark;
        self.function[i] = true;
    }

    fn at(&self, x: usize, y: usize) -> bool {
        self.dark[y * self.size + x]
    }

    /// A square pattern of radius `r` centred on (x, y), its rings dark or light by their
    /// distance from the centre (`ring(d)`), clipped to the symbol.
    fn square(&mut self, x: usize, y: usize, r: isize, ring: impl Fn(isize) -> bool) {
        for dy in -r..=r {
            for dx in -r..=r {
                let (xx, yy) = (x as isize + dx, y as isize + dy);
                if (0..self.size as isize).contains(&xx) && (0..self.size as isize).contains(&yy) {
                    self.set(xx as usize, yy as usize, ring(dx.abs().max(dy.abs())));
                }
            }
        }
    }

    /// The 15 format bits (level M, `mask`), both copies, and the always-dark module.
    fn format(&mut self, mask: usize) {
        let bits = bch(mask as u32, 10, 0x537) ^ 0x5412;
        let bit = |i: usize| (bits >> i) & 1 != 0;
        let n = self.size;
        for i in 0..15 {
            // First copy, round the top-left finder.
            let (x, y) = match i {
                0..=5 => (8, i),
                6 => (8, 7),
                7 => (8, 8),
                8 => (7, 8),
                _ => (14 - i, 8),
            };
            self.set(x, y, bit(i));
            // Second copy, split between the other two finders.
            let (x, y) = if i < 8 {
                (n - 1 - i, 8)
            } else {
                (8, n - 15 + i)
            };
            self.set(x, y, bit(i));
        }
        self.set(8, n - 8, true);
    }

    /// Timing, finder and alignment patterns, the format area and (version 7 and up) the
    /// version information.
    fn function_patterns(&mut self, version: usize) {
        let n = self.size;
        for i in 0..n {
            self.set(6, i, i % 2 == 0);
            self.set(i, 6, i % 2 == 0);
        }
        for (x, y) in [(3, 3), (n - 4, 3), (3, n - 4)] {
            self.square(x, y, 4, |d| d != 2 && d != 4);
        }
        let count = if version == 1 { 0 } else { version / 7 + 2 };
        let step = if version == 32 {
            26
        } else {
            (version * 4 + count * 2 + 1) / (count * 2).saturating_sub(2).max(1) * 2
        };
        let at = |i: usize| {
            if i == 0 {
                6
            } else {
                n - 7 - (count - 1 - i) * step
            }
        };
        for i in 0..count {
            for j in 0..count {
                let corner = (i == 0 && (j == 0 || j == count - 1)) || (j == 0 && i == count - 1);
                if !corner {
                    self.square(at(i), at(j), 2, |d| d != 1);
                }
            }
        }
        self.format(0);
        if version >= 7 {
            let bits = bch(version as u32, 12, 0x1f25);
            for i in 0..18 {
                let (a, b) = (n - 11 + i % 3, i / 3);
                let dark = (bits >> i) & 1 != 0;
                self.set(a, b, dark);
                self.set(b, a, dark);
            }
        }
    }

    /// The codewords' bits in the standard's zigzag: column pairs from the right, up and
    /// down in turn, skipping the timing column and the function modules.
    fn codewords(&mut self, words: &[u8]) {
        let n = self.size;
        let mut i = 0;
        let mut right = n - 1;
        while right >= 1 {
            if right == 6 {
                right = 5;
            }
            for vert in 0..n {
                for j in 0..2 {
                    let x = right - j;
                    let y = if (right + 1) & 2 == 0 {
                        n - 1 - vert
                    } else {
                        vert
                    };
                    if !self.function[y * n + x] && i < words.len() * 8 {
                        self.dark[y * n + x] = (words[i >> 3] >> (7 - (i & 7))) & 1 != 0;
                        i += 1;
                    }
                }
            }
            if right < 2 {
                break;
            }
            right -= 2;
        }
    }

    /// Flips the data modules that mask pattern `mask` selects (applying it twice undoes
    /// it).
    fn mask(&mut self, mask: usize) {
        let n = self.size;
        for y in 0..n {
            for x in 0..n {
                let flip = match mask {
                    0 => (x + y) % 2 == 0,
                    1 => y % 2 == 0,
                    2 => x % 3 == 0,
                    3 => (x + y) % 3 == 0,
                    4 => (x / 3 + y / 2) % 2 == 0,
                    5 => x * y % 2 + x * y % 3 == 0,
                    6 => (x * y % 2 + x * y % 3) % 2 == 0,
                    _ => ((x + y) % 2 + x * y % 3) % 2 == 0,
                };
                let i = y * n + x;
                self.dark[i] ^= flip && !self.function[i];
            }
        }
    }

    /// The standard's penalty score (§7.8.3): long runs, 2×2 blocks, finder-like patterns
    /// and the balance of dark and light; the mask with the lowest is used.
    fn penalty(&self) -> usize {
        let n = self.size;
        let mut score = 0;
        for transpose in [false, true] {
            for a in 0..n {
                let at = |b: usize| {
                    if transpose {
                        self.at(a, b)
                    } else {
                        self.at(b, a)
                    }
                };
                let mut finder = Finder::new(n);
                let (mut color, mut run) = (false, 0);
                for b in 0..n {
                    if at(b) == color {
                        run += 1;
                        score += match run {
                            5 => 3,
                            6.. => 1,
                            _ => 0,
                        };
                    } else {
                        finder.push(run);
                        if !color {
                            score += finder.patterns() * 40;
                        }
                        (color, run) = (at(b), 1);
                    }
                }
                if color {
                    finder.push(run);
                    run = 0;
                }
                finder.push(run + n);
                score += finder.patterns() * 40;
            }
        }
        for y in 0..n - 1 {
            for x in 0..n - 1 {
                let c = self.at(x, y);
                if c == self.at(x + 1, y) && c == self.at(x, y + 1) && c == self.at(x + 1, y + 1) {
                    score += 3;
                }
            }
        }
        let dark = self.dark.iter().filter(|&&d| d).count();
        let total = n * n;
        score + (dark * 20).abs_diff(total * 10).div_ceil(total) * 10 - 10
    }
}

/// The last seven runs of a row or column, newest first, for the finder-like pattern rule
/// (dark:light:dark:light:dark = 1:1:3:1:1 with four light modules on one side).
struct Finder {
    size: usize,
    runs: [usize; 7],
}

impl Finder {
    fn new(size: usize) -> Self {
        Finder { size, runs: [0; 7] }
    }

    fn push(&mut self, mut run: usize) {
        if self.runs[0] == 0 {
            run += self.size; // the light border before the first run
        }
        self.runs.copy_within(0..6, 1);
        self.runs[0] = run;
    }

    fn patterns(&self) -> usize {
        let r = &self.runs;
        let n = r[1];
        let core = n > 0 && r[2] == n && r[3] == n * 3 && r[4] == n && r[5] == n;
        usize::from(core && r[0] >= n * 4 && r[6] >= n)
            + usize::from(core && r[6] >= n * 4 && r[0] >= n)
    }
}

/// Appends the low `count` bits of `value` to a bit string kept as bytes.
fn push_bits(bytes: &mut Vec<u8>, used: &mut usize, value: usize, count: usize) {
    for i in (0..count).rev() {
        if used.is_multiple_of(8) {
            bytes.push(0);
        }
        let last = bytes.len() - 1;
        bytes[last] |= (((value >> i) & 1) as u8) << (7 - *used % 8);
        *used += 1;
    }
}

/// The symbol for `data`: the smallest version that holds it in byte mode at level M, its
/// codewords with their error correction interleaved, and the best mask; `None` past
/// version 40 (2,331 bytes).
fn encode(data: &[u8]) -> Option<Symbol> {
    let (version, capacity) = (1..=40).map(|v| (v, data_codewords(v))).find(|&(v, cap)| {
        let count_bits = if v < 10 { 8 } else { 16 };
        data.len() < 1 << count_bits && 4 + count_bits + 8 * data.len() <= cap * 8
    })?;
    // Mode 0100 (bytes), the count, the bytes, a terminator of up to four zeros, zeros to
    // the byte, then 0xEC 0x11 in turn to the capacity.
    let (mut words, mut used) = (Vec::with_capacity(capacity), 0);
    push_bits(&mut words, &mut used, 4, 4);
    push_bits(
        &mut words,
        &mut used,
        data.len(),
        if version < 10 { 8 } else { 16 },
    );
    for &b in data {
        push_bits(&mut words, &mut used, usize::from(b), 8);
    }
    let terminator = 4.min(capacity * 8 - used);
    push_bits(&mut words, &mut used, 0, terminator);
    for pad in [0xec, 0x11]
        .into_iter()
        .cycle()
        .take(capacity - words.len())
    {
        words.push(pad);
    }
    // Blocks: the short ones first, each with its error correction; then interleaved.
    let (blocks, ecc) = (
        usize::from(BLOCKS[version - 1]),
        usize::from(ECC_PER_BLOCK[version - 1]),
    );
    let raw = raw_modules(version) / 8;
    let short = blocks - raw % blocks;
    let short_len = raw / blocks;
    let divisor = rs_divisor(ecc);
    let mut rows = Vec::with_capacity(blocks);
    let mut k = 0;
    for i in 0..blocks {
        let len = short_len - ecc + usize::from(i >= short);
        let mut row = words[k..k + len].to_vec();
        k += len;
        let check = reed_solomon(&row, &divisor);
        if i < short {
            row.push(0);
        }
        row.extend(check);
        rows.push(row);
    }
    let mut all = Vec::with_capacity(raw);
    for i in 0..=short_len {
        for (j, row) in rows.iter().enumerate() {
            if i != short_len - ecc || j >= short {
                all.push(row[i]);
            }
        }
    }
    let size = version * 4 + 17;
    let mut symbol = Symbol {
        size,
        dark: vec![false; size * size],
        function: vec![false; size * size],
    };
    symbol.function_patterns(version);
    symbol.codewords(&all);
    let best = (0..8)
        .min_by_key(|&m| {
            symbol.mask(m);
            symbol.format(m);
            let p = symbol.penalty();
            symbol.mask(m);
            p
        })
        .unwrap_or(0);
    symbol.mask(best);
    symbol.format(best);
    Some(symbol)
}

/// The QR code of `text`, or `None` when it is too long for any QR code (about 2,300
/// bytes at medium correction).
pub fn qr_picture(text: &str) -> Option<QrPicture> {
    let symbol = encode(text.as_bytes())?;
    let size = symbol.size;
    let mut path = String::new();
    for y in 0..size {
        let mut x = 0;
        while x < size {
            if !symbol.at(x, y) {
                x += 1;
                continue;
            }
            let start = x;
            while x < size && symbol.at(x, y) {
                x += 1;
            }
            let q = QUIET_ZONE as usize;
            path.push_str(&format!(
                "M{} {}h{}v1h-{}z",
                start + q,
                y + q,
                x - start,
                x - start
            ));
        }
    }
    Some(QrPicture {
        side: size as i32 + 2 * QUIET_ZONE,
        path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dark modules the path draws, as a grid.
    fn grid(p: &QrPicture) -> Vec<Vec<bool>> {
        let mut g = vec![vec![false; p.side as usize]; p.side as usize];
        for run in p.path.split('M').filter(|r| !r.is_empty()) {
            let nums: Vec<i32> = run
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect();
            let (x, y, n) = (nums[0], nums[1], nums[2]);
            for dx in 0..n {
                g[y as usize][(x + dx) as usize] = true;
            }
        }
        g
    }

    #[test]
    fn a_link_gets_three_finder_patterns_inside_the_quiet_zone() {
        let link = "http://127.0.0.1:8080/?algo=ring&vnodes=100&nodes=A,B,C,D&keys=key-{i}:0..50000&tour=carp&step=2&present=1";
        let p = qr_picture(link).unwrap();
        // 105 bytes at medium correction need version 6: 41 modules, plus the zone.
        assert_eq!(p.side, 41 + 2 * QUIET_ZONE);
        let g = grid(&p);
        let q = QUIET_ZONE as usize;
        let n = g.len() - 2 * q;
        for (ox, oy) in [(0, 0), (n - 7, 0), (0, n - 7)] {
            for i in 0..7 {
                // The finder's outer ring is dark, the ring inside it light, the core dark.
                for (x, y) in [(i, 0), (i, 6), (0, i), (6, i)] {
                    assert!(g[q + oy + y][q + ox + x], "finder at {ox},{oy}");
                }
            }
            for i in 1..6 {
                assert!(!g[q + oy + 1][q + ox + i] && !g[q + oy + 5][q + ox + i]);
            }
            assert!(g[q + oy + 3][q + ox + 3]);
        }
        // Nothing is drawn in the quiet zone.
        for (y, row) in g.iter().enumerate() {
            for (x, &dark) in row.iter().enumerate() {
                let inside = (q..q + n).contains(&x) && (q..q + n).contains(&y);
                assert!(inside || !dark, "{x},{y}");
            }
        }
    }

    /// qrcodegen's symbol for the same bytes, level and mask rules, as our grid.
    fn reference(text: &str) -> Option<Vec<Vec<bool>>> {
        use qrcodegen::{QrCode, QrCodeEcc, QrSegment, Version};
        let segment = QrSegment::make_bytes(text.as_bytes());
        let code = QrCode::encode_segments_advanced(
            &[segment],
            QrCodeEcc::Medium,
            Version::MIN,
            Version::MAX,
            None,
            false,
        )
        .ok()?;
        let (n, q) = (code.size(), QUIET_ZONE);
        Some(
            (-q..n + q)
                .map(|y| (-q..n + q).map(|x| code.get_module(x, y)).collect())
                .collect(),
        )
    }

    /// Module for module Nayuki's encoder, at every version's edges: the longest text a
    /// version holds and one byte more, and texts of every kind of byte.
    #[test]
    fn every_version_is_module_for_module_qrcodegens() {
        let mut lengths = vec![0, 1, 2];
        for v in 1..=40 {
            let fits = data_codewords(v) - if v < 10 { 2 } else { 3 };
            lengths.extend([fits, fits + 1]);
        }
        for (i, len) in lengths.into_iter().enumerate() {
            let text: String = (0..len)
                .map(|j| char::from(b' ' + ((j * 7 + i * 13) % 95) as u8))
                .collect();
            assert_eq!(
                qr_picture(&text).map(|p| grid(&p)),
                reference(&text),
                "{len} bytes"
            );
        }
        let link = "http://192.168.1.20:8080/?algo=ceph&nodes=osd.0,osd.1*2,osd.2&pg_num=12&lang=zh-CN&名=键";
        assert_eq!(qr_picture(link).map(|p| grid(&p)), reference(link));
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_module_for_module_qrcodegens(text in "\\PC{0,400}") {
            proptest::prop_assert_eq!(qr_picture(&text).map(|p| grid(&p)), reference(&text));
        }
    }

    #[test]
    fn a_link_too_long_for_any_code_has_none() {
        assert!(qr_picture(&"x".repeat(2_000)).is_some());
        assert_eq!(qr_picture(&"x".repeat(3_000)), None);
    }
}
