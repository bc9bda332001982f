"""Session-wide test setup. Its folder (tests/) is on ``sys.path`` for every test, so shared helpers such as
``proc_tree`` and ``agent_registry`` import by name from any test directory."""
