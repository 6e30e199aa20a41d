"""The load bench's server (``make bench``, ``bench/load/``): the production settings, served
over plain HTTP on 127.0.0.1, plus the bench's echo sockets (``BENCH_ECHO``), the ceiling the
bench measures the live protocol against. A deploy never loads this module."""

from .production import *  # noqa: F403

# Two bare echo sockets under the same Daphne (config/routing.py): direct, and through one
# group_send on the channel layer.
BENCH_ECHO = True
