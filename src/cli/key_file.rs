//! `--keys @FILE` and `--keys -`: the user's own keys, one per line, at most 10,000,000.
//!
//! Why not a list in memory: a key file may hold gigabytes, and the command line's memory
//! stays bounded per key, not per byte of input. One pass checks every line and records
//! where each key starts ([`OFFSET_BYTES_PER_KEY`] bytes a key); the engine asks for names
//! again when it needs them (hashing, algorithms that score a key's name, the migration
//! list) almost always in order, which a buffered cursor turns into one sequential read.
//! Standard input cannot be read twice: it is copied to a temporary file first, removed
//! when the run ends. Blank lines are skipped, a trailing `\r` is dropped; the file must not
//! change while the run reads it.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;

use crate::engine::keys::{KeySource, MAX_KEYS, MAX_KEY_LEN};
use crate::engine::text::{first_hidden, quote};

/// What a key file costs per key beyond the engine's own bytes: where the key starts.
pub const OFFSET_BYTES_PER_KEY: u64 = 8;

/// A checked key file, read again on demand.
#[derive(Debug)]
pub struct KeyFile {
    path: PathBuf,
    shown: String,
    starts: Vec<u64>,
    cursor: Mutex<Cursor>,
    /// A copy of standard input, removed on drop.
    temporary: bool,
}

#[derive(Debug)]
struct Cursor {
    /// The key the reader is at.
    next: u32,
    /// The reader's offset in the file.
    at: u64,
    reader: BufReader<File>,
    line: Vec<u8>,
}

impl KeyFile {
    /// Opens `@FILE` (the path after `@`) or `-` (standard input), and checks every key.
    pub fn open(arg: &str) -> Result<KeyFile, String> {
        let (path, shown, temporary) = if arg == "-" {
            let path =
                std::env::temp_dir().join(format!("hashring-lab-keys-{}", std::process::id()));
            (path, "-".to_owned(), true)
        } else {
            let name = arg.strip_prefix('@').unwrap_or(arg);
            if name.is_empty() {
                return Err("--keys @FILE needs a file name after @".to_owned());
            }
            (PathBuf::from(name), name.to_owned(), false)
        };
        let checked = if temporary {
            // Standard input is checked as it is copied: a bad line stops the copy there
            // (a gigabyte of zeros is refused at its first 202 bytes, not kept first).
            File::create(&path)
                .map_err(|e| {
                    format!(
                        "--keys -: cannot keep standard input in {}: {e}",
                        path.display()
                    )
                })
                .and_then(|copy| {
                    let mut copy = BufWriter::with_capacity(1 << 16, copy);
                    let starts = check(&mut std::io::stdin().lock(), &shown, Some(&mut copy))?;
                    copy.flush()
                        .map_err(|e| format!("--keys -: cannot keep standard input: {e}"))?;
                    Ok(starts)
                })
        } else {
            File::open(&path)
                .map_err(|e| format!("--keys: cannot open {}: {e}", quote(&shown)))
                .and_then(|file| check(&mut BufReader::with_capacity(1 << 16, file), &shown, None))
        };
        let starts = match checked {
            Ok(starts) => starts,
            Err(e) => {
                if temporary {
                    let _ = std::fs::remove_file(&path);
                }
                return Err(e);
            }
        };
        let file =
            File::open(&path).map_err(|e| format!("--keys: cannot open {}: {e}", quote(&shown)))?;
        Ok(KeyFile {
            path,
            shown,
            starts,
            cursor: Mutex::new(Cursor {
                next: 0,
                at: 0,
                reader: BufReader::with_capacity(1 << 16, file),
                line: Vec::new(),
            }),
            temporary,
        })
    }
}

/// The longest line a key can come from: the key, `\r\n`, and spaces around it.
const MAX_LINE: usize = MAX_KEY_LEN + 2;

/// What [`read_line`] found.
enum Line {
    /// The end of the input.
    End,
    /// A line of this many bytes (its `\n` included) is in the buffer.
    Read(usize),
    /// A line longer than [`MAX_LINE`]: reading stopped in it.
    TooLong,
}

/// Reads one line into `line` (cleared first), but never more than [`MAX_LINE`] bytes of
/// it: a file with no line breaks (`/dev/zero`, a binary) is refused at its first line,
/// without ever holding more than a key's worth of it.
fn read_line(reader: &mut dyn BufRead, line: &mut Vec<u8>) -> std::io::Result<Line> {
    line.clear();
    loop {
        let buffer = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(if line.is_empty() {
                Line::End
            } else {
                Line::Read(line.len())
            });
        }
        let (take, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buffer.len(), false),
        };
        // One byte past the longest line is kept, so that a key a byte too long is still
        // named with its length; anything longer stops here.
        let room = MAX_LINE + 1 - line.len().min(MAX_LINE + 1);
        line.extend_from_slice(&buffer[..take.min(room)]);
        reader.consume(take);
        if take > room {
            return Ok(Line::TooLong);
        }
        if done {
            return Ok(Line::Read(line.len()));
        }
    }
}

/// One pass over the input: every key's start, or what is wrong and on which line. With
/// `copy`, every byte read is written there too (standard input kept for a second read).
fn check(
    reader: &mut dyn BufRead,
    shown: &str,
    mut copy: Option<&mut dyn Write>,
) -> Result<Vec<u64>, String> {
    let mut starts = Vec::new();
    let mut line = Vec::new();
    let (mut offset, mut number) = (0u64, 0u64);
    loop {
        let read = read_line(reader, &mut line)
            .map_err(|e| format!("--keys: cannot read {}: {e}", quote(shown)))?;
        number += 1;
        let at = |what: String| format!("--keys {}, line {number}: {what}", quote(shown));
        let read = match read {
            Line::End => break,
            Line::Read(read) => read,
            Line::TooLong => {
                return Err(at(format!(
                    "the line is longer than {MAX_LINE} bytes; a key is at most {MAX_KEY_LEN}"
                )))
            }
        };
        if let Some(copy) = copy.as_mut() {
            copy.write_all(&line)
                .map_err(|e| format!("--keys {}: cannot keep it: {e}", quote(shown)))?;
        }
        let start = offset;
        offset += read as u64;
        let key = trim_line(&line);
        if is_blank(key) {
            continue;
        }
        let Ok(text) = std::str::from_utf8(key) else {
            return Err(at("the key is not UTF-8 text".to_owned()));
        };
        if key.len() > MAX_KEY_LEN {
            return Err(at(format!(
                "the key {} is {} bytes; a key is at most {MAX_KEY_LEN}",
                quote(text),
                key.len()
            )));
        }
        if let Some(hidden) = first_hidden(text) {
            return Err(at(format!(
                "the key holds an invisible or control character ({hidden})"
            )));
        }
        if starts.len() as u64 == MAX_KEYS {
            return Err(format!(
                "--keys {}: more than {MAX_KEYS} keys (line {number} is one too many)",
                quote(shown)
            ));
        }
        starts.push(start);
    }
    if starts.is_empty() {
        return Err(format!(
            "--keys {}: no keys (one key per line)",
            quote(shown)
        ));
    }
    Ok(starts)
}

/// A line of nothing but spaces and tabs is blank: skipped, as an empty one is (a key of
/// spaces is a typing slip, and the page's pasted keys drop it too).
fn is_blank(key: &[u8]) -> bool {
    key.iter().all(|b| matches!(b, b' ' | b'\t'))
}

/// A line without its `\n` and a `\r` before it.
fn trim_line(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

impl KeySource for KeyFile {
    fn len(&self) -> usize {
        self.starts.len()
    }

    fn write_name(&self, index: u32, out: &mut String) {
        out.clear();
        let Some(&start) = self.starts.get(index as usize) else {
            return;
        };
        let mut cursor = self
            .cursor
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Cursor {
            next,
            at,
            reader,
            line,
        } = &mut *cursor;
        // A relative seek keeps the buffer when the key is in it: the moved keys of a change
        // are read in order with gaps, and a plain seek would read 64 KB for each.
        if *next != index {
            let Ok(delta) = i64::try_from(i128::from(start) - i128::from(*at)) else {
                return;
            };
            if reader.seek_relative(delta).is_err() {
                return;
            }
            *at = start;
        }
        // Blank lines between keys are skipped, as the check skipped them.
        loop {
            line.clear();
            match reader.read_until(b'\n', line) {
                Ok(0) | Err(_) => return,
                Ok(n) if is_blank(trim_line(line)) => *at += n as u64,
                Ok(n) => {
                    *at += n as u64;
                    break;
                }
            }
        }
        *next = index + 1;
        out.push_str(std::str::from_utf8(trim_line(line)).unwrap_or_default());
    }

    fn describe(&self) -> &str {
        &self.shown
    }
}

impl Drop for KeyFile {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_with(name: &str, bytes: &[u8]) -> String {
        let path =
            std::env::temp_dir().join(format!("hashring-lab-test-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        format!("@{}", path.display())
    }

    #[test]
    fn names_come_back_in_order_and_out_of_order() {
        let arg = file_with("order", b"alpha\r\n\nbeta\ngamma\n\n");
        let keys = KeyFile::open(&arg).unwrap();
        assert_eq!(keys.len(), 3);
        let mut out = String::new();
        let name = |i: u32, out: &mut String| {
            keys.write_name(i, out);
            out.clone()
        };
        assert_eq!(
            [0, 1, 2, 1, 0, 2].map(|i| name(i, &mut out)),
            ["alpha", "beta", "gamma", "beta", "alpha", "gamma"]
        );
    }

    #[test]
    fn bad_lines_are_named_with_their_number() {
        let long = format!("ok\n{}\n", "x".repeat(201));
        let cases: [(&str, &[u8], &str); 5] = [
            ("long", long.as_bytes(), "line 2: the key"),
            (
                "utf8",
                b"a\nb\n\xff\xfe\n",
                "line 3: the key is not UTF-8 text",
            ),
            (
                "hidden",
                "a\u{200b}b\n".as_bytes(),
                "line 1: the key holds an invisible",
            ),
            ("empty", b"\n\r\n", "no keys (one key per line)"),
            ("spaces", b"  \n\t \r\n", "no keys (one key per line)"),
        ];
        for (name, bytes, expected) in cases {
            let message = KeyFile::open(&file_with(name, bytes)).unwrap_err();
            assert!(message.contains(expected), "{name}: {message}");
            assert!(message.len() < 200, "{name}: {message}");
        }
        // A file with no line breaks is refused at its first line, never held.
        let message = KeyFile::open("@/dev/zero").unwrap_err();
        assert!(
            message.contains("line 1: the line is longer than 202 bytes"),
            "{message}"
        );
        // A key of 200 bytes with CRLF is the longest line; spaces-only lines are skipped.
        let arg = file_with(
            "edge",
            format!("{}\r\n   \nb\n", "k".repeat(200)).as_bytes(),
        );
        let keys = KeyFile::open(&arg).unwrap();
        assert_eq!(keys.len(), 2);
        let mut out = String::new();
        keys.write_name(1, &mut out);
        assert_eq!(out, "b");
        assert!(KeyFile::open("@")
            .unwrap_err()
            .contains("needs a file name"));
    }
}
