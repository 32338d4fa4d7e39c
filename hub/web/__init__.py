"""The hub's web apps: the public table view and the producer's overlay."""
