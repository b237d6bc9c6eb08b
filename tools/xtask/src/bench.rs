//! `xtask bench`: the race as a user runs it. Each tool is one whole process
//! over a set of files (start-up, reading and detection all counted), run
//! `--runs` times; the fastest run is reported, as MB/s of the files' whole
//! size and as time, with each tool's accuracy on the same files.
//!
//! The sets, written on first use into `target/bench/` from the held-out
//! test lines of `../shared/text` ([`crate::samples`]):
//! - `large`: every encoding of the samples, two languages each, as HTML
//!   pages of 64 KiB, 256 KiB, 1 MiB and 2 MiB;
//! - `short`: 16 samples per encoding of 32 and of 128 bytes.
//!
//! The tools: `charsight detect` (the release build, `--jobs 1` and
//! `--jobs 2`); Google's CED through the npm package `ced` 2.0.0 (installed
//! by this task into `target/bench/node`, its C++ built by node-gyp; run by
//! `js/ced.js`); chardetng 0.1.17 (this crate's `bench-chardetng`
//! subcommand, a process of its own); Debian's `uchardet` command; chardet
//! (pinned in `py/requirements.txt`) as its `chardetect` command.
//! `--only-charsight` runs charsight and chardetng alone.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::labels::{self, pct, Answer, Labelled};
use crate::samples::{self, Kind};
use crate::venv;

#[derive(clap::Args)]
pub struct Args {
    /// Runs per tool and set; the fastest is reported.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Run charsight and chardetng only (no Node, Python or uchardet).
    #[arg(long)]
    only_charsight: bool,
}

/// Makes a tool's command, given the files and a file listing them.
type MakeCommand = Box<dyn Fn(&[PathBuf], &Path) -> Command>;

/// One tool: how to run it over a list of files, and how to read its answers.
struct Tool {
    name: &'static str,
    command: MakeCommand,
    /// The answers, one per file in order, from the command's output.
    answers: fn(&str, usize) -> Result<Vec<Answer>>,
}

pub fn run(args: &Args) -> Result<()> {
    if cfg!(debug_assertions) {
        bail!("run the race with a release build: cargo run --release -p xtask -- bench");
    }
    let dir = venv::target().join("bench");
    let sets = [
        ("large", dir.join("large"), Kind::Large),
        ("short", dir.join("short"), Kind::Short(&[32, 128])),
    ];
    for (_, path, kind) in &sets {
        if !path.join("labels.tsv").exists() {
            let kind = match kind {
                Kind::Large => Kind::Large,
                Kind::Short(lengths) => Kind::Short(lengths),
            };
            samples::write(path, false, 16, kind)?;
        }
    }
    let tools = tools(args, &dir)?;
    for (name, path, _) in &sets {
        let files = labels::read(path)?;
        let paths: Vec<PathBuf> = files.iter().map(|f| f.path.clone()).collect();
        let list = dir.join(format!("{name}.list"));
        let text: String = paths.iter().map(|p| format!("{}\n", p.display())).collect();
        std::fs::write(&list, text)?;
        let bytes: u64 = paths.iter().map(|p| std::fs::metadata(p).map_or(0, |m| m.len())).sum();
        println!("\n{name}: {} files, {:.1} MB", files.len(), bytes as f64 / 1e6);
        println!("| tool | fastest run | MB/s | right |");
        println!("| --- | ---: | ---: | ---: |");
        for tool in &tools {
            let (time, output) = fastest(args.runs, || (tool.command)(&paths, &list))
                .with_context(|| format!("running {}", tool.name))?;
            let answers = (tool.answers)(&output, files.len())
                .with_context(|| format!("reading {}'s answers", tool.name))?;
            let right = files.iter().zip(&answers).filter(|(f, a)| is_right(f, a)).count();
            println!(
                "| {} | {:.3} s | {:.0} | {} |",
                tool.name,
                time.as_secs_f64(),
                bytes as f64 / 1e6 / time.as_secs_f64(),
                pct(right, files.len())
            );
        }
    }
    Ok(())
}

fn is_right(file: &Labelled, answer: &Answer) -> bool {
    let bytes = std::fs::read(&file.path).unwrap_or_default();
    labels::right(&bytes, &file.label, answer)
}

/// Runs a command `runs` times; the fastest wall time and its output.
fn fastest(runs: usize, command: impl Fn() -> Command) -> Result<(Duration, String)> {
    let mut best: Option<(Duration, String)> = None;
    for _ in 0..runs.max(1) {
        let mut command = command();
        let start = Instant::now();
        let output = command.stderr(Stdio::inherit()).output()?;
        let time = start.elapsed();
        if !output.status.success() {
            bail!("{command:?} failed: {}", output.status);
        }
        if best.as_ref().is_none_or(|(t, _)| time < *t) {
            best = Some((time, String::from_utf8_lossy(&output.stdout).into_owned()));
        }
    }
    Ok(best.expect("at least one run"))
}

fn tools(args: &Args, dir: &Path) -> Result<Vec<Tool>> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    venv::run(
        Command::new(env!("CARGO"))
            .args(["build", "--release", "--locked", "-q", "-p", "charsight-cli"])
            .current_dir(&workspace),
    )?;
    let charsight = venv::target().join("release/charsight");
    let xtask = std::env::current_exe()?;
    let mut tools = Vec::new();
    for jobs in ["1", "2"] {
        let charsight = charsight.clone();
        tools.push(Tool {
            name: if jobs == "1" { "charsight --jobs 1" } else { "charsight --jobs 2" },
            command: Box::new(move |files, _| {
                let mut c = Command::new(&charsight);
                c.args(["detect", "--format", "jsonl", "--jobs", jobs]).args(files);
                c
            }),
            answers: |out, _| {
                out.lines()
                    .map(|line| {
                        let json: serde_json::Value = serde_json::from_str(line)?;
                        let binary = json["binary"].as_bool() == Some(true);
                        Ok(Answer::from_name(json["encoding"].as_str().filter(|_| !binary)))
                    })
                    .collect()
            },
        });
    }
    tools.push(Tool {
        name: "chardetng",
        command: Box::new(move |_, list| {
            let mut c = Command::new(&xtask);
            c.arg("bench-chardetng").arg(list);
            c
        }),
        answers: one_name_per_line,
    });
    if args.only_charsight {
        return Ok(tools);
    }
    let node = dir.join("node");
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join("js");
    if !node.join("node_modules/ced").exists() {
        std::fs::create_dir_all(&node)?;
        std::fs::copy(js.join("package.json"), node.join("package.json"))?;
        venv::run(
            Command::new("npm")
                .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
                .current_dir(&node),
        )
        .context("npm install ced (needs node, npm, a C++ compiler and the npm registry)")?;
    }
    tools.push(Tool {
        name: "CED (npm ced)",
        command: Box::new(move |_, list| {
            let mut c = Command::new("node");
            c.arg(js.join("ced.js")).arg(list).env("NODE_PATH", node.join("node_modules"));
            c
        }),
        answers: one_name_per_line,
    });
    tools.push(Tool {
        name: "uchardet",
        command: Box::new(|files, _| {
            let mut c = Command::new("uchardet");
            c.args(files);
            c
        }),
        answers: |out, _| Ok(out.lines().map(|l| Answer::from_name(after_colon(l))).collect()),
    });
    let chardetect = venv::python()?.with_file_name("chardetect");
    tools.push(Tool {
        name: "chardet (chardetect)",
        command: Box::new(move |files, _| {
            let mut c = Command::new(&chardetect);
            c.args(files);
            c
        }),
        answers: |out, _| Ok(out.lines().map(|l| Answer::from_name(chardet_name(l))).collect()),
    });
    Ok(tools)
}

/// The answer after the last `": "` of a `path: answer` line.
fn after_colon(line: &str) -> Option<&str> {
    line.rsplit_once(": ").map(|(_, answer)| answer)
}

/// The encoding of a `chardetect` line, `path: NAME with confidence C`
/// (`None` when it names none).
fn chardet_name(line: &str) -> Option<&str> {
    after_colon(line).and_then(|a| a.split(" with ").next()).filter(|n| *n != "None")
}

fn one_name_per_line(out: &str, files: usize) -> Result<Vec<Answer>> {
    let answers: Vec<Answer> = out.lines().map(|l| Answer::from_name(Some(l))).collect();
    if answers.len() != files {
        bail!("{} answers for {files} files", answers.len());
    }
    Ok(answers)
}

/// `xtask bench-chardetng LIST`: chardetng on each file of a list, as its own
/// process (UTF-8 allowed, no TLD), printing one encoding name per line.
pub fn chardetng_list(list: &Path) -> Result<()> {
    use std::io::Write;
    let paths = std::fs::read_to_string(list)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for path in paths.lines().filter(|l| !l.is_empty()) {
        let bytes = std::fs::read(path).with_context(|| format!("reading {path}"))?;
        let mut detector = chardetng::EncodingDetector::new();
        detector.feed(&bytes, true);
        writeln!(out, "{}", detector.guess(None, true).name())?;
    }
    Ok(())
}
