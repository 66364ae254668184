"""Kadesh envs: reinforcement-learning environments over the public Kadesh API.

``kadesh.envs.manoeuvre_v0`` is Manœuvre as a PettingZoo AEC environment; it needs the
``pettingzoo``, ``gymnasium`` and ``numpy`` packages, imported only with that module.
"""
