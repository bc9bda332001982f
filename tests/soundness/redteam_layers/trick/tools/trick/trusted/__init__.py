"""Trick layer: effects named like builtins, two effects of one name, a contract reading a global."""
