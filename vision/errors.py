"""Errors from reading photos and loading models: one line each, naming the file."""

from scoring.errors import TilescoreError


class ImageError(TilescoreError):
    """An image that cannot be read: missing, empty, truncated, not an image, absurdly large."""


class ModelError(TilescoreError):
    """A model file that is missing or does not match its metadata."""
