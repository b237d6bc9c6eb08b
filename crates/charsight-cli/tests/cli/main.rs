//! Tests of the `charsight` command, one module per subcommand.

mod agree;
mod decode;
mod detect;
mod repair;
mod url;
mod util;
mod warc;
