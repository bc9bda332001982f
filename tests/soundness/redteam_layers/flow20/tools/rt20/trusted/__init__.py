"""Red-team layer of issue 20: rows, a defaulted sink parameter, an effect group."""
