//! The end-to-end tests, one module per subject, in one test binary: each
//! binary links the whole toolchain, and one binary lets the harness spread
//! every test over the cores.

mod binary_compile;
mod binary_expected;
mod binary_mutation;
mod bones_cli;
mod bones_vanilla;
mod check_corpus;
mod check_lowering;
mod convert_corpus;
mod diff_cli;
mod find_cli;
mod find_exact;
mod find_targets;
mod fmt_corpus;
mod forks37_parity;
mod given_cli;
mod layout_cli;
mod layout_default;
mod layout_parity;
mod layout_svg;
mod nethack37_parity;
mod nethack50_parity;
mod nle_parity;
mod overview_expected;
mod session_cli;
mod stats_cli;
mod stats_expected;
mod test_scripts;
mod variants;
mod variants_bones;
mod variants_overview;
mod variants_parity;
mod variants_stats;
mod xlog_cli;
