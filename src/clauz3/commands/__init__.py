"""One module per subcommand; ``clauz3.cli`` only parses and dispatches."""
