"""The vocabulary trusted layers and agent programs write with (01 §2.2–§2.8), one concept per module.

``decorators`` (``trusted``, ``guarantee``, ``requires``…) and the ``meta`` they leave on functions;
``contracts`` (relations, specs, ``effect``, ``flows``) and ``describe`` (contract descriptions);
``events``, ``fluent``, ``policy``, ``rows``, ``paths`` and the checked-subset ``path_safety``;
``deal_spellings`` (the ``deal`` decorators while a layer loads). It imports only ``clauz3.base``.
Layers and programs reach it through the public faces ``clauz3``, ``clauz3.spec``, ``clauz3.events``,
``clauz3.fluent``, ``clauz3.policy`` and ``clauz3.paths``; clauz3's own code imports it directly.
"""
