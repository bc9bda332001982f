"""Plain words for failures inside the prover: no solver or Python exception names reach a person.

A person reads these in `clauz3 prove` and on approval cards; what went wrong inside (a solver
exception, a Python error in an encoder) is a limitation of the prover, not something the person
can act on, so the text says what it means for them and how to get a verdict anyway.
"""

from __future__ import annotations

ENCODE_PROGRAM = ("the prover cannot encode the construct at line {line} yet (a prover limitation, not an "
                  "error in the program); write that step more simply, e.g. with plainer values or types")
ENCODE_GUARANTEE = ("the prover cannot encode this guarantee over this program yet (a prover limitation); "
                    "write the program more simply or choose another guarantee")
SOLVER = "the solver could not check this (a prover limitation); write the program more simply"
UNDECIDED = ("the solver could not decide this either way (a prover limitation); simpler arithmetic or string "
             "operations usually give a verdict")
DISPLAY = "a counterexample exists, but the prover could not display it"
