"""Benchmarks: ``python -m benchmarks [NAME ...] [-- ARGS]`` (``make bench``).

Each ``bench_<name>.py`` module here has ``main(argv)`` and prints one figure a line as
``name: value``. Benchmarks are commands, not tests: they measure, they do not assert.
"""
