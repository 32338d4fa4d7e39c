"""Compatibility shim (issue 14): the web users moved to :mod:`hub.security.users`.

The integrator deletes this module once every importer uses the new path.
"""

from hub.security.users import (
    MIN_PASSWORD,
    UserDirectory,
    WebUser,
    check_password,
    hash_web_password,
    inline_entry,
    read_users_file,
    write_users_file,
)

__all__ = [
    "MIN_PASSWORD",
    "UserDirectory",
    "WebUser",
    "check_password",
    "hash_web_password",
    "inline_entry",
    "read_users_file",
    "write_users_file",
]
