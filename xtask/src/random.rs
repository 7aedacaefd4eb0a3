//! `cargo xtask random-schemas [--cases N] [--seed S] [--objects N]`: the
//! random-schema tests of `tests/random-schemas` on a larger set than CI
//! runs: N schemas (default [`DEFAULT_CASES`]) from seed S, each version
//! checked with `--objects` random objects (default: the test's own).
//!
//! All schemas of a run are compiled into one crate, so a large run goes in
//! batches of at most [`BATCH`] schemas (batch `k` draws from seed `S + k`),
//! which bounds the compiler's memory. Without `--seed` a fresh seed is
//! drawn. Every batch prints the command that replays it alone.

use std::hash::{BuildHasher, RandomState};
use std::time::SystemTime;

use anyhow::{Context, Result, bail};

/// Schemas drawn when `--cases` is not given.
const DEFAULT_CASES: u64 = 500;

/// Most schemas compiled at once (about 5 minutes and a few GB on 2 cores).
const BATCH: u64 = 100;

/// The options of one run.
#[derive(Debug, Default)]
struct Options {
    cases: Option<u64>,
    seed: Option<u64>,
    objects: Option<u64>,
}

fn parse(args: &[&str]) -> Result<Options> {
    let mut options = Options::default();
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let slot = match *flag {
            "--cases" => &mut options.cases,
            "--seed" => &mut options.seed,
            "--objects" => &mut options.objects,
            other => bail!(
                "unknown argument `{other}`; usage: cargo xtask random-schemas [--cases N] [--seed S] [--objects N]"
            ),
        };
        let value = args.next().with_context(|| format!("`{flag}` needs a number"))?;
        *slot = Some(value.parse().with_context(|| format!("`{flag} {value}`: not a non-negative integer"))?);
    }
    Ok(options)
}

/// A seed nobody chose: the standard library's per-process random keys
/// hashing the current time.
fn fresh_seed() -> u64 {
    RandomState::new().hash_one(SystemTime::now())
}

/// Runs `cargo test -p random-schemas` on the chosen schemas, batch by
/// batch; stops at the first failing batch.
pub fn run(args: &[&str]) -> Result<()> {
    let options = parse(args)?;
    let cases = options.cases.unwrap_or(DEFAULT_CASES);
    let seed = options.seed.unwrap_or_else(fresh_seed);
    let objects = options.objects.map(|n| format!(" --objects {n}")).unwrap_or_default();
    println!("== random schemas: {cases} CRDs from seed {seed}");
    for (k, first) in (0..cases).step_by(BATCH as usize).enumerate() {
        let size = BATCH.min(cases - first);
        let batch_seed = seed.wrapping_add(k as u64);
        let replay = format!("cargo xtask random-schemas --cases {size} --seed {batch_seed}{objects}");
        println!("== batch {}: {size} CRDs from seed {batch_seed} (replay: {replay})", k + 1);
        let mut command = super::cargo();
        command
            .args(["test", "-p", "random-schemas", "--", "--nocapture"])
            .env("CRD_RANDOM_SCHEMAS", size.to_string())
            .env("CRD_RANDOM_SEED", batch_seed.to_string());
        if let Some(n) = options.objects {
            command.env("CRD_RANDOM_OBJECTS", n.to_string());
        }
        super::run(&mut command, "the random-schema tests").with_context(|| format!("replay: {replay}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_parsed() {
        let options = parse(&["--cases", "20", "--seed", "7"]).unwrap();
        assert_eq!((options.cases, options.seed, options.objects), (Some(20), Some(7), None));
        assert!(parse(&["--cases"]).is_err());
        assert!(parse(&["--cases", "x"]).is_err());
        assert!(parse(&["--size", "1"]).is_err());
    }
}
