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
    text.chars()
        .find(|&c| is_hidden(c))
        .map(|c| format!("U+{:04X}", u32::from(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
