"""The Z3-backed prover: symbolic execution of the checked IR, verdicts and counterexamples (01 §4)."""
