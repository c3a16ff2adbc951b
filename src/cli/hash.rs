//! `hash`: each key's hash, decimal and hex.

use std::fmt::Write as _;

use clap::builder::PossibleValuesParser;
use clap::Args;

use crate::engine::hash::HashFn;

#[derive(Args, Debug)]
pub(super) struct HashArgs {
    /// The hash.
    #[arg(long, required = true, value_parser = PossibleValuesParser::new(HashFn::ALL.map(HashFn::name)))]
    hash: String,
    /// Keys to hash.
    #[arg(required = true, value_name = "KEY")]
    keys: Vec<String>,
}

pub(super) fn hash(args: &HashArgs) -> Result<String, String> {
    let hash = crate::engine::scenario::parse_hash(&args.hash)?;
    let mut s = String::new();
    for key in &args.keys {
        let p = hash.position(key).map_err(|e| e.to_string())?;
        let _ = writeln!(s, "{key}\t{p}\t0x{p:08x}");
    }
    Ok(s)
}
