//! hashring-lab's placement engine as a DuckDB extension, so SQL places keys where the
//! data is — from the `duckdb` command line, a `.sql` script or any client — with no
//! Python in the loop (the package's Python functions ran on one core, 3.2× the bare
//! package's time). DuckDB calls these functions on its worker threads, 2,048 rows at a
//! time:
//!
//! - `hashring_locate(cluster, key) -> VARCHAR`: the server that owns `key`;
//! - `hashring_moves(before, after, key) -> STRUCT(old_server VARCHAR, new_server VARCHAR)`:
//!   where `key` moves, NULL when it stays (SQL-safe names: `from` and `to` are reserved
//!   words);
//! - `hashring_cluster(name, cluster[, step]) -> VARCHAR`: names a cluster (with a change in
//!   the command line's `--step` syntax applied: `add:E`, `remove:B`, `fail:C`, …) for the
//!   queries after it;
//! - `hashring_lab.moved(before, after, source[, key := 'key'])`: the migration list as a
//!   table, over a table, a view or a file (`src/moved.rs`).
//!
//! A cluster is a registered name, a page link (`?algo=…`) or a system's config text, read
//! by the same layer as the command line's `--config` ([`hashring_lab::configs`]). Keys are
//! VARCHAR, UTF-8 BLOBs or integers (placed as their decimal text, as the command line
//! reads them). A NULL argument gives NULL. A problem — a cluster that cannot be read, a
//! name never registered — fails the query with a message saying what is wrong.
//!
//! Built against DuckDB's C extension API (the stable v1.2.0 function table), so the one
//! library loads into any DuckDB from 1.2 on that shares its platform.

mod clusters;
mod functions;
mod moved;
mod vectors;

use std::ffi::CString;

use libduckdb_sys as ffi;

/// The oldest C API whose function table this extension calls.
const C_API_VERSION: &str = "v1.2.0";

/// What DuckDB calls on `LOAD`: `<name>_init_c_api`, the name being the file's
/// (`hashring_lab.duckdb_extension`).
///
/// # Safety
///
/// Called by DuckDB with the `info` and `access` of the extension it is loading.
#[no_mangle]
pub unsafe extern "C" fn hashring_lab_init_c_api(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> bool {
    // SAFETY: DuckDB hands a valid `access` for `info` for the whole call.
    let outcome = std::panic::catch_unwind(|| unsafe { init(info, access) })
        .unwrap_or_else(|_| Err("hashring_lab: the extension failed while loading".to_owned()));
    match outcome {
        Ok(loaded) => loaded,
        Err(message) => {
            // SAFETY: as above; the message lives until `set_error` returns.
            unsafe {
                if let Some(set_error) = (*access).set_error {
                    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
                    set_error(info, text.as_ptr());
                }
            }
            false
        }
    }
}

/// Takes DuckDB's function table and registers the functions on a connection of the
/// database being extended. `Ok(false)`: DuckDB gave no function table (too old a DuckDB),
/// and has said so itself.
unsafe fn init(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> Result<bool, String> {
    // SAFETY: `info` and `access` are DuckDB's, valid for this call.
    unsafe {
        if !ffi::duckdb_rs_extension_api_init(info, access, C_API_VERSION)? {
            return Ok(false);
        }
        let get_database = (*access)
            .get_database
            .ok_or("hashring_lab: DuckDB gave no database to extend")?;
        let database = get_database(info);
        if database.is_null() {
            return Ok(false);
        }
        let mut connection: ffi::duckdb_connection = std::ptr::null_mut();
        if ffi::duckdb_connect(*database, &mut connection) != ffi::DuckDBSuccess {
            return Err(
                "hashring_lab: could not connect to the database to register its functions"
                    .to_owned(),
            );
        }
        let registered = functions::register(connection).and_then(|()| moved::register(connection));
        ffi::duckdb_disconnect(&mut connection);
        registered.map(|()| true)
    }
}
