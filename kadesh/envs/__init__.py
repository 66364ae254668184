"""Kadesh envs: reinforcement-learning environments over the public Kadesh API.

``kadesh.envs.manoeuvre_v0`` is Manœuvre and ``kadesh.envs.front_v0`` is Front, each as a
PettingZoo AEC environment; they need the ``pettingzoo``, ``gymnasium`` and ``numpy`` packages,
imported only with those modules.
"""
