//! `hashring_lab.moved(before, after, source[, key := 'key'])`: the migration list as a
//! table — the key column (its own name, as text), `old_server`, `new_server` for the keys
//! of `source` (a table, a view or a file DuckDB reads by name) that move, in the source's
//! order.
//!
//! It is a table macro over `hashring_moves`, not a C table function: DuckDB's C extension
//! API gives a table function neither a table argument nor the caller's connection, so one
//! could not read the caller's tables (a TEMP table, uncommitted rows). A macro is expanded
//! in the caller's query, where `query_table` finds what the caller sees. It lives in an
//! in-memory catalog of its own, attached at LOAD: a macro in the user's catalog would be
//! written into their database file (and fail on a read-only one).

use std::ffi::{CStr, CString};

use libduckdb_sys as ffi;

/// The catalog the macro lives in.
const CATALOG: &str = "hashring_lab";

/// The macro. The key column is picked by name (an anchored, escaped regex: `COLUMNS`
/// takes no lambda in DuckDB 1.2 and no `->` lambda from 2.0) and keeps it; it is cast to
/// text, as the package's list gives integer keys.
const MACRO: &str = "CREATE OR REPLACE MACRO hashring_lab.main.moved(before, after, source, key := 'key') AS TABLE
SELECT COLUMNS('^' || regexp_escape(key) || '$')::VARCHAR,
       __hashring_lab_move.old_server, __hashring_lab_move.new_server
FROM (SELECT *, hashring_moves(before, after, COLUMNS('^' || regexp_escape(key) || '$')) AS __hashring_lab_move
      FROM query_table(source))
WHERE __hashring_lab_move IS NOT NULL";

/// Runs one statement on `connection`; its error message when it fails.
unsafe fn execute(connection: ffi::duckdb_connection, sql: &str) -> Result<(), String> {
    let sql = CString::new(sql).map_err(|_| "hashring_lab: a NUL in SQL".to_owned())?;
    // SAFETY: the result is DuckDB's, destroyed once after its error is read.
    unsafe {
        let mut result: ffi::duckdb_result = std::mem::zeroed();
        let state = ffi::duckdb_query(connection, sql.as_ptr(), &mut result);
        let outcome = if state == ffi::DuckDBSuccess {
            Ok(())
        } else {
            let error = ffi::duckdb_result_error(&mut result);
            Err(if error.is_null() {
                "unknown error".to_owned()
            } else {
                CStr::from_ptr(error).to_string_lossy().into_owned()
            })
        };
        ffi::duckdb_destroy_result(&mut result);
        outcome
    }
}

/// Attaches the macro's catalog and creates the macro. A database that already has a
/// catalog of that name (a file called `hashring_lab.duckdb`) keeps it untouched and goes
/// without the macro; the scalar functions are there either way.
///
/// # Safety
///
/// `connection` is an open connection to the database being extended.
pub unsafe fn register(connection: ffi::duckdb_connection) -> Result<(), String> {
    // SAFETY: the caller's promise.
    unsafe {
        if execute(connection, &format!("ATTACH ':memory:' AS {CATALOG}")).is_err() {
            return Ok(());
        }
        execute(connection, MACRO)
            .map_err(|e| format!("hashring_lab: could not create {CATALOG}.moved: {e}"))
    }
}
