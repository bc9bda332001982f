"""Per suite, the intent of every user task: guarantees from the prompt's words, and the answer."""
