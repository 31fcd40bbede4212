//! Runs the hostile corpus (`tests/hostile/cases.txt`): each argument list under a 60 s CPU-time
//! limit (`ulimit -t`: a case that computes for ever is killed, however loaded the machine), a
//! 10-minute wall-clock limit (a case that blocks without computing is caught too) and a 1 GiB
//! address-space limit (`ulimit -v`), expecting exit 0, 1 or 2, no panic and no NaN or infinite
//! figure printed.

use std::time::Duration;

use assert_cmd::cargo::cargo_bin;

/// Whether `text` prints NaN or an infinity as a figure (the word "infinite" is fine).
fn prints_non_finite(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w == "NaN" || w == "inf")
}

#[cfg(unix)]
#[test]
fn every_hostile_case_exits_cleanly_within_its_limits() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cases = std::fs::read_to_string(format!("{root}/tests/hostile/cases.txt")).unwrap();
    let boards = format!("{root}/tests/hostile/boards");
    let bin = cargo_bin("ladders");
    let mut ran = 0;
    for line in cases
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let args: Vec<String> = line
            .split_whitespace()
            .map(|a| a.replace("{b}", &boards))
            .collect();
        let out = assert_cmd::Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 1048576; ulimit -t 60; exec \"$0\" \"$@\"")
            .arg(&bin)
            .args(&args)
            .write_stdin("")
            .timeout(Duration::from_secs(600))
            .output()
            .unwrap();
        let code = out.status.code();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(
            matches!(code, Some(0..=2)),
            "{line}: exit {code:?} (killed by the CPU, wall-clock or memory limit?)\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{line}: {stderr}");
        assert!(!prints_non_finite(&stdout), "{line}: {stdout}");
        ran += 1;
    }
    assert!(ran >= 20, "only {ran} cases");
}
