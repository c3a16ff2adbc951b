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
use std::io::{BufRead, BufReader};
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
            let mut out = File::create(&path).map_err(|e| {
                format!(
                    "--keys -: cannot keep standard input in {}: {e}",
                    path.display()
                )
            })?;
            std::io::copy(&mut std::io::stdin().lock(), &mut out).map_err(|e| {
                let _ = std::fs::remove_file(&path);
                format!("--keys -: cannot read standard input: {e}")
            })?;
            (path, "-".to_owned(), true)
        } else {
            let name = arg.strip_prefix('@').unwrap_or(arg);
            if name.is_empty() {
                return Err("--keys @FILE needs a file name after @".to_owned());
            }
            (PathBuf::from(name), name.to_owned(), false)
        };
        let checked = check(&path, &shown);
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

/// One pass over the file: every key's start, or what is wrong and on which line.
fn check(path: &PathBuf, shown: &str) -> Result<Vec<u64>, String> {
    let file =
        File::open(path).map_err(|e| format!("--keys: cannot open {}: {e}", quote(shown)))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut starts = Vec::new();
    let mut line = Vec::new();
    let (mut offset, mut number) = (0u64, 0u64);
    loop {
        line.clear();
        let read = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("--keys: cannot read {}: {e}", quote(shown)))?;
        if read == 0 {
            break;
        }
        number += 1;
        let start = offset;
        offset += read as u64;
        let key = trim_line(&line);
        if key.is_empty() {
            continue;
        }
        let at = |what: String| format!("--keys {}, line {number}: {what}", quote(shown));
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
                Ok(n) if trim_line(line).is_empty() => *at += n as u64,
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
        let cases: [(&str, &[u8], &str); 4] = [
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
        ];
        for (name, bytes, expected) in cases {
            let message = KeyFile::open(&file_with(name, bytes)).unwrap_err();
            assert!(message.contains(expected), "{name}: {message}");
            assert!(message.len() < 200, "{name}: {message}");
        }
        assert!(KeyFile::open("@")
            .unwrap_err()
            .contains("needs a file name"));
    }
}
