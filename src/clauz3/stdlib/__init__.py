"""Bundled standard libraries (05 §11) and the runtime code their effects share.

Each ``<name>/`` folder is package data: a library source with ``tools/<domain>/`` and
``tests/cases/`` (``clauz3 test stdlib:<name>``). The modules beside them (``runtime``,
``safefs``, ``filejournal``, ``fsops``, ``webfetch``, ``searchcorpus``, ``sqlitedb``) are part
of clauz3 itself: the trusted effects delegate to them so that the host-side undo
(``clauz3.runs.fileundo``) and the database library follow exactly the same FS-1…FS-4 rules.
"""
