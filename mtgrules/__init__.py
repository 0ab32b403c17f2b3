"""mtgrules: a multilingual corpus and diff tool for the Magic: The Gathering Comprehensive Rules."""

__version__ = "0.1.0"
