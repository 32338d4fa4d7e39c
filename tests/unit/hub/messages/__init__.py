"""Tests of the message catalog (hub/messages) and of its value type, feltwire.text."""
