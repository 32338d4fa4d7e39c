"""Pure projections of the table for each audience: the public (never a hole card), the
dealer console and the producer's overlay. No asyncio, no I/O, no clock: the caller
passes the state and the time.
"""
