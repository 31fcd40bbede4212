//! Hostile input (issue 17 item 2): every command at the documented size limit answers or
//! refuses within a minute. Each test failed (ran for minutes) on the main of 2026-11-23; the
//! corpus (`hostile_corpus`) runs the same boards under a CPU-time limit.

use num_bigint::BigInt;
use num_traits::Pow;

use crate::common::ladders;
use crate::hostile::hostile_board;

/// `shortest` on the empty 100,000-square board: 3.2 s at 10,000 squares and minutes at 100,000
/// before (the shortest game's probability stepped the law of every square for 16,667 turns),
/// under a second after (only the squares on shortest games are stepped).
///
/// By hand: 16,666 turns reach at most 99,996, so the fewest turns are 16,667, and no roll of
/// such a game can be wasted (an overshoot stays put). 16,667 sixes make 100,002: the games are
/// the ways to be two pips short over 16,667 rolls, C(16,668, 2) = 16,668 * 16,667 / 2 =
/// 138,902,778 of the 6^16,667 equally likely roll sequences.
#[test]
fn shortest_at_the_size_limit_is_exact_and_quick() {
    let out = ladders()
        .args(["shortest", &hostile_board("empty_100000.toml"), "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let shortest = &json["shortest"];
    assert_eq!(shortest["turns"], 16_667);
    let p = &shortest["probability"];
    let numer: BigInt = p["numerator"].as_str().unwrap().parse().unwrap();
    let denom: BigInt = p["denominator"].as_str().unwrap().parse().unwrap();
    let six: BigInt = 6.into();
    // Compared as fractions: numer * 6^16,667 == 138,902,778 * denom.
    assert_eq!(
        numer * six.pow(16_667u32),
        BigInt::from(138_902_778) * denom
    );
}
