//! DuckDB's vectors as Rust sees them: a row's text or NULL in, a row's text or NULL out.
//! Every read is bounds-free by construction: rows come from the chunk's own size.

use libduckdb_sys as ffi;

/// The kinds of key column the functions take (one overload each; DuckDB casts the
/// narrower integers to BIGINT).
#[derive(Clone, Copy)]
pub enum KeyKind {
    /// VARCHAR: UTF-8 text by DuckDB's own guarantee.
    Text,
    /// BLOB: bytes that must be UTF-8 text.
    Blob,
    /// BIGINT, placed as its decimal text.
    Signed,
    /// UBIGINT, placed as its decimal text.
    Unsigned,
}

impl KeyKind {
    /// Every kind, with its DuckDB type.
    pub const ALL: [(KeyKind, ffi::duckdb_type); 4] = [
        (KeyKind::Text, ffi::DUCKDB_TYPE_DUCKDB_TYPE_VARCHAR),
        (KeyKind::Blob, ffi::DUCKDB_TYPE_DUCKDB_TYPE_BLOB),
        (KeyKind::Signed, ffi::DUCKDB_TYPE_DUCKDB_TYPE_BIGINT),
        (KeyKind::Unsigned, ffi::DUCKDB_TYPE_DUCKDB_TYPE_UBIGINT),
    ];
}

/// One input column of a chunk.
pub struct Column {
    data: *mut std::ffi::c_void,
    validity: *mut u64,
}

impl Column {
    /// Column `index` of `chunk`.
    ///
    /// # Safety
    ///
    /// `chunk` is the chunk DuckDB passed to the function, with more than `index` columns.
    pub unsafe fn of(chunk: ffi::duckdb_data_chunk, index: u64) -> Column {
        // SAFETY: the caller's promise.
        unsafe {
            let vector = ffi::duckdb_data_chunk_get_vector(chunk, index);
            Column {
                data: ffi::duckdb_vector_get_data(vector),
                validity: ffi::duckdb_vector_get_validity(vector),
            }
        }
    }

    /// Whether `row` holds a value (not NULL).
    ///
    /// # Safety
    ///
    /// `row` is below the chunk's size.
    unsafe fn is_valid(&self, row: u64) -> bool {
        // SAFETY: a null validity mask means every row is valid; else the caller's promise.
        self.validity.is_null() || unsafe { ffi::duckdb_validity_row_is_valid(self.validity, row) }
    }

    /// The bytes of a VARCHAR or BLOB row, None when NULL.
    ///
    /// # Safety
    ///
    /// The column holds strings or blobs, and `row` is below the chunk's size. The bytes
    /// live as long as the chunk.
    pub unsafe fn bytes<'a>(&self, row: u64) -> Option<&'a [u8]> {
        // SAFETY: the caller's promises; a string's data and length are DuckDB's own.
        unsafe {
            if !self.is_valid(row) {
                return None;
            }
            let string = (self.data as *mut ffi::duckdb_string_t).add(row as usize);
            let length = ffi::duckdb_string_t_length(*string) as usize;
            let data = ffi::duckdb_string_t_data(string) as *const u8;
            Some(std::slice::from_raw_parts(data, length))
        }
    }

    /// The text of a VARCHAR row, None when NULL.
    ///
    /// # Safety
    ///
    /// As [`Column::bytes`], for a VARCHAR column.
    pub unsafe fn text<'a>(&self, row: u64) -> Option<&'a str> {
        // SAFETY: DuckDB's VARCHARs are valid UTF-8.
        unsafe { self.bytes(row).map(|b| std::str::from_utf8_unchecked(b)) }
    }

    /// Row `row` as a key of `kind`, written into `buffer` when it is a number; None when
    /// NULL.
    ///
    /// # Safety
    ///
    /// The column is of `kind`, and `row` is below the chunk's size.
    pub unsafe fn key<'a>(
        &self,
        kind: KeyKind,
        row: u64,
        buffer: &'a mut itoa::Buffer,
    ) -> Result<Option<&'a str>, String> {
        // SAFETY: the caller's promises; integer columns hold 8-byte values.
        unsafe {
            if !self.is_valid(row) {
                return Ok(None);
            }
            Ok(Some(match kind {
                KeyKind::Text => self.text(row).unwrap_or_default(),
                KeyKind::Blob => {
                    std::str::from_utf8(self.bytes(row).unwrap_or_default()).map_err(|_| {
                        "a BLOB key is not UTF-8 text; keys are placed as text".to_owned()
                    })?
                }
                KeyKind::Signed => buffer.format(*(self.data as *const i64).add(row as usize)),
                KeyKind::Unsigned => buffer.format(*(self.data as *const u64).add(row as usize)),
            }))
        }
    }
}

/// Writes a row's text, or NULL, into an output VARCHAR vector.
///
/// # Safety
///
/// `vector` is a VARCHAR output vector with more than `row` rows.
pub unsafe fn set_text(vector: ffi::duckdb_vector, row: u64, text: Option<&str>) {
    // SAFETY: the caller's promise; DuckDB copies the bytes.
    unsafe {
        match text {
            Some(text) => ffi::duckdb_vector_assign_string_element_len(
                vector,
                row,
                text.as_ptr().cast(),
                text.len() as u64,
            ),
            None => set_null(vector, row),
        }
    }
}

/// Marks a row of an output vector NULL.
///
/// # Safety
///
/// `vector` is an output vector with more than `row` rows.
pub unsafe fn set_null(vector: ffi::duckdb_vector, row: u64) {
    // SAFETY: the validity mask is made writable before it is written.
    unsafe {
        ffi::duckdb_vector_ensure_validity_writable(vector);
        ffi::duckdb_validity_set_row_invalid(ffi::duckdb_vector_get_validity(vector), row);
    }
}
