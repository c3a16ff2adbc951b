//! The current link as a QR code, so a class can open the teacher's exact scenario on their
//! phones. Encoding is Nayuki's `qrcodegen` (medium error correction: a projected code
//! survives glare and a partly covered corner); this module only turns its modules into one
//! SVG path, a run of dark modules per `h` segment, so the page draws it at any size.

use qrcodegen::{QrCode, QrCodeEcc, QrSegment, Version};

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

/// The QR code of `text`, or `None` when it is too long for any QR code (about 2,300
/// bytes at medium correction).
pub fn qr_picture(text: &str) -> Option<QrPicture> {
    // Byte mode only (a URL gains little from the other modes, and their analysis is
    // code the page would carry); the mask chosen by the standard's penalty rules.
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
    let size = code.size();
    let mut path = String::new();
    for y in 0..size {
        let mut x = 0;
        while x < size {
            if !code.get_module(x, y) {
                x += 1;
                continue;
            }
            let start = x;
            while x < size && code.get_module(x, y) {
                x += 1;
            }
            path.push_str(&format!(
                "M{} {}h{}v1h-{}z",
                start + QUIET_ZONE,
                y + QUIET_ZONE,
                x - start,
                x - start
            ));
        }
    }
    Some(QrPicture {
        side: size + 2 * QUIET_ZONE,
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

    #[test]
    fn a_link_too_long_for_any_code_has_none() {
        assert!(qr_picture(&"x".repeat(2_000)).is_some());
        assert_eq!(qr_picture(&"x".repeat(3_000)), None);
    }
}
