"""Run pipeline: supervisor, worker process, run records, ledger, snapshot and sandbox (03 §12–§15)."""
