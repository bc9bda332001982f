# clauz3 developer recipes (`pip install rust-just` provides `just`)

check:
    uv run ruff check src tests bench scripts
    uv run lint-imports --no-cache
    uv run mypy src/clauz3
    uv run pytest

test *ARGS:
    uv run pytest {{ARGS}}

soak:
    uv run pytest -m soak

browser:
    uv run pytest tests/browser

bench:
    uv run python bench/run.py

adapters:
    bash scripts/install_adapters.sh

fmt:
    uv run ruff format src tests bench scripts
    uv run ruff check --fix src tests bench scripts

# clauz3 on AgentDojo's suites (hand-written oracle programs); needs `uv sync --group agentdojo`
agentdojo *ARGS:
    uv run --group agentdojo python bench/agentdojo/run.py {{ARGS}}
