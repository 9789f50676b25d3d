"""``python -m hexkit`` runs the command line."""

from hexkit.cli import main

raise SystemExit(main())
