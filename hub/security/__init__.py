"""MQTT security for a table: password hashes, ACL rules, the embedded broker's guards and
the table's certificate authority.

``pki`` needs the ``cryptography`` package and is imported only by ``feltwire certs``; the
rest uses the standard library (and amqtt, the ``broker`` extra, for ``amqtt_plugins``).
"""
