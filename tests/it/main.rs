//! The integration tests, in one binary so a release build links once: the real binary run
//! through assert_cmd (`cli*`), snapshots of every report (`snapshots*`), the documented examples
//! (`docs`), known values derived independently (`known_values`), and property tests on random
//! boards (`properties*`, `solver`).

mod cli;
mod cli_colour;
mod cli_distribution;
mod cli_draw;
mod cli_help;
mod cli_honest;
mod cli_pgf;
mod cli_race;
mod cli_race_check;
mod cli_simulate;
mod cli_simulate_any;
mod cli_simulate_stateful;
mod cli_solver;
mod cli_squares;
mod cli_usage;
mod common;
mod completion_shells;
mod decline;
mod docs;
mod docs_links;
mod duel_proof;
mod facade;
mod facade_policy;
mod facade_races;
mod fuzz;
mod fuzz_analyses;
mod hostile;
mod hostile_corpus;
mod hostile_limits;
mod hostile_users;
mod import;
mod invariants;
mod json_docs;
mod known_closed_forms;
mod known_values;
mod known_values_rules;
mod layout;
mod likeliest;
mod limits_estimates;
mod limits_rules;
mod optimize;
mod properties;
mod properties_shortest;
mod random_board;
mod shared_race;
mod shown;
mod snapshots;
mod snapshots_simulate;
mod svg;
mod turn_rules;
