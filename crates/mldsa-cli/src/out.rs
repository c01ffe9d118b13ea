//! Lines to standard output that end the command quietly when the reader has gone
//! (`mldsa bench | head -3`), where `println!` would panic with "Broken pipe".

use std::io::Write;

/// Writes `args` and a newline to stdout. If stdout is a pipe whose reader has closed it, the
/// process exits at once with status 0 (the reader wanted no more output; ripgrep and other
/// command-line tools do the same); any other write error exits with status 1 and a message.
pub fn line(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{args}").and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("mldsa: writing to standard output: {e}");
        std::process::exit(1);
    }
}

/// `println!` for the command's output, through [`line`].
macro_rules! outln {
    () => {
        $crate::out::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))
    };
}
