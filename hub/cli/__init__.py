"""The ``feltwire`` subcommands of the hub: one module per command, each with
``main(argv) -> int``, dispatched by :mod:`feltwire.cli`. A command module holds the
command line (arguments, prompts, output, exit codes) and calls down into the hub's
packages; nothing below imports from here.

=================  =======================================================
``certs``          a CA and TLS certificates for the table's MQTT broker
``credentials``    MQTT credentials and ACL rules for nodes and hubs
``deck``           register a deck of tagged cards; check a deck file
``equity``         win, tie and equity shares of a spot, for any game
``event_log``      check the hub's event logs; accept a loss explicitly
``history``        hand histories: replay PHH files, rebuild the hands store
``web_token``      an access token for the hub's web pages
``web_user``       web sign-in users (dealer, producer, admin)
=================  =======================================================
"""
