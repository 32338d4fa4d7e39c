"""Shared setup for the rules tests.

The engine values hands with ``hub.rules.evaluator``; the temporary slow reference
evaluator that stood in for it while it was being written has been removed.
"""
