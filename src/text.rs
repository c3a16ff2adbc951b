//! How user-typed text is checked and echoed back in messages.
//!
//! Every message that repeats a bad value quotes it through [`quote`]: at most
//! [`QUOTE_CHARS`] characters, with control and invisible characters made visible, so a
//! 100 KB parameter or a bidi override can neither flood a message box nor disguise itself.

use std::fmt::Write;

/// The most characters of a bad value a message repeats.
pub const QUOTE_CHARS: usize = 60;

/// `'value'`, shortened to [`QUOTE_CHARS`] characters with `…`, with control and
/// invisible characters written as `\u{…}` escapes.
pub fn quote(value: &str) -> String {
    let mut out = String::from("'");
    for (n, c) in value.chars().enumerate() {
        if n == QUOTE_CHARS {
            out.push('…');
            break;
        }
        if is_hidden(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

/// True for characters that do not show as themselves: controls (including newline and
/// escape), zero-width and joiner characters, bidirectional overrides and isolates, soft
/// hyphens, byte-order marks and other format characters, and Unicode tag characters.
/// The first combining diacritical mark in `text` (U+0300–U+036F and the other general
/// diacritic blocks) as `U+XXXX`: a letter written as base + mark looks the same as the
/// precomposed letter (`e` + U+0301 and `é`) but is a different name.
pub fn first_combining_mark(text: &str) -> Option<String> {
    text.chars()
        .find(|c| {
            matches!(
                c,
                '\u{0300}'..='\u{036F}'
                    | '\u{1AB0}'..='\u{1AFF}'
                    | '\u{1DC0}'..='\u{1DFF}'
                    | '\u{20D0}'..='\u{20FF}'
                    | '\u{FE20}'..='\u{FE2F}'
            )
        })
        .map(|c| format!("U+{:04X}", u32::from(c)))
}

/// True for a character that hides or reorders text, or cannot be seen.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// The first hidden character of `text`, if any, as a message fragment: `U+202E`.
pub fn first_hidden(text: &str) -> Option<String> {
    // Printable ASCII hides nothing: most text is checked a byte at a time, not decoded
    // (ten million key lines spent a fifth of their reading here).
    if text.bytes().all(|b| (b' '..=b'~').contains(&b)) {
        return None;
    }
    text.chars()
        .find(|&c| is_hidden(c))
        .map(|c| format!("U+{:04X}", u32::from(c)))
}

/// The most significant digits [`parse_decimal`] reads exactly; later digits are read as
/// zeros (they change the value by less than one part in 10^15).
const EXACT_DIGITS: u32 = 15;

/// Parses a plain decimal number as typed by people: digits with at most one `.`, an
/// optional leading `+`/`-` and an optional exponent (`1e3`, `2.5E-2`). `None` for anything
/// else, including `inf` and `NaN`.
///
/// Why not `str::parse::<f64>`: its correctly rounded algorithm brings 12 KB of tables to
/// the page for the three numbers people type (a weight, a balance factor, a delay). Here
/// the value is `m / 10^k` (or `m · 10^k`) with `m` below 10^15, which is exact in one
/// rounding, so the result equals the standard parse for every input of at most 15
/// significant digits and an exponent within ±22.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (number, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], parse_exponent(&rest[at + 1..])?),
        None => (rest, 0),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let mut mantissa: u64 = 0;
    let mut digits = 0u32;
    let mut scale: i32 = exponent;
    for (n, byte) in whole.bytes().chain(fraction.bytes()).enumerate() {
        if !byte.is_ascii_digit() {
            return None;
        }
        let in_fraction = n >= whole.len();
        if digits < EXACT_DIGITS {
            mantissa = mantissa * 10 + u64::from(byte - b'0');
            if mantissa > 0 {
                digits += 1;
            }
            if in_fraction {
                scale -= 1;
            }
        } else if !in_fraction {
            scale += 1;
        }
    }
    let value = mantissa as f64;
    let value = if scale < 0 {
        value / pow10(scale.unsigned_abs())
    } else {
        value * pow10(scale.unsigned_abs())
    };
    Some(if negative { -value } else { value })
}

/// An exponent's digits with an optional sign, kept within ±400 (beyond it every value is
/// 0 or infinite anyway).
fn parse_exponent(text: &str) -> Option<i32> {
    let (sign, digits) = match text.as_bytes().first()? {
        b'-' => (-1, &text[1..]),
        b'+' => (1, &text[1..]),
        _ => (1, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits
        .bytes()
        .fold(0i32, |e, b| (e * 10 + i32::from(b - b'0')).min(400));
    Some(sign * magnitude)
}

/// 10^n: exact up to 10^22.
fn pow10(n: u32) -> f64 {
    let mut value = 1.0;
    for _ in 0..n.min(400) {
        value *= 10.0;
    }
    value
}

/// `x` with `.1` decimals, as `{:.N}` writes it (ties to even; "NaN", "inf"), without
/// std's float formatter: the page writes every number through this and [`Shortest`], so
/// the ≈16 KB of `core::fmt::float` stay out of its WebAssembly.
#[derive(Clone, Copy, Debug)]
pub struct Fixed(pub f64, pub usize);

impl std::fmt::Display for Fixed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (x, decimals) = (self.0, self.1.min(17));
        if x.is_nan() {
            return f.write_str("NaN");
        }
        if x.is_infinite() {
            return f.write_str(if x > 0.0 { "inf" } else { "-inf" });
        }
        let unit = 10u64.pow(decimals as u32);
        let product = x.abs() * unit as f64;
        // A product that lands on a tie may hide an exact value above or below it (12.05 is
        // 12.0500000000000007…): the product's rounding error decides, as std's exact
        // decimal expansion does.
        let scaled = if product - product.trunc() == 0.5 {
            match product_error(x.abs(), unit as f64, product) {
                e if e > 0.0 => product.ceil(),
                e if e < 0.0 => product.floor(),
                _ => product.round_ties_even(),
            }
        } else {
            product.round_ties_even()
        };
        // Beyond what a u64 holds (never shown by the page): whole units only.
        let (whole, part) = if scaled < 1.8e19 {
            let n = scaled as u64;
            (n / unit, n % unit)
        } else {
            ((x.abs()).round_ties_even() as u64, 0)
        };
        if x.is_sign_negative() {
            f.write_str("-")?;
        }
        let mut digits = itoa::Buffer::new();
        f.write_str(digits.format(whole))?;
        if decimals > 0 {
            f.write_str(".")?;
            let text = digits.format(part);
            for _ in text.len()..decimals {
                f.write_str("0")?;
            }
            f.write_str(text)?;
        }
        Ok(())
    }
}

/// `x` as `{:e}` writes it ("1e-3", "2.5e1"), through [`Shortest`].
#[derive(Clone, Copy, Debug)]
pub struct Scientific(pub f64);

impl std::fmt::Display for Scientific {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = self.0;
        if x == 0.0 || !x.is_finite() {
            return write!(f, "{}e0", Shortest(x));
        }
        let mut e = crate::math::log10(x.abs()).floor() as i32;
        let mut m = x / 10f64.powi(e);
        if m.abs() >= 10.0 {
            (m, e) = (m / 10.0, e + 1);
        } else if m.abs() < 1.0 {
            (m, e) = (m * 10.0, e - 1);
        }
        // Twelve significant digits: what is left of the division's rounding goes.
        let m = Shortest(parse_decimal(&Fixed(m, 12).to_string()).unwrap_or(m));
        let mut digits = itoa::Buffer::new();
        write!(f, "{m}e{}", digits.format(e))
    }
}

/// The rounding error of `p = a × b` (exactly `a·b − p`), by Dekker's product: each factor
/// split into two halves whose products are exact.
fn product_error(a: f64, b: f64, p: f64) -> f64 {
    let split = |v: f64| {
        let c = 134_217_729.0 * v;
        let hi = c - (c - v);
        (hi, v - hi)
    };
    let ((ah, al), (bh, bl)) = (split(a), split(b));
    al * bl - (((p - ah * bh) - al * bh) - ah * bl)
}

/// `x` as `{}` writes it for the values the page shows (weights, factors, limits): the
/// fewest decimals that read back as `x` ("1.25", "100", "0.001"); a value that needs more
/// than 15 significant digits (`0.1 + 0.2`) is written to 15.
#[derive(Clone, Copy, Debug)]
pub struct Shortest(pub f64);

impl std::fmt::Display for Shortest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = self.0;
        let mut last = String::new();
        for decimals in 0..=15 {
            last = Fixed(x, decimals).to_string();
            if parse_decimal(&last) == Some(x) {
                return f.write_str(&last);
            }
        }
        let text = last;
        f.write_str(text.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// True when `name` can stand in the scenario's server list as it is: it has none of the
/// list's own signs (`,` between servers, `*` before a weight, `{ }` around a range), which
/// would split it, weigh it or expand it instead of naming it.
pub fn list_safe(name: &str) -> bool {
    !name.contains([',', '*', '{', '}'])
}

/// Names shown in a narrow place (a table's headings, a chart's labels, a printed page), each
/// in at most `max` characters and told apart by the part where they differ: names of one
/// cluster share a head and often a tail (`10.0.0.1:80` … `10.0.0.5:80`), so a long name
/// drops the head every name has (`…1:80`) before anything else; what is still too long keeps
/// the part that differs and as much of the shared tail's end as fits (`…1…com:11211`). Names that
/// fit are shown whole. The full name goes with every short one (a tooltip, the words a
/// screen reader says, exports): this is for the eye only.
pub fn fit_names(names: &[&str], max: usize) -> Vec<String> {
    let max = max.max(2);
    let chars: Vec<Vec<char>> = names.iter().map(|n| n.chars().collect()).collect();
    // What the names to be shortened share (a short name added beside them, "A" among
    // `10.0.0.x:80`, is shown whole and does not hide their pattern).
    let long: Vec<&Vec<char>> = chars.iter().filter(|c| c.len() > max).collect();
    let shortest = long.iter().map(|c| c.len()).min().unwrap_or(0);
    let shared = |from_end: bool| {
        (0..shortest)
            .take_while(|&i| {
                let at = |c: &Vec<char>| c[if from_end { c.len() - 1 - i } else { i }];
                long.iter().all(|c| at(c) == at(long[0]))
            })
            .count()
    };
    // With one name there is nothing shared to drop.
    let head = if long.len() > 1 { shared(false) } else { 0 };
    let tail = if long.len() > 1 {
        shared(true).min(shortest - head)
    } else {
        0
    };
    chars
        .iter()
        .map(|c| {
            if c.len() <= max {
                return c.iter().collect();
            }
            // The part that differs, the shared tail after it.
            let (differs, after) = (&c[head..c.len() - tail], &c[c.len() - tail..]);
            let mut out = String::new();
            let mut room = max;
            if head > 0 {
                out.push('…');
                room -= 1;
            }
            if differs.len() + after.len() <= room {
                out.extend(differs.iter().chain(after));
            } else if differs.len() + 2 <= room {
                // All that differs, "…", and the end of the shared tail.
                out.extend(differs);
                out.push('…');
                out.extend(&after[after.len() - (room - differs.len() - 1)..]);
            } else if differs.len() <= room {
                // All that differs, with no room for the tail: "…1", not "……1".
                out.extend(differs);
            } else {
                // Only part of what differs fits: its start and its end.
                let keep = room - 1;
                let end = keep.div_ceil(2);
                out.extend(&differs[..keep - end]);
                out.push('…');
                out.extend(&differs[differs.len() - end..]);
            }
            out
        })
        .collect()
}

/// `template` with its places filled from `values`: `{0}`, `{1}`, … take that value, and
/// each `{}` the next one in order (a value that is missing leaves the place empty). Other
/// braces (`{i}`, `{node}`) are kept. Messages and sentences are data in each language's
/// table, and this one function fills them all.
pub fn fill(template: &str, values: &[&str]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut next = 0;
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').unwrap_or(usize::MAX);
        let index = match after.get(..close) {
            Some("") => Some(next),
            Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                digits.parse().ok()
            }
            _ => None,
        };
        match index {
            Some(i) => {
                if close == 0 {
                    next += 1;
                }
                out.push_str(values.get(i).copied().unwrap_or(""));
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `text` safe inside an element or a quoted attribute: the one escape for every piece of
/// markup the page writes as text (the SVG charts, the compare and from → to tables).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The next name of a numbered cluster: when two or more names differ only in one run of
/// digits between a shared head and tail, that head, the highest number plus one (as wide
/// as the numbers are when they are zero-padded) and that tail.
pub fn next_numbered(names: &[&str]) -> Option<String> {
    let [first, rest @ ..] = names else {
        return None;
    };
    if rest.is_empty() {
        return None;
    }
    let shortest = names.iter().map(|n| n.len()).min()?;
    let bytes = |n: &str, i: usize| n.as_bytes()[i];
    let mut head = (0..shortest)
        .take_while(|&i| names.iter().all(|n| bytes(n, i) == bytes(first, i)))
        .count();
    let mut tail = (0..shortest - head)
        .take_while(|&i| {
            names
                .iter()
                .all(|n| bytes(n, n.len() - 1 - i) == bytes(first, first.len() - 1 - i))
        })
        .count();
    // The run of digits is whole: a shared leading "1" of 1 and 12 belongs to the number.
    while head > 0 && first.as_bytes()[head - 1].is_ascii_digit() {
        head -= 1;
    }
    while tail > 0 && first.as_bytes()[first.len() - tail].is_ascii_digit() {
        tail -= 1;
    }
    // (Bytes shared by all may end inside a character: "é" and "è" share their first.)
    let numbers: Vec<&str> = names
        .iter()
        .map(|n| n.get(head..n.len() - tail))
        .collect::<Option<_>>()?;
    if !numbers
        .iter()
        .all(|d| !d.is_empty() && d.len() <= 9 && d.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let highest = numbers.iter().filter_map(|d| d.parse::<u32>().ok()).max()?;
    let padded = numbers.iter().any(|d| d.len() > 1 && d.starts_with('0'));
    let width = if padded { numbers[0].len() } else { 0 };
    Some(format!(
        "{}{:0width$}{}",
        &first[..head],
        highest + 1,
        &first[first.len() - tail..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_puts_values_in_their_places_and_keeps_other_braces() {
        assert_eq!(fill("{1} before {0}", &["a", "b"]), "b before a");
        assert_eq!(fill("{} and {}", &["x"]), "x and ");
        assert_eq!(
            fill("needs {i} and {node}: {0}", &["v"]),
            "needs {i} and {node}: v"
        );
        assert_eq!(fill("open { end", &["v"]), "open { end");
        assert_eq!(fill("{9}", &["v"]), "");
    }

    #[test]
    fn names_in_a_narrow_place_keep_the_part_where_they_differ() {
        let fit = |names: &[&str], max| fit_names(names, max);
        let hosts = ["10.0.0.1:80", "10.0.0.2:80", "10.0.0.6:80"];
        assert_eq!(fit(&hosts, 8), ["…1:80", "…2:80", "…6:80"]);
        assert_eq!(fit(&hosts, 11), hosts, "names that fit are whole");
        let loopback = ["127.0.0.1", "127.0.0.2", "127.0.0.10"];
        assert_eq!(fit(&loopback, 4), ["…1", "…2", "…10"]);
        let fqdn = [
            "cache-01.prod.example.com:11211",
            "cache-02.prod.example.com:11211",
        ];
        assert_eq!(fit(&fqdn, 12), ["…1…com:11211", "…2…com:11211"]);
        assert_eq!(fit(&fqdn, 5), ["…1…11", "…2…11"]);
        assert_eq!(
            fit(&fqdn, 3),
            ["…1", "…2"],
            "what differs, without a second …"
        );
        // Nothing shared: the start and the end of each name.
        assert_eq!(fit(&["alpha-long-name", "B"], 7), ["alp…ame", "B"]);
        assert_eq!(fit(&["only-one-long-name"], 6), ["on…ame"]);
        // A short name beside them (the page's suggested "A" added to `10.0.0.x:80`) does not
        // hide what the long ones share.
        let joined = ["10.0.0.1:80", "10.0.0.2:80", "A"];
        assert_eq!(fit(&joined, 5), ["…1:80", "…2:80", "A"]);
        // Every short form stays within its room, and the differing ones stay distinct.
        for max in 2..20 {
            let out = fit(&fqdn, max);
            assert!(
                out.iter().all(|n| n.chars().count() <= max),
                "{max}: {out:?}"
            );
            let out = fit(&hosts, max);
            assert!(
                out.iter().all(|n| n.chars().count() <= max),
                "{max}: {out:?}"
            );
            if max >= 3 {
                assert!(out[0] != out[1] && out[1] != out[2], "{max}: {out:?}");
            }
        }
        assert!(fit(&[], 5).is_empty());
    }

    #[test]
    fn fixed_and_shortest_write_what_std_writes() {
        for x in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            0.125,
            0.375,
            1.2345,
            12.05,
            99.995,
            1229.4,
            0.0004,
            -0.04,
            1.0 / 3.0,
            2.0 / 3.0,
            123456.789,
            0.1 + 0.2,
            1e-7,
            5e-324,
        ] {
            for d in 0..=6 {
                assert_eq!(Fixed(x, d).to_string(), format!("{x:.d$}"), "{x} to {d}");
            }
        }
        for x in [
            0.0, 1.0, 1.25, 100.0, 0.001, 2.5, 0.05, 1.1, 60000.0, 1.5e-5, 12.05,
        ] {
            assert_eq!(Shortest(x).to_string(), format!("{x}"), "{x}");
        }
        for x in [0.001, 1e-3, 2.5e1, 0.05, 123.0, 1.0, 7.5e-5] {
            assert_eq!(Scientific(x).to_string(), format!("{x:e}"), "{x}");
        }
        assert_eq!(Fixed(f64::NAN, 2).to_string(), "NaN");
        assert_eq!(Fixed(f64::INFINITY, 1).to_string(), "inf");
    }

    #[test]
    fn long_values_are_cut_and_hidden_characters_shown() {
        let long = "x".repeat(100_000);
        let q = quote(&long);
        assert_eq!(q.chars().count(), QUOTE_CHARS + 3, "{q}");
        assert!(q.ends_with("…'"));
        assert_eq!(quote("\u{202E}evil"), "'\\u{202e}evil'");
        assert_eq!(quote("a\nb"), "'a\\u{a}b'");
        assert_eq!(quote("héllo"), "'héllo'");
    }

    #[test]
    fn hidden_characters_are_found() {
        for c in [
            '\u{200B}',
            '\u{202E}',
            '\u{2066}',
            '\u{FEFF}',
            '\u{1b}',
            '\n',
            '\u{E0041}',
        ] {
            assert!(is_hidden(c), "{:x}", u32::from(c));
        }
        for c in ['a', 'é', '中', '#', ' ', '·'] {
            assert!(!is_hidden(c), "{c}");
        }
        assert_eq!(first_hidden("ok\u{200D}x").as_deref(), Some("U+200D"));
        assert_eq!(first_hidden("fine"), None);
    }

    #[test]
    fn decimals_read_as_the_standard_parse_does() {
        for text in [
            "1",
            "0.1",
            "1.25",
            "2.5",
            "100",
            ".5",
            "5.",
            "+3",
            "-0.75",
            "1e3",
            "2.5E-2",
            "0.3333333333",
            "123456.789",
            "0",
            "0.0",
            "00012",
            "1e-7",
            "99.999999999",
            "123456789012345",
            "0.000001",
        ] {
            assert_eq!(parse_decimal(text), text.parse::<f64>().ok(), "{text}");
        }
        for text in [
            "", ".", "-", "1.2.3", "1e", "e5", "abc", "1,5", " 1", "inf", "NaN", "1e+",
        ] {
            assert_eq!(parse_decimal(text), None, "{text}");
        }
        // Past 15 digits the value is still within a part in 10^15.
        let long = parse_decimal("3.14159265358979323846").unwrap();
        assert!((long - std::f64::consts::PI).abs() < 1e-14);
        assert_eq!(parse_decimal("1e999"), Some(f64::INFINITY));
    }
}
