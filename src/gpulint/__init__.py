"""gpulint: find GPU money wasted in infrastructure-as-code."""

__version__ = "0.1.0"
