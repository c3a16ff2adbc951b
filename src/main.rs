//! One binary, two entry points: in the browser it mounts the page, natively it is the
//! `hashring-lab` command line (the same split as eframe's template).

#[cfg(target_arch = "wasm32")]
fn main() {
    hashring_lab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    // `args_os`: an argument that is not UTF-8 is clap's usage error, not a panic.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let code = hashring_lab::cli::run(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}
