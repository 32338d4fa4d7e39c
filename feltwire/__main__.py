"""``python -m feltwire`` is the ``feltwire`` command."""

from feltwire.cli import main

raise SystemExit(main())
