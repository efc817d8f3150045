"""Helpers that the course notebooks import: feedback checks, data, devices."""

from course.checks import CheckError, describe

__all__ = ["CheckError", "describe"]
