"""CLI commands that live in their own modules (registered lazily in gpulint.cli)."""
