"""Fault tests against real processes (issue 15): see docs/reliability.md."""
