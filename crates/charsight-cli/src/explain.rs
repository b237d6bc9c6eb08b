//! `charsight explain`: the library's diagnosis of each input in words
//! ([`charsight::explain`]), printed.
//!
//! Each input is read once: the decision is made on a prefix, then the
//! whole input streams through the library's [`Explainer`], so memory
//! stays bounded. Colour goes out on a terminal only (and never with
//! `NO_COLOR`), as `anstream` decides.

use std::io::{self, Write};

use anstream::ColorChoice;
use anyhow::{Context, Result};
use charsight::explain::{self, Explainer, Styling};

use crate::args::ExplainArgs;
use crate::input::{self, decide, read_some, Decided, Input, CHUNK};
use crate::Status;

/// Explains each input in turn, a blank line between two; an input that
/// cannot be read is reported and the others go on.
pub fn run(args: &ExplainArgs, out: &mut impl Write) -> Result<Status> {
    let styling = match anstream::AutoStream::choice(&io::stdout()) {
        ColorChoice::Never => Styling::Plain,
        _ => Styling::Ansi,
    };
    let mut status = Status::Success;
    for (i, input) in input::expand(&args.paths)?.into_iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let explained = match input {
            Ok(named) => one(args, &named.input, styling, out),
            Err((path, err)) => Err(anyhow::anyhow!("{}: {err}", path.display())),
        };
        match explained {
            Ok(done) => status = status.max(done),
            Err(err) if crate::is_broken_pipe(&err) => return Err(err),
            Err(err) => {
                out.flush()?;
                eprintln!("charsight: {err:#}");
                status = Status::Errors;
            }
        }
    }
    Ok(status)
}

/// Explains one input.
fn one(
    args: &ExplainArgs,
    input: &Input,
    styling: Styling,
    out: &mut impl Write,
) -> Result<Status> {
    let name = input.name().display().to_string();
    let engines = explain::engines(&args.engine.engine());
    let Decided { detections, seen, mut reader, .. } =
        decide(input, &engines, true).with_context(|| name.clone())?;
    let mut explainer = Explainer::new(detections, seen.bytes);
    let mut buf = vec![0; CHUNK];
    loop {
        let n = read_some(&mut reader, &mut buf).with_context(|| name.clone())?;
        explainer.feed(&buf[..n], n == 0);
        if n == 0 {
            break;
        }
    }
    let explanation = explainer.finish();
    out.write_all(explanation.render(Some(&name), args.limit, styling).as_bytes())?;
    Ok(if explanation.is_clean() { Status::Success } else { Status::Negative })
}
