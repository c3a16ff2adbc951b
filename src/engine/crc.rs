//! The three CRCs real systems hash with — CRC-32 (zlib's; nginx, groupcache, ingress-nginx),
//! CRC-32C without inversion (AnchorHash's `crc32q`) and CRC-16/XMODEM (Redis Cluster) —
//! table-driven, with each 256-entry table built on first use instead of stored.
//!
//! **Why not the `crc` crate here.** It stores its tables in the binary: 2.5 KB of
//! incompressible data, 2.2 KB of the page's gzip budget, while building them takes a few
//! microseconds. The crate stays the reference: the tests check every function against it.

use std::sync::OnceLock;

/// The table of a reflected 32-bit CRC with reversed polynomial `poly`.
fn reflected_table(poly: u32) -> [u32; 256] {
    std::array::from_fn(|i| {
        (0..8).fold(
            i as u32,
            |c, _| {
                if c & 1 == 1 {
                    (c >> 1) ^ poly
                } else {
                    c >> 1
                }
            },
        )
    })
}

/// Runs a reflected CRC register `crc` over `bytes`.
fn reflected(table: &[u32; 256], crc: u32, bytes: &[u8]) -> u32 {
    bytes.iter().fold(crc, |c, &b| {
        table[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8)
    })
}

fn crc32_table() -> &'static [u32; 256] {
    static TABLE: OnceLock<[u32; 256]> = OnceLock::new();
    TABLE.get_or_init(|| reflected_table(0xEDB8_8320))
}

/// The standard (zlib, ISO-HDLC) CRC-32 of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    !crc32_update(!0, bytes)
}

/// Continues a CRC-32 whose register (before the final inversion) is `register` over
/// `bytes`; start from `!0` and invert the result to finish, as zlib does.
pub fn crc32_update(register: u32, bytes: &[u8]) -> u32 {
    reflected(crc32_table(), register, bytes)
}

/// CRC-32C (Castagnoli, reversed polynomial 0x82F63B78) of `bytes` from the register
/// `register`, with no inversion before or after: what x86's `crc32` instruction computes.
pub fn crc32c_raw(register: u32, bytes: &[u8]) -> u32 {
    static TABLE: OnceLock<[u32; 256]> = OnceLock::new();
    reflected(
        TABLE.get_or_init(|| reflected_table(0x82F6_3B78)),
        register,
        bytes,
    )
}

/// CRC-16/XMODEM (polynomial 0x1021, from 0, not reflected) of `bytes`.
pub fn crc16_xmodem(bytes: &[u8]) -> u16 {
    static TABLE: OnceLock<[u16; 256]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            (0..8).fold((i as u16) << 8, |c, _| {
                if c & 0x8000 == 0 {
                    c << 1
                } else {
                    (c << 1) ^ 0x1021
                }
            })
        })
    });
    bytes.iter().fold(0, |c, &b| {
        table[usize::from((c >> 8) ^ u16::from(b))] ^ (c << 8)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ISCSI_RAW: crc::Algorithm<u32> = crc::Algorithm {
        width: 32,
        poly: 0x1EDC_6F41,
        init: 0,
        refin: true,
        refout: true,
        xorout: 0,
        check: 0,
        residue: 0,
    };

    #[test]
    fn the_catalogue_check_values() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc16_xmodem(b"123456789"), 0x31C3);
        // CRC-32C's check value is with inversion before and after.
        assert_eq!(!crc32c_raw(!0, b"123456789"), 0xE306_9283);
    }

    proptest! {
        /// Equal to the `crc` crate on any bytes, any starting register.
        #[test]
        fn equal_to_the_crc_crate(bytes in prop::collection::vec(any::<u8>(), 0..300), start: u32) {
            let zlib = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
            prop_assert_eq!(crc32(&bytes), zlib.checksum(&bytes));
            let xmodem = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
            prop_assert_eq!(crc16_xmodem(&bytes), xmodem.checksum(&bytes));
            let iscsi = crc::Crc::<u32>::new(&ISCSI_RAW);
            let mut digest = iscsi.digest_with_initial(start.reverse_bits());
            digest.update(&bytes);
            prop_assert_eq!(crc32c_raw(start, &bytes), digest.finalize());
        }
    }
}
