"""One live conversation and its host: turns, notices, saved state, libraries, workspaces, tutorials, bridge lifetime."""
