"""Differential testing of proved programs (01 §6): ``python -m clauz3.difftest PATH…``.

Three parts, each importing only the ones after it: :mod:`~clauz3.difftest.check` (the command:
which programs, grouped by layer, proved, run, summed up; a check that ran nothing fails),
:mod:`~clauz3.difftest.run` (runs of one proved program on stubbed effects under the monitor) and
:mod:`~clauz3.difftest.sample` (type-directed sampling of the stubs' results and the target's
arguments).
"""
