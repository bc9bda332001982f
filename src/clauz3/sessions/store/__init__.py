"""The SQLite stores of the workspace: conversations (and their search), recent workspaces, leases."""
