"""The ropasci game app.

This package must not import Django: ``games.engine`` and ``games.bots`` are
pure Python and are imported outside Django (scripts, benchmarks, workers).
"""
