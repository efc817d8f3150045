"""Instructor and self-check tooling over nbgrader: generate release notebooks, check one notebook."""

from autograder.errors import AutograderError

__all__ = ["AutograderError"]
