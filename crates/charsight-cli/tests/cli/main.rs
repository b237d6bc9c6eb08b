//! Tests of the `charsight` command, one module per subcommand.

mod decode;
mod detect;
mod url;
mod util;
