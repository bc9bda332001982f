"""Starting the workspace: the ``clauz3 ui`` launcher and its configuration."""
